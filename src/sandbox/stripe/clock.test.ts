import { describe, expect, it } from 'vitest';
import { nextPeriodEnd, periodEnd } from './clock';

const at = (iso: string) => Date.parse(iso) / 1000;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

describe('periodEnd', () => {
  it('keeps the anchor’s day of the month, or the month’s last day when it has none', () => {
    const anchor = at('2027-01-31T09:30:00Z');
    expect(iso(periodEnd(anchor, 'month', 1, 1))).toBe('2027-02-28T09:30:00.000Z');
    expect(iso(periodEnd(anchor, 'month', 1, 2))).toBe('2027-03-31T09:30:00.000Z');
    expect(iso(periodEnd(anchor, 'year', 1, 1))).toBe('2028-01-31T09:30:00.000Z');
    expect(iso(periodEnd(at('2028-02-29T00:00:00Z'), 'year', 1, 1))).toBe('2029-02-28T00:00:00.000Z');
  });

  it('finds the end of the period that starts at a given moment', () => {
    const anchor = at('2027-01-31T09:30:00Z');
    expect(iso(nextPeriodEnd(anchor, at('2027-02-28T09:30:00Z'), 'month', 1))).toBe(
      '2027-03-31T09:30:00.000Z',
    );
    expect(iso(nextPeriodEnd(anchor, anchor, 'week', 1))).toBe('2027-02-07T09:30:00.000Z');
  });
});
