/**
 * Runs `work` on every item with at most `limit` running at once, and answers the results in item order.
 * After one failure no worker takes a new item: the run is over, and more calls would only be wasted
 * (after a long rate-limit refusal each one would be refused again, and still count against the quota).
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      const item = items[index] as T;
      try {
        results[index] = await work(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

/** The items in consecutive batches of at most `size`. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const batches: T[][] = [];
  const step = Math.max(1, size);
  for (let start = 0; start < items.length; start += step) batches.push(items.slice(start, start + step));
  return batches;
}
