import type { PlaylistEntry } from '../providers/types';

/**
 * A source's entries while they are being read, so a match job can match the first chunks before the last
 * page has come: under a rate limit the destination's window starts with its first call, and a
 * 10,000-track source takes seconds to read.
 */
export class SourceFeed {
  readonly entries: PlaylistEntry[] = [];
  /** The source's length when the service has said it. */
  total: number | null = null;
  /** Matching has begun: its progress, not the read's, is what the person sees from now on. */
  matching = false;
  private ended = false;
  private failure: { error: unknown } | undefined;
  private waiters: (() => void)[] = [];

  /** The read goes on. */
  get reading(): boolean {
    return !this.ended && this.failure === undefined;
  }

  /** More entries, in source order. */
  push(entries: readonly PlaylistEntry[]): void {
    for (const entry of entries) this.entries.push(entry);
    this.wake();
  }

  /** The read is done: `all` is the whole source, of which anything not pushed yet is added now. */
  end(all: readonly PlaylistEntry[]): void {
    this.push(all.slice(this.entries.length));
    this.total = this.entries.length;
    this.ended = true;
    this.wake();
  }

  fail(error: unknown): void {
    this.failure = { error };
    this.wake();
  }

  /** Resolves once `count` entries have come or the read has ended; throws the read's error. */
  async waitFor(count: number): Promise<void> {
    for (;;) {
      if (this.failure) throw this.failure.error;
      if (this.ended || this.entries.length >= count) return;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Every entry, once the read has ended. */
  async all(): Promise<PlaylistEntry[]> {
    await this.waitFor(Number.POSITIVE_INFINITY);
    return this.entries;
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
