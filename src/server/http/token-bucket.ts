/**
 * In-process token buckets keyed by caller: `ratePerSecond` refill, `burst` capacity. Used where a
 * per-process limit is enough (analytics ingestion); limits that must hold across processes, such as
 * sign-in throttling, live in the database instead.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; updatedAt: number }>();

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes `cost` tokens; returns 0 when allowed, else the milliseconds until it would be. */
  take(key: string, cost = 1): number {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, updatedAt: now };
    bucket.tokens = Math.min(
      this.burst,
      bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.ratePerSecond,
    );
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 50_000) this.evictFull(now);
    if (bucket.tokens >= cost) {
      bucket.tokens -= cost;
      return 0;
    }
    return Math.ceil(((cost - bucket.tokens) / this.ratePerSecond) * 1000);
  }

  /** Buckets that have refilled completely carry no information and can go. */
  private evictFull(now: number) {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.ratePerSecond >= this.burst)
        this.buckets.delete(key);
    }
  }
}
