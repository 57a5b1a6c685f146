import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './http';

describe('parseRetryAfter', () => {
  it('reads whole and fractional seconds as milliseconds, rounding up', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('0.2')).toBe(200);
  });
  it('ignores a missing or empty header', () => {
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter(' ')).toBeUndefined();
  });
  it('reads an HTTP date as the time until then', () => {
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    const wait = parseRetryAfter(inTenSeconds) ?? -1;
    expect(wait).toBeGreaterThan(8_000);
    expect(wait).toBeLessThanOrEqual(10_000);
  });
});
