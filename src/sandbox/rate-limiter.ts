/**
 * The emulators' one rolling-window budget, as both services count their (unpublished) quotas: Spotify
 * per app over 30 seconds, Apple per developer token. Only accepted calls count; a refused call returns
 * how long until the oldest call of its key leaves the window.
 */
export class RollingWindowLimiter {
  private readonly calls = new Map<string, number[]>();

  constructor(
    private readonly budget: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Records the call under `key` and returns 0, or returns how many ms until it would be accepted. */
  take(key = ''): number {
    const now = this.now();
    if (this.calls.size > 1000) this.forgetIdle(now);
    let calls = this.calls.get(key);
    if (!calls) {
      calls = [];
      this.calls.set(key, calls);
    }
    while (calls.length > 0 && (calls[0] ?? 0) <= now - this.windowMs) calls.shift();
    if (calls.length >= this.budget) {
      return Math.max(1, (calls[0] ?? now) + this.windowMs - now);
    }
    calls.push(now);
    return 0;
  }

  /** Keys (addresses, tokens) with no call left in the window take no memory. */
  private forgetIdle(now: number): void {
    for (const [key, calls] of this.calls)
      if ((calls[calls.length - 1] ?? 0) <= now - this.windowMs) this.calls.delete(key);
  }
}
