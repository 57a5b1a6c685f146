/**
 * How far a source being read has come, so a match job can match the first chunks before the last page
 * has come: under a rate limit the destination's window starts with its first call, and a 10,000-track
 * source takes seconds to read. The entries themselves are not held here: they are kept in the match set's
 * store as they come (`match_source_entries`), and the job reads them from there a chunk at a time, so a
 * 100,000-song library is never in memory whole (issue 25).
 *
 * The read keeps only `readAhead` entries beyond what matching has asked for (`roomToRead`): reading and
 * matching share one process, and every page read sooner than matching needs it takes time from the first
 * destination calls. Under a rate limit those set the end: the calls beyond the window's budget wait for
 * the first ones to leave it, so the sooner the first calls go, the sooner the last can (decision 0046).
 */
export class SourceFeed {
  /** Entries kept so far: positions 0 to `kept - 1` can be read from the store. */
  kept = 0;
  /** The source's length when the service has said it. */
  total: number | null = null;
  /** Matching has begun: its progress, not the read's, is what the person sees from now on. */
  matching = false;
  private ended = false;
  private failure: { error: unknown } | undefined;
  private waiters: (() => void)[] = [];
  /** The furthest matching has asked for (`waitFor`); the read keeps `readAhead` entries beyond it. */
  private wanted = 0;
  private holding = true;
  private readers: (() => void)[] = [];

  constructor(private readonly readAhead = Number.POSITIVE_INFINITY) {}

  /** The read goes on. */
  get reading(): boolean {
    return !this.ended && this.failure === undefined;
  }

  /** The first `count` entries are kept now. */
  advance(count: number): void {
    this.kept = Math.max(this.kept, count);
    this.wake();
  }

  /** The read is done and every entry is kept. */
  end(): void {
    this.total = this.kept;
    this.ended = true;
    this.wake();
  }

  fail(error: unknown): void {
    this.failure = { error };
    this.wake();
  }

  /** Resolves once `count` entries are kept or the read has ended; throws the read's error. */
  async waitFor(count: number): Promise<void> {
    if (count > this.wanted) {
      this.wanted = count;
      this.wakeReaders();
    }
    for (;;) {
      if (this.failure) throw this.failure.error;
      if (this.ended || this.kept >= count) return;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Resolves once the read, having given `heard` entries, may ask for more (see the class comment). */
  async roomToRead(heard: number): Promise<void> {
    while (this.holding && heard >= this.wanted + this.readAhead) {
      await new Promise<void>((resolve) => this.readers.push(resolve));
    }
  }

  /** Matching has stopped short (a failure, a requeue): the read goes on at its own pace, held back no longer. */
  release(): void {
    this.holding = false;
    this.wakeReaders();
  }

  private wakeReaders(): void {
    const readers = this.readers;
    this.readers = [];
    for (const resolve of readers) resolve();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
