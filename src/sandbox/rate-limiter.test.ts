import { describe, expect, it } from 'vitest';
import { RollingWindowLimiter } from './rate-limiter';

describe('RollingWindowLimiter', () => {
  it('accepts the budget per key in a rolling window and says how long until the next call fits', () => {
    let now = 0;
    const limiter = new RollingWindowLimiter(2, 1_000, () => now);
    expect(limiter.take('a')).toBe(0);
    now = 400;
    expect(limiter.take('a')).toBe(0);
    // A third call for `a` waits until the first leaves the window; `b` has its own budget.
    expect(limiter.take('a')).toBe(600);
    expect(limiter.take('b')).toBe(0);
    now = 1_000;
    expect(limiter.take('a')).toBe(0);
    // Refused calls did not count: the window holds the calls at 400 and 1000.
    now = 1_399;
    expect(limiter.take('a')).toBe(1);
    now = 1_400;
    expect(limiter.take('a')).toBe(0);
  });
});
