/**
 * Apple counts requests per developer token over a window it does not publish and answers 429 until the
 * rate drops. A rolling window per key reproduces that: only accepted requests count.
 */
export function createRateLimiter(
  limit: { budget: number; windowMs: number } | null | undefined,
  now: () => number,
) {
  const history = new Map<string, number[]>();
  return function allow(key: string): boolean {
    if (!limit) return true;
    const time = now();
    const recent = (history.get(key) ?? []).filter((at) => at > time - limit.windowMs);
    if (recent.length >= limit.budget) {
      history.set(key, recent);
      return false;
    }
    recent.push(time);
    history.set(key, recent);
    return true;
  };
}
