import { describe, expect, it } from 'vitest';
import { chunk, mapWithConcurrency } from './concurrency';

describe('mapWithConcurrency', () => {
  it('answers in item order with at most `limit` running at once', async () => {
    let running = 0;
    let most = 0;
    const results = await mapWithConcurrency([5, 1, 4, 2, 3], 2, async (n) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, n));
      running -= 1;
      return n * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30]);
    expect(most).toBe(2);
  });

  it('takes no new item after a failure, and rejects with it', async () => {
    const started: number[] = [];
    const run = mapWithConcurrency([1, 2, 3, 4, 5, 6], 2, async (n) => {
      started.push(n);
      if (n === 2) throw new Error('refused');
      await new Promise((resolve) => setTimeout(resolve, 5));
    });
    await expect(run).rejects.toThrow('refused');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started).toEqual([1, 2]);
  });
});

describe('chunk', () => {
  it('cuts into batches of at most `size`, the last one shorter', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunk([], 3)).toEqual([]);
  });
});
