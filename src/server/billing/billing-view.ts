import type { Billing, BillingPrices } from '../../shared/api/billing';
import type { AppDeps } from '../app-context';
import { notFound } from '../domain-errors';
import { findUserById } from '../plans/plan-store';
import { countSyncsPausedByPlan } from '../syncs/sync-store';
import { findBillingAccount, latestPlanChange } from './billing-store';
import { stripeCall } from './checkout';
import { isLiveStatus } from './subscription-state';

const iso = (value: Date | null | undefined) => (value ? value.toISOString() : null);

/** GET /api/billing: the plan and subscription as the last verified webhook left them (no call to Stripe). */
export async function loadBilling(deps: AppDeps, userId: string): Promise<Billing> {
  const [user, account, change, pausedSyncs] = await Promise.all([
    findUserById(deps.db, userId),
    findBillingAccount(deps.db, userId),
    latestPlanChange(deps.db, userId),
    countSyncsPausedByPlan(deps.db, userId),
  ]);
  if (!user) throw notFound('This account no longer exists.');
  const live = account?.subscriptionPlan && isLiveStatus(account.subscriptionStatus);
  return {
    plan: user.plan,
    payments: deps.billing.payments,
    canManage: Boolean(account?.customerId),
    subscription:
      live && account?.subscriptionPlan
        ? {
            plan: account.subscriptionPlan,
            interval: account.billingInterval,
            status: account.subscriptionStatus ?? 'active',
            currentPeriodEnd: iso(account.currentPeriodEnd),
            cancelAtPeriodEnd: account.cancelAtPeriodEnd,
          }
        : null,
    paymentProblem:
      account?.subscriptionStatus === 'past_due' && account.paymentFailedAt && account.graceEndsAt
        ? { failedAt: account.paymentFailedAt.toISOString(), graceEndsAt: account.graceEndsAt.toISOString() }
        : null,
    lastInvoice: account?.lastInvoice ?? null,
    lastChange: change
      ? {
          from: change.fromPlan,
          to: change.toPlan,
          reason: change.reason,
          effectiveAt: change.effectiveAt.toISOString(),
          syncsPaused: change.syncsPaused,
          syncsResumed: change.syncsResumed,
          backupsKeptUntil: iso(change.backupsKeptUntil),
        }
      : null,
    pausedSyncs,
    backupsKeptUntil: iso(account?.backupsKeptUntil),
  };
}

/** GET /api/billing/prices: what the plans cost, read from Stripe (cached). */
export async function loadPrices(deps: AppDeps): Promise<BillingPrices> {
  const prices = await stripeCall(() => deps.billing.prices());
  return {
    payments: deps.billing.payments,
    prices: prices.map(({ plan, interval, amount, currency }) => ({ plan, interval, amount, currency })),
  };
}
