import Stripe from 'stripe';
import { PLAN_LABELS, type SessionUser } from '../../shared/api/auth';
import type { BillingInterval, BillingRedirect, CheckoutStatus, PaidPlan } from '../../shared/api/billing';
import type { AppDeps } from '../app-context';
import { badRequest, DomainError, notConfigured, notFound } from '../domain-errors';
import { findUserById } from '../plans/plan-store';
import { type BillingAccount, findBillingAccount, forgetCustomer, saveCustomer } from './billing-store';
import { isLiveStatus } from './subscription-state';

/**
 * Buying a plan (Stripe Checkout, subscription mode), switching it (the customer portal's confirmation
 * step, for someone who already subscribes), and "Manage billing" (the customer portal). None of these
 * changes a plan: only the webhooks Stripe sends afterwards do.
 */

/** Stripe's own failures as the person should read them; our mistakes (bad parameters) stay 500s. */
export async function stripeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (
      error instanceof Stripe.errors.StripeConnectionError ||
      error instanceof Stripe.errors.StripeAPIError ||
      error instanceof Stripe.errors.StripeRateLimitError
    ) {
      throw notConfigured(
        'Payments are unavailable right now: Stripe did not answer. Please try again in a minute.',
      );
    }
    throw error;
  }
}

/**
 * The person's Stripe customer, created the first time they buy. In the sandbox each customer gets a test
 * clock of their own. Two requests at once may both create one; the first saved wins and the other is
 * deleted again.
 */
async function ensureCustomer(deps: AppDeps, user: SessionUser): Promise<BillingAccount> {
  const existing = await findBillingAccount(deps.db, user.id);
  if (existing?.customerId) return existing;
  const stripe = deps.billing.stripe();
  const profile = await findUserById(deps.db, user.id);
  if (!profile) throw notFound('This account no longer exists.');
  const clock = deps.billing.testClocks
    ? await stripeCall(() =>
        stripe.testHelpers.testClocks.create({
          frozen_time: Math.floor(Date.now() / 1000),
          name: `Crossfade ${profile.username}`.slice(0, 300),
        }),
      )
    : null;
  const customer = await stripeCall(() =>
    stripe.customers.create({
      email: profile.email,
      name: profile.username,
      metadata: { crossfade_user_id: user.id },
      ...(clock ? { test_clock: clock.id } : {}),
    }),
  );
  await saveCustomer(deps.db, { userId: user.id, customerId: customer.id, testClockId: clock?.id ?? null });
  const saved = await findBillingAccount(deps.db, user.id);
  if (!saved?.customerId) throw new Error('the billing account was not saved');
  if (saved.customerId !== customer.id) {
    await stripe.customers.del(customer.id).catch((error: unknown) => {
      deps.logger.warn(
        { err: error, customer: customer.id },
        'a duplicate Stripe customer could not be deleted',
      );
    });
  }
  return saved;
}

/** Stripe answered that an object we stored (the customer, its subscription) does not exist. */
const isGone = (error: unknown) =>
  error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing';

/**
 * Runs `use` with the person's customer. When Stripe no longer knows it (or its subscription), the
 * stored customer is forgotten and `use` runs once more with a new one.
 */
async function withCustomer<T>(
  deps: AppDeps,
  user: SessionUser,
  use: (account: BillingAccount) => Promise<T>,
): Promise<T> {
  const account = await ensureCustomer(deps, user);
  try {
    return await use(account);
  } catch (error) {
    if (!isGone(error) || !account.customerId) throw error;
    deps.logger.warn(
      { customer: account.customerId },
      'Stripe no longer knows this customer; a new one is made',
    );
    await forgetCustomer(deps.db, user.id, account.customerId);
    return use(await ensureCustomer(deps, user));
  }
}

export async function startCheckout(
  deps: AppDeps,
  user: SessionUser,
  plan: PaidPlan,
  interval: BillingInterval = 'month',
): Promise<BillingRedirect> {
  const prices = await stripeCall(() => deps.billing.prices());
  const price = prices.find((entry) => entry.plan === plan && entry.interval === interval);
  if (!price) {
    throw badRequest(
      `${PLAN_LABELS[plan]} is not sold ${interval === 'year' ? 'yearly' : 'monthly'} on this server.`,
    );
  }
  // Someone on the plan without a subscription (an operator gave it) needs no customer made for nothing.
  const existing = await findBillingAccount(deps.db, user.id);
  const subscribes = Boolean(existing?.subscriptionId && isLiveStatus(existing.subscriptionStatus));
  if (!subscribes && user.plan === plan) throw badRequest(`You are on ${PLAN_LABELS[plan]} already.`);
  return withCustomer(deps, user, (account) => checkoutFor(deps, user, account, price.id, plan, interval));
}

async function checkoutFor(
  deps: AppDeps,
  user: SessionUser,
  account: BillingAccount,
  priceId: string,
  plan: PaidPlan,
  interval: BillingInterval,
): Promise<BillingRedirect> {
  const customerId = account.customerId ?? '';
  if (account.subscriptionId && isLiveStatus(account.subscriptionStatus)) {
    return switchPlan(deps, account, priceId, plan, interval);
  }
  if (user.plan === plan) throw badRequest(`You are on ${PLAN_LABELS[plan]} already.`);
  const stripe = deps.billing.stripe();
  const publicUrl = deps.config.publicUrl;
  // An earlier, unpaid checkout of this person's is closed, so one person cannot end up paying twice.
  const open = await stripeCall(() =>
    stripe.checkout.sessions.list({ customer: customerId, status: 'open', limit: 10 }),
  );
  for (const session of open.data) await stripeCall(() => stripe.checkout.sessions.expire(session.id));
  const session = await stripeCall(() =>
    stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customerId,
      line_items: [{ price: priceId, quantity: 1 }],
      success_url: `${publicUrl}/billing/return?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${publicUrl}/pricing?checkout=canceled`,
      client_reference_id: user.id,
      metadata: { crossfade_user_id: user.id, crossfade_plan: plan },
      subscription_data: { metadata: { crossfade_user_id: user.id } },
    }),
  );
  if (!session.url) throw new Error('Stripe answered a Checkout Session without a url');
  return { url: session.url };
}

