import Stripe from 'stripe';
import type { Plan } from '../../shared/api/auth';
import type { AppDeps } from '../app-context';
import type { Database } from '../db/client';
import { badRequest } from '../domain-errors';
import { lockUserPlan } from '../plans/plan-store';
import { customerNow, settleDeadlines } from './billing-deadlines';
import type { PlanPriceEntry } from './billing-runtime';
import {
  type BillingAccount,
  findBillingAccountByCustomer,
  findBillingAccountByTestClock,
  isEventRecorded,
  recordEventOnce,
  saveStripeTime,
  saveSubscription,
} from './billing-store';
import { stripeCall } from './checkout';
import { changePlan } from './plan-change';
import { changeReason, isLiveStatus, planFromSubscription, subscriptionFields } from './subscription-state';

/**
 * `POST /api/billing/webhook`: the only way a plan changes after a payment. The event must carry a valid
 * `Stripe-Signature` made within 5 minutes (otherwise 400 and nothing changes); each event id is acted on
 * once, whichever process receives it and however often. The subscription is read back from Stripe, so
 * events arriving out of order all leave the latest state.
 */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export type WebhookOutcome = 'processed' | 'duplicate' | 'ignored';

type Change =
  | {
      kind: 'subscription';
      customerId: string;
      subscription: Stripe.Subscription;
      entry: PlanPriceEntry | undefined;
      clockTime: Date | null;
    }
  | { kind: 'clock'; clockId: string; time: Date }
  | { kind: 'none'; customerId: string | null };

async function verify(deps: AppDeps, payload: string, signature: string | undefined): Promise<Stripe.Event> {
  if (!signature) throw badRequest('The Stripe-Signature header is missing: nothing was changed.');
  const secrets = await stripeCall(() => deps.billing.webhookSecrets());
  let stale = false;
  for (const secret of secrets) {
    try {
      const event = deps.billing
        .stripe()
        .webhooks.constructEvent(payload, signature, secret, WEBHOOK_TOLERANCE_SECONDS);
      // Stripe's check refuses signatures older than the tolerance; one dated in the future is as suspect.
      const signedAt = Number(/(?:^|,)t=(\d+)/.exec(signature)?.[1]);
      if (signedAt - Date.now() / 1000 > WEBHOOK_TOLERANCE_SECONDS) stale = true;
      else return event;
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) throw error;
      if (/tolerance/i.test(error.message)) stale = true;
    }
  }
  throw badRequest(
    stale
      ? 'The webhook was not signed within the last 5 minutes: nothing was changed.'
      : 'The webhook signature does not match: nothing was changed.',
  );
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

/** What Stripe says now about the subscription an event concerns (read before any transaction). */
async function readChange(deps: AppDeps, event: Stripe.Event): Promise<Change> {
  let subscriptionId: string | null = null;
  let customerId: string | null = null;
  switch (event.type) {
    case 'checkout.session.completed':
      subscriptionId = idOf(event.data.object.subscription);
      customerId = idOf(event.data.object.customer);
      break;
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      subscriptionId = event.data.object.id;
      customerId = idOf(event.data.object.customer);
      break;
    case 'invoice.paid':
    case 'invoice.payment_failed':
      subscriptionId = idOf(event.data.object.parent?.subscription_details?.subscription);
      customerId = idOf(event.data.object.customer);
      break;
    case 'test_helpers.test_clock.ready':
      return {
        kind: 'clock',
        clockId: event.data.object.id,
        time: new Date(event.data.object.frozen_time * 1000),
      };
    default:
      return { kind: 'none', customerId: null };
  }
  if (!subscriptionId) return { kind: 'none', customerId };
  const stripe = deps.billing.stripe();
  const subscription = await stripeCall(() =>
    stripe.subscriptions.retrieve(subscriptionId, { expand: ['latest_invoice'] }),
  );
  const clockId = idOf(subscription.test_clock);
  const clock = clockId ? await stripeCall(() => stripe.testHelpers.testClocks.retrieve(clockId)) : null;
  const priceId = subscription.items.data[0]?.price.id;
  return {
    kind: 'subscription',
    customerId: idOf(subscription.customer) ?? customerId ?? '',
    subscription,
    entry: priceId ? await stripeCall(() => deps.billing.planOfPrice(priceId)) : undefined,
    clockTime: clock ? new Date(clock.frozen_time * 1000) : null,
  };
}

export async function receiveWebhook(
  deps: AppDeps,
  payload: string,
  signature: string | undefined,
): Promise<WebhookOutcome> {
  const event = await verify(deps, payload, signature);
  const outcome = await actOnEvent(deps, event);
  // Every delivery's outcome is logged, a duplicate found before any work too (operators count them).
  deps.logger.info({ event: event.id, type: event.type, outcome }, 'stripe webhook');
  return outcome;
}

/** The event's effect, once across processes: `duplicate` when another delivery already acted on it. */
async function actOnEvent(deps: AppDeps, event: Awaited<ReturnType<typeof verify>>): Promise<WebhookOutcome> {
  if (await isEventRecorded(deps.db, event.id)) return 'duplicate';
  const change = await readChange(deps, event);
  return deps.db.transaction(async (tx) => {
    const account =
      change.kind === 'clock'
        ? await findBillingAccountByTestClock(tx, change.clockId)
        : change.customerId
          ? await findBillingAccountByCustomer(tx, change.customerId)
          : undefined;
    // The event's row is written in the same transaction as its effect: one effect, whoever commits first.
    const fresh = await recordEventOnce(tx, {
      id: event.id,
      type: event.type,
      userId: account?.userId ?? null,
    });
    if (!fresh) return 'duplicate' as const;
    if (!account || change.kind === 'none') return 'ignored' as const;
    const plan = await lockUserPlan(tx, account.userId);
    if (!plan) return 'ignored' as const;
    if (change.kind === 'clock') {
      await saveStripeTime(tx, account.userId, change.time);
      await settleDeadlines(tx, account.userId, plan, customerNow(change.time, account.stripeTime));
      return 'processed' as const;
    }
    return applySubscription(tx, account, plan, change);
  });
}

async function applySubscription(
  tx: Database,
  account: BillingAccount,
  plan: Plan,
  change: Extract<Change, { kind: 'subscription' }>,
): Promise<WebhookOutcome> {
  const { subscription, entry, clockTime } = change;
  // News of an old subscription does not overwrite the live one the person has now.
  if (
    account.subscriptionId &&
    account.subscriptionId !== subscription.id &&
    isLiveStatus(account.subscriptionStatus) &&
    !isLiveStatus(subscription.status)
  ) {
    return 'ignored';
  }
  const fields = subscriptionFields(subscription, entry);
  await saveSubscription(tx, account.userId, fields);
  if (clockTime) await saveStripeTime(tx, account.userId, clockTime);
  const now = customerNow(clockTime, account.stripeTime);
  const target = planFromSubscription(fields, now);
  let current = plan;
  if (target && target !== plan) {
    const reason = changeReason(plan, target, fields, account.subscriptionStatus);
    const endedAt = subscription.ended_at ? new Date(subscription.ended_at * 1000) : null;
    const effectiveAt =
      reason === 'grace_ended' && fields.graceEndsAt
        ? fields.graceEndsAt
        : reason === 'subscription_ended' && endedAt
          ? endedAt
          : (clockTime ?? new Date());
    await changePlan(tx, { userId: account.userId, from: plan, to: target, reason, effectiveAt });
    current = target;
  }
  await settleDeadlines(tx, account.userId, current, now);
  return 'processed';
}
