/**
 * Downloads written as they are read (issue 25, decision 0042): a file is a sequence of text pieces
 * produced from the database a bounded page at a time, sent as they come, so what the server holds does
 * not grow with the size of the file.
 */

/** Text gathered before it goes out as one chunk: many small pieces (a JSON key, a bracket) make one write. */
const CHUNK_CHARS = 16 * 1024;

/** What a download that stops half-way says where it is seen (the server's own console): no detail. */
export const DOWNLOAD_STOPPED = 'The download stopped before its end';

/**
 * Every page of a keyset-paged read: `read(after)` answers at most a page of rows after the cursor (none:
 * from the first) and the cursor of its last row, or null when that page was the last.
 */
export async function* keysetPages<T, C>(
  read: (after: C | undefined) => Promise<{ rows: T[]; next: C | null }>,
): AsyncGenerator<T[]> {
  let after: C | undefined;
  for (;;) {
    const page = await read(after);
    if (page.rows.length > 0) yield page.rows;
    if (page.next === null) return;
    after = page.next;
  }
}

/**
 * A web stream of the pieces, pulled: the next piece (and so the next page read) is asked for only when
 * the connection has taken what came before (backpressure). The first piece is read before the stream is
 * handed over, so a failure there is an ordinary error answer (500, or the 4xx the service raised).
 * A failure after that cannot change the status any more: it is logged through `onError` and the stream
 * is aborted, which cuts the connection without the end of the chunked body, so the browser reports a
 * failed download instead of keeping a short file that looks whole.
 */
export async function downloadStream(
  pieces: AsyncIterable<string>,
  onError: (error: unknown) => void,
): Promise<ReadableStream<Uint8Array>> {
  const iterator = pieces[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  const first = await iterator.next();
  let pending = first.done ? '' : first.value;
  let finished = first.done === true;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          while (!finished && pending.length < CHUNK_CHARS) {
            const next = await iterator.next();
            if (next.done) finished = true;
            else pending += next.value;
          }
        } catch (error) {
          onError(error);
          controller.error(new Error(DOWNLOAD_STOPPED));
          return;
        }
        if (pending.length > 0) controller.enqueue(encoder.encode(pending));
        pending = '';
        if (finished) controller.close();
      },
      async cancel() {
        // The person went away: stop reading (a generator's `finally` runs).
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}