/** Someone who subscribes already switches in the customer portal, on its confirmation step. */
async function switchPlan(
  deps: AppDeps,
  account: BillingAccount,
  priceId: string,
  plan: PaidPlan,
  interval: BillingInterval,
): Promise<BillingRedirect> {
  if (account.subscriptionPlan === plan && account.billingInterval === interval) {
    throw badRequest(
      account.cancelAtPeriodEnd
        ? `You are on ${PLAN_LABELS[plan]} until the end of this period: to keep it, choose "Renew plan" under Manage billing on /account.`
        : `You are on ${PLAN_LABELS[plan]} already.`,
    );
  }
  const stripe = deps.billing.stripe();
  const subscription = await stripeCall(() => stripe.subscriptions.retrieve(account.subscriptionId ?? ''));
  const item = subscription.items.data[0];
  if (!item) throw new Error('a subscription without items');
  const configuration = await stripeCall(() => deps.billing.portalConfiguration());
  const returnUrl = `${deps.config.publicUrl}/account`;
  const session = await stripeCall(() =>
    stripe.billingPortal.sessions.create({
      customer: account.customerId ?? '',
      return_url: returnUrl,
      ...(configuration ? { configuration } : {}),
      flow_data: {
        type: 'subscription_update_confirm',
        subscription_update_confirm: {
          subscription: subscription.id,
          items: [{ id: item.id, price: priceId, quantity: 1 }],
        },
        after_completion: { type: 'redirect', redirect: { return_url: `${returnUrl}?billing=updated` } },
      },
    }),
  );
  return { url: session.url };
}

/** "Manage billing": the customer portal for the person's customer. */
export async function openPortal(deps: AppDeps, user: SessionUser): Promise<BillingRedirect> {
  const account = await findBillingAccount(deps.db, user.id);
  if (!account?.customerId) {
    throw new DomainError('conflict', 'You have not bought a plan yet: choose one on /pricing.');
  }
  const customerId = account.customerId;
  const configuration = await stripeCall(() => deps.billing.portalConfiguration());
  const session = await stripeCall(() =>
    deps.billing.stripe().billingPortal.sessions.create({
      customer: customerId,
      return_url: `${deps.config.publicUrl}/account`,
      ...(configuration ? { configuration } : {}),
    }),
  ).catch(async (error: unknown) => {
    if (!isGone(error)) throw error;
    await forgetCustomer(deps.db, user.id, customerId);
    throw new DomainError(
      'conflict',
      'Stripe no longer knows your billing account: choose a plan on /pricing again.',
    );
  });
  return { url: session.url };
}

const CHECKOUT_SESSION_ID = /^cs_(test|live)_[A-Za-z0-9]{1,200}$/;

/**
 * Where a checkout stands, for the page the person returns to: still open, paid on Stripe's side but
 * not yet confirmed by its webhook, done (the plan changed), or expired. Only the person's own sessions.
 */
export async function checkoutStatus(
  deps: AppDeps,
  user: SessionUser,
  sessionId: string,
): Promise<CheckoutStatus> {
  if (!CHECKOUT_SESSION_ID.test(sessionId)) throw notFound('That checkout does not exist.');
  const account = await findBillingAccount(deps.db, user.id);
  const session = await stripeCall(() => deps.billing.stripe().checkout.sessions.retrieve(sessionId)).catch(
    (error: unknown) => {
      if (error instanceof Stripe.errors.StripeInvalidRequestError)
        throw notFound('That checkout does not exist.');
      throw error;
    },
  );
  const customerId = typeof session.customer === 'string' ? session.customer : (session.customer?.id ?? null);
  if (session.client_reference_id !== user.id || !account?.customerId || customerId !== account.customerId) {
    throw notFound('That checkout does not exist.');
  }
  const purchasedRaw = session.metadata?.crossfade_plan;
  const purchased = purchasedRaw === 'pro' || purchasedRaw === 'vault' ? purchasedRaw : null;
  const profile = await findUserById(deps.db, user.id);
  const plan = profile?.plan ?? 'free';
  const subscriptionId =
    typeof session.subscription === 'string' ? session.subscription : (session.subscription?.id ?? null);
  if (session.status === 'expired') return { status: 'expired', plan, purchased };
  if (session.status !== 'complete') return { status: 'open', plan, purchased };
  const confirmed = account.subscriptionId === subscriptionId && plan === purchased;
  return { status: confirmed ? 'done' : 'paid', plan, purchased };
}

/**
 * Before an account is deleted: its Stripe customer is deleted, which cancels any subscription at once.
 * When Stripe cannot be reached the deletion stops here, so nobody is charged for an account that is gone.
 */
export async function cancelBilling(deps: AppDeps, userId: string): Promise<void> {
  const account = await findBillingAccount(deps.db, userId);
  if (!account?.customerId) return;
  const customerId = account.customerId;
  await stripeCall(() => deps.billing.stripe().customers.del(customerId)).catch((error: unknown) => {
    if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return;
    throw error;
  });
}
