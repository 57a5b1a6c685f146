/** `waitUntil` ran out of time; `last` is the last value it read. */
export class WaitTimeoutError<T = unknown> extends Error {
  constructor(
    timeoutMs: number,
    readonly last: T,
  ) {
    super(`gave up waiting after ${timeoutMs} ms; last value ${JSON.stringify(last)?.slice(0, 300)}`);
    this.name = 'WaitTimeoutError';
  }
}

/**
 * Polls `read` until `done` holds, for tests and benchmarks that watch a job through the API.
 *
 * The pause between reads starts at `intervalMs` and grows by half each time up to `maxIntervalMs`: a
 * short wait still ends within a tenth of a second, while a job that runs for minutes is not asked after
 * ten times a second. Each read is a real request the server answers from its database (a match view
 * of 1,200 rows, say), and on a 2-core machine those answers cost the job under test its CPU.
 */
export async function waitUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 60_000,
  intervalMs = 100,
  maxIntervalMs = 1_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let pause = intervalMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new WaitTimeoutError(timeoutMs, value);
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(maxIntervalMs, Math.max(pause, pause * 1.5));
  }
}
