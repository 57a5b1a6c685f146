import type Stripe from 'stripe';
import type { Plan } from '../../shared/api/auth';
import { GRACE_DAYS, type PlanChangeReason } from '../../shared/api/billing';
import type { StoredInvoice } from '../db/schema';
import type { PlanPriceEntry } from './billing-runtime';
import type { SubscriptionFields } from './billing-store';

/**
 * From Stripe's subscription to the person's plan (pure). Active: the plan of its price. Past due (a
 * renewal failed): the plan still, for a grace period of 7 days from the failure, then Free. Anything
 * else (canceled, unpaid, incomplete): Free.
 */
const DAY_MS = 24 * 60 * 60_000;

const LIVE = new Set(['active', 'trialing', 'past_due']);
export const isLiveStatus = (status: string | null | undefined) => Boolean(status && LIVE.has(status));

const date = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null);

function storedInvoice(invoice: Stripe.Invoice | string | null): StoredInvoice | null {
  if (!invoice || typeof invoice === 'string') return null;
  return {
    id: invoice.id,
    amount: invoice.status === 'paid' ? invoice.amount_paid : invoice.amount_due,
    currency: invoice.currency,
    status: invoice.status ?? 'draft',
    createdAt: new Date(invoice.created * 1000).toISOString(),
    url: invoice.hosted_invoice_url ?? null,
  };
}

/**
 * The fields kept for a subscription (`latest_invoice` expanded). A failed renewal leaves the
 * subscription past due with its latest invoice open: the grace period counts from that invoice.
 */
export function subscriptionFields(
  sub: Stripe.Subscription,
  entry: PlanPriceEntry | undefined,
): SubscriptionFields {
  const item = sub.items.data[0];
  const invoice = typeof sub.latest_invoice === 'object' ? sub.latest_invoice : null;
  const failed = sub.status === 'past_due' && invoice?.status === 'open' ? date(invoice.created) : null;
  return {
    subscriptionId: sub.id,
    subscriptionPlan: entry?.plan ?? null,
    billingInterval: entry?.interval ?? null,
    subscriptionStatus: sub.status,
    currentPeriodEnd: date(item?.current_period_end),
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    paymentFailedAt: failed,
    graceEndsAt: failed ? new Date(failed.getTime() + GRACE_DAYS * DAY_MS) : null,
    lastInvoice: storedInvoice(sub.latest_invoice),
  };
}

/** The plan these fields give at `now`; undefined when the price is not one Crossfade sells (left as is). */
export function planFromSubscription(
  fields: Pick<SubscriptionFields, 'subscriptionPlan' | 'subscriptionStatus' | 'graceEndsAt'>,
  now: Date,
): Plan | undefined {
  const { subscriptionStatus: status, subscriptionPlan: plan } = fields;
  if (status === 'active' || status === 'trialing') return plan ?? undefined;
  if (status === 'past_due') {
    if (!plan) return undefined;
    return fields.graceEndsAt && now < fields.graceEndsAt ? plan : 'free';
  }
  return 'free';
}

/** Why a plan moved from `from` to `to`, told in the e-mail and on /account. */
export function changeReason(
  from: Plan,
  to: Plan,
  fields: Pick<SubscriptionFields, 'subscriptionStatus'>,
  previousStatus: string | null,
): PlanChangeReason {
  if (to === 'free') return fields.subscriptionStatus === 'past_due' ? 'grace_ended' : 'subscription_ended';
  if (from === 'free') return previousStatus === 'past_due' ? 'payment_recovered' : 'checkout';
  return 'plan_changed';
}
