import type { Interval, StripeState } from './state';

/** Real time in seconds, as Stripe's timestamps are. */
export const realNow = () => Math.floor(Date.now() / 1000);

export const DAY = 24 * 60 * 60;

/**
 * "Now" for a customer: the frozen time of the test clock the customer belongs to, real time otherwise.
 * Every object of a clock's customers (subscriptions, invoices) lives in that clock's time, as on Stripe.
 */
export function nowFor(state: StripeState, customerId: string | null): number {
  const clockId = customerId ? state.customers[customerId]?.testClock : null;
  const clock = clockId ? state.testClocks[clockId] : undefined;
  return clock ? clock.frozenTime : realNow();
}

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/**
 * The end of the `n`th period after `anchor`. Months keep the anchor's day where the month has it and
 * take the month's last day otherwise (an anchor on the 31st bills on Feb 28 and then Mar 31), as
 * Stripe's billing cycle anchor does.
 */
export function periodEnd(anchor: number, interval: Interval, count: number, n: number): number {
  if (interval === 'day') return anchor + n * count * DAY;
  if (interval === 'week') return anchor + n * count * 7 * DAY;
  const start = new Date(anchor * 1000);
  const months = n * count * (interval === 'year' ? 12 : 1);
  const year = start.getUTCFullYear() + Math.floor((start.getUTCMonth() + months) / 12);
  const month = (start.getUTCMonth() + months) % 12;
  const day = Math.min(start.getUTCDate(), daysInMonth(year, month));
  return Date.UTC(year, month, day, start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds()) / 1000;
}

/** The end of the period that starts at `start`, on a cycle anchored at `anchor`. */
export function nextPeriodEnd(anchor: number, start: number, interval: Interval, count: number): number {
  for (let n = 1; n < 10_000; n++) {
    const end = periodEnd(anchor, interval, count, n);
    if (end > start) return end;
  }
  throw new Error('period arithmetic ran away');
}
