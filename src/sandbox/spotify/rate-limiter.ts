/** A rolling-window budget over every API call, as Spotify counts its (unpublished) 30-second quota. */
export class RollingWindowLimiter {
  private readonly calls: number[] = [];

  constructor(
    private readonly budget: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Records the call and returns 0, or returns how many ms until the oldest call leaves the window. */
  take(): number {
    const now = this.now();
    while (this.calls.length > 0 && (this.calls[0] ?? 0) <= now - this.windowMs) this.calls.shift();
    if (this.calls.length >= this.budget) {
      return Math.max(1, (this.calls[0] ?? now) + this.windowMs - now);
    }
    this.calls.push(now);
    return 0;
  }
}
