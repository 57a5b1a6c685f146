/** Polls `read` until `done` holds, for tests and benchmarks that watch a job through the API. */
export async function waitUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 60_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(
        `gave up waiting after ${timeoutMs} ms; last value ${JSON.stringify(value).slice(0, 300)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
