import { describe, expect, it } from 'vitest';
import { changeReason, planFromSubscription } from './subscription-state';

const DAY_MS = 24 * 60 * 60_000;
const failedAt = new Date('2027-03-01T12:00:00Z');
const graceEndsAt = new Date(failedAt.getTime() + 7 * DAY_MS);

describe('planFromSubscription', () => {
  it('gives the plan of an active subscription, Free for one that ended or never started', () => {
    const now = new Date();
    expect(
      planFromSubscription({ subscriptionPlan: 'pro', subscriptionStatus: 'active', graceEndsAt: null }, now),
    ).toBe('pro');
    expect(
      planFromSubscription(
        { subscriptionPlan: 'vault', subscriptionStatus: 'trialing', graceEndsAt: null },
        now,
      ),
    ).toBe('vault');
    for (const status of ['canceled', 'unpaid', 'incomplete', 'incomplete_expired', 'paused']) {
      expect(
        planFromSubscription({ subscriptionPlan: 'pro', subscriptionStatus: status, graceEndsAt: null }, now),
      ).toBe('free');
    }
  });

  it('keeps the plan of a past-due subscription for exactly the 7-day grace period', () => {
    const fields = { subscriptionPlan: 'pro' as const, subscriptionStatus: 'past_due', graceEndsAt };
    expect(planFromSubscription(fields, new Date(graceEndsAt.getTime() - 1))).toBe('pro');
    expect(planFromSubscription(fields, graceEndsAt)).toBe('free');
    expect(planFromSubscription({ ...fields, graceEndsAt: null }, failedAt)).toBe('free');
  });

  it('leaves the plan alone for a price Crossfade does not sell', () => {
    expect(
      planFromSubscription(
        { subscriptionPlan: null, subscriptionStatus: 'active', graceEndsAt: null },
        new Date(),
      ),
    ).toBeUndefined();
  });
});

describe('changeReason', () => {
  it('names why a plan moved', () => {
    expect(changeReason('free', 'pro', { subscriptionStatus: 'active' }, null)).toBe('checkout');
    expect(changeReason('free', 'pro', { subscriptionStatus: 'active' }, 'past_due')).toBe(
      'payment_recovered',
    );
    expect(changeReason('pro', 'vault', { subscriptionStatus: 'active' }, 'active')).toBe('plan_changed');
    expect(changeReason('pro', 'free', { subscriptionStatus: 'canceled' }, 'active')).toBe(
      'subscription_ended',
    );
    expect(changeReason('pro', 'free', { subscriptionStatus: 'past_due' }, 'past_due')).toBe('grace_ended');
  });
});
