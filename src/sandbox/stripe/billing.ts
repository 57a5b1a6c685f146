import { DAY, nextPeriodEnd, nowFor } from './clock';
import { StripeApiError } from './errors';
import { type EventCause, recordEvent } from './events';
import { formatDate, formatMoney } from './format';
import { newId, pageToken } from './ids';
import type {
  CheckoutSessionRecord,
  InvoiceLineRecord,
  InvoiceRecord,
  PaymentMethodRecord,
  StripeState,
  SubscriptionRecord,
} from './state';
import {
  checkoutSession,
  invoice as invoiceWire,
  type PageUrls,
  subscription as subscriptionWire,
} from './wire';

/**
 * What happens to subscriptions and invoices over time, as Stripe Billing does it for the parts we use:
 * the first invoice of a Checkout subscription, renewals at the end of each period, failed renewals
 * retried on a schedule (Smart Retries) and the subscription canceled after the last one, cancellation
 * at the period end, and price changes with prorations. Every step records the events Stripe sends.
 */
export interface Engine {
  urls: PageUrls;
  cause: EventCause;
}

/** Days after the first failed attempt at which a renewal is tried again; after the last, the subscription ends. */
export const RETRY_DAYS = [3, 7, 14] as const;

const emitSubscription = (
  state: StripeState,
  engine: Engine,
  type: string,
  record: SubscriptionRecord,
  previous: Record<string, unknown> | null = null,
) =>
  recordEvent(
    state,
    `customer.subscription.${type}`,
    subscriptionWire(state, record),
    engine.cause,
    previous,
  );

const emitInvoice = (state: StripeState, engine: Engine, type: string, record: InvoiceRecord) =>
  recordEvent(state, `invoice.${type}`, invoiceWire(state, record, engine.urls), engine.cause);

function priceOf(state: StripeState, priceId: string) {
  const price = state.prices[priceId];
  if (!price) throw new Error(`price ${priceId} vanished`);
  return price;
}

function productName(state: StripeState, priceId: string) {
  const price = priceOf(state, priceId);
  return state.products[price.product]?.name ?? 'Subscription';
}

function newInvoice(
  state: StripeState,
  sub: SubscriptionRecord,
  billingReason: InvoiceRecord['billingReason'],
  lines: Omit<InvoiceLineRecord, 'id'>[],
  at: number,
): InvoiceRecord {
  const customer = state.customers[sub.customer];
  if (!customer) throw new Error(`customer ${sub.customer} vanished`);
  const total = lines.reduce((sum, line) => sum + line.amount, 0);
  // Credit on the customer's balance pays for what it can; credit left over stays on the balance.
  const startingBalance = customer.balance;
  customer.balance = Math.min(0, total + startingBalance);
  const number = `${customer.invoicePrefix}-${String(customer.nextInvoiceSequence).padStart(4, '0')}`;
  customer.nextInvoiceSequence += 1;
  const record: InvoiceRecord = {
    id: newId('invoice'),
    number,
    created: at,
    customer: sub.customer,
    subscription: sub.id,
    billingReason,
    currency: priceOf(state, sub.item.price).currency,
    lines: lines.map((line) => ({ ...line, id: newId('invoiceLine') })),
    total,
    startingBalance,
    amountPaid: 0,
    status: 'open',
    attemptCount: 0,
    firstFailedAt: null,
    nextPaymentAttempt: null,
    finalizedAt: at,
    paidAt: null,
    token: pageToken(),
    testClock: sub.testClock,
    periodStart: Math.min(...lines.map((line) => line.periodStart)),
    periodEnd: Math.max(...lines.map((line) => line.periodEnd)),
  };
  state.invoices[record.id] = record;
  sub.latestInvoice = record.id;
  return record;
}

/**
 * Charges a card. Stripe's test numbers decide: 4000 0000 0000 0341 attaches and pays while the person is
 * at the checkout page, and every later charge made without them (renewals, retries) is declined.
 */
function charge(card: PaymentMethodRecord | undefined, onSession: boolean) {
  if (!card) return { ok: false as const, message: 'The customer has no payment method.' };
  if (card.behaviour === 'charges_fail' && !onSession) {
    return { ok: false as const, message: 'Your card was declined.' };
  }
  return { ok: true as const };
}

function setStatus(
  state: StripeState,
  engine: Engine,
  sub: SubscriptionRecord,
  status: SubscriptionRecord['status'],
) {
  if (sub.status === status) return;
  const previous = { status: sub.status };
  sub.status = status;
  emitSubscription(state, engine, 'updated', sub, previous);
}

/** Tries to collect an open invoice: paid, or failed with the next retry scheduled (or the subscription ended). */
export function attemptPayment(
  state: StripeState,
  engine: Engine,
  invoice: InvoiceRecord,
  at: number,
  onSession: boolean,
): boolean {
  const sub = invoice.subscription ? state.subscriptions[invoice.subscription] : undefined;
  const customer = state.customers[invoice.customer];
  const cardId = sub?.defaultPaymentMethod ?? customer?.defaultPaymentMethod ?? null;
  const amountDue = Math.max(0, invoice.total + invoice.startingBalance);
  const result =
    amountDue === 0
      ? { ok: true as const }
      : charge(cardId ? state.paymentMethods[cardId] : undefined, onSession);
  if (amountDue > 0) invoice.attemptCount += 1;
  if (result.ok) {
    invoice.status = 'paid';
    invoice.amountPaid = amountDue;
    invoice.paidAt = at;
    invoice.nextPaymentAttempt = null;
    emitInvoice(state, engine, 'paid', invoice);
    emitInvoice(state, engine, 'payment_succeeded', invoice);
    if (sub && (sub.status === 'past_due' || sub.status === 'incomplete' || sub.status === 'unpaid')) {
      setStatus(state, engine, sub, 'active');
    }
    return true;
  }
  invoice.firstFailedAt ??= at;
  const retryDay = RETRY_DAYS[invoice.attemptCount - 1];
  invoice.nextPaymentAttempt = retryDay === undefined ? null : invoice.firstFailedAt + retryDay * DAY;
  emitInvoice(state, engine, 'payment_failed', invoice);
  if (sub && sub.status === 'active') setStatus(state, engine, sub, 'past_due');
  // After the last retry the subscription is canceled, Stripe's default for "all retries failed".
  if (sub && retryDay === undefined && sub.status !== 'canceled')
    endSubscription(state, engine, sub, at, 'payment_failed');
  return false;
}

/** A Checkout Session paid: the subscription starts at once, its first invoice paid with the card. */
export function startSubscription(
  state: StripeState,
  engine: Engine,
  session: CheckoutSessionRecord,
  customerId: string,
  card: PaymentMethodRecord,
): SubscriptionRecord {
  const line = session.lineItems[0];
  if (!line) throw new Error('a subscription session without line items');
  const price = priceOf(state, line.price);
  const now = nowFor(state, customerId);
  const customer = state.customers[customerId];
  const sub: SubscriptionRecord = {
    id: newId('subscription'),
    created: now,
    customer: customerId,
    status: 'incomplete',
    item: {
      id: newId('subscriptionItem'),
      created: now,
      price: price.id,
      quantity: line.quantity,
      currentPeriodStart: now,
      currentPeriodEnd: nextPeriodEnd(now, now, price.interval, price.intervalCount),
    },
    billingCycleAnchor: now,
    startDate: now,
    cancelAtPeriodEnd: false,
    cancelAt: null,
    canceledAt: null,
    endedAt: null,
    cancellationReason: null,
    latestInvoice: null,
    defaultPaymentMethod: card.id,
    metadata: session.subscriptionMetadata,
    testClock: customer?.testClock ?? null,
  };
  state.subscriptions[sub.id] = sub;
  const invoice = newInvoice(
    state,
    sub,
    'subscription_create',
    [periodLine(state, sub, line.quantity, sub.item.currentPeriodStart, sub.item.currentPeriodEnd)],
    now,
  );
  emitSubscription(state, engine, 'created', sub);
  emitInvoice(state, engine, 'created', invoice);
  emitInvoice(state, engine, 'finalized', invoice);
  attemptPayment(state, engine, invoice, now, true);
  session.status = 'complete';
  session.paymentStatus = 'paid';
  session.subscription = sub.id;
  session.invoice = invoice.id;
  session.customer = customerId;
  recordEvent(
    state,
    'checkout.session.completed',
    checkoutSession(state, session, engine.urls),
    engine.cause,
  );
  return sub;
}

function periodLine(
  state: StripeState,
  sub: SubscriptionRecord,
  quantity: number,
  start: number,
  end: number,
): Omit<InvoiceLineRecord, 'id'> {
  const price = priceOf(state, sub.item.price);
  return {
    amount: price.unitAmount * quantity,
    description: `${quantity} × ${productName(state, price.id)} (at ${formatMoney(price.unitAmount, price.currency)} / ${price.interval})`,
    price: price.id,
    quantity,
    periodStart: start,
    periodEnd: end,
    proration: false,
  };
}

/** The end of a period: the subscription ends (cancel at period end) or renews with a new invoice. */
function reachPeriodEnd(state: StripeState, engine: Engine, sub: SubscriptionRecord) {
  const at = sub.item.currentPeriodEnd;
  if (sub.cancelAtPeriodEnd || (sub.cancelAt !== null && sub.cancelAt <= at)) {
    endSubscription(state, engine, sub, at, sub.cancellationReason ?? 'cancellation_requested');
    return;
  }
  const price = priceOf(state, sub.item.price);
  const previous = {
    items: { data: [{ current_period_start: sub.item.currentPeriodStart, current_period_end: at }] },
    latest_invoice: sub.latestInvoice,
  };
  sub.item.currentPeriodStart = at;
  sub.item.currentPeriodEnd = nextPeriodEnd(sub.billingCycleAnchor, at, price.interval, price.intervalCount);
  const invoice = newInvoice(
    state,
    sub,
    'subscription_cycle',
    [periodLine(state, sub, sub.item.quantity, sub.item.currentPeriodStart, sub.item.currentPeriodEnd)],
    at,
  );
  emitSubscription(state, engine, 'updated', sub, previous);
  emitInvoice(state, engine, 'created', invoice);
  emitInvoice(state, engine, 'finalized', invoice);
  attemptPayment(state, engine, invoice, at, false);
}

export function endSubscription(
  state: StripeState,
  engine: Engine,
  sub: SubscriptionRecord,
  at: number,
  reason: NonNullable<SubscriptionRecord['cancellationReason']>,
) {
  sub.status = 'canceled';
  sub.endedAt = at;
  sub.canceledAt ??= at;
  sub.cancellationReason = reason;
  // Open invoices of an ended subscription are no longer retried.
  for (const invoice of Object.values(state.invoices)) {
    if (invoice.subscription === sub.id && invoice.status === 'open') invoice.nextPaymentAttempt = null;
  }
  emitSubscription(state, engine, 'deleted', sub);
}

/** Cancel at the end of the period (`true`), or keep renewing (`false`). */
export function setCancelAtPeriodEnd(
  state: StripeState,
  engine: Engine,
  sub: SubscriptionRecord,
  cancel: boolean,
) {
  assertLive(sub);
  if (sub.cancelAtPeriodEnd === cancel) return;
  const previous = {
    cancel_at_period_end: sub.cancelAtPeriodEnd,
    canceled_at: sub.canceledAt,
    cancellation_details: { reason: sub.cancellationReason },
  };
  sub.cancelAtPeriodEnd = cancel;
  sub.canceledAt = cancel ? nowFor(state, sub.customer) : null;
  sub.cancellationReason = cancel ? 'cancellation_requested' : null;
  emitSubscription(state, engine, 'updated', sub, previous);
}

function assertLive(sub: SubscriptionRecord) {
  if (sub.status === 'canceled') {
    throw new StripeApiError(
      400,
      'invalid_request_error',
      `A canceled subscription can only update its cancellation_details and metadata.`,
    );
  }
}

/**
 * Moves a subscription to another price at once, with prorations invoiced now (`always_invoice`, what the
 * portal is configured with) or left for the next invoice as customer credit or charge.
 */
export function changePrice(
  state: StripeState,
  engine: Engine,
  sub: SubscriptionRecord,
  priceId: string,
  proration: 'always_invoice' | 'create_prorations' | 'none',
) {
  assertLive(sub);
  if (sub.item.price === priceId) return;
  const oldPrice = priceOf(state, sub.item.price);
  const newPrice = priceOf(state, priceId);
  const now = nowFor(state, sub.customer);
  const previous = { items: { data: [{ price: { id: oldPrice.id } }] }, plan: { id: oldPrice.id } };
  const { currentPeriodStart: start, currentPeriodEnd: end } = sub.item;
  const changesInterval =
    oldPrice.interval !== newPrice.interval || oldPrice.intervalCount !== newPrice.intervalCount;
  sub.item.price = newPrice.id;
  if (changesInterval) {
    // A new interval starts a new period now, as Stripe resets the billing cycle anchor.
    sub.billingCycleAnchor = now;
    sub.item.currentPeriodStart = now;
    sub.item.currentPeriodEnd = nextPeriodEnd(now, now, newPrice.interval, newPrice.intervalCount);
  }
  emitSubscription(state, engine, 'updated', sub, previous);
  if (proration === 'none') return;
  const remaining = Math.max(0, Math.min(1, (end - now) / Math.max(1, end - start)));
  const quantity = sub.item.quantity;
  const lines: Omit<InvoiceLineRecord, 'id'>[] = [
    {
      amount: -Math.round(oldPrice.unitAmount * quantity * remaining),
      description: `Unused time on ${productName(state, oldPrice.id)} after ${formatDate(now)}`,
      price: oldPrice.id,
      quantity,
      periodStart: now,
      periodEnd: end,
      proration: true,
    },
    changesInterval
      ? periodLine(state, sub, quantity, sub.item.currentPeriodStart, sub.item.currentPeriodEnd)
      : {
          amount: Math.round(newPrice.unitAmount * quantity * remaining),
          description: `Remaining time on ${productName(state, newPrice.id)} after ${formatDate(now)}`,
          price: newPrice.id,
          quantity,
          periodStart: now,
          periodEnd: end,
          proration: true,
        },
  ];
  if (proration === 'create_prorations' && !changesInterval) {
    // Left for the next invoice: the difference goes onto the customer's balance.
    const customer = state.customers[sub.customer];
    if (customer) customer.balance += lines.reduce((sum, line) => sum + line.amount, 0);
    return;
  }
  const invoice = newInvoice(state, sub, 'subscription_update', lines, now);
  emitInvoice(state, engine, 'created', invoice);
  emitInvoice(state, engine, 'finalized', invoice);
  attemptPayment(state, engine, invoice, now, true);
}

/**
 * What a price change would cost today with `always_invoice` prorations (negative: credit), for the
 * portal's confirmation page.
 */
export function previewChange(state: StripeState, sub: SubscriptionRecord, priceId: string): number {
  const oldPrice = priceOf(state, sub.item.price);
  const newPrice = priceOf(state, priceId);
  const now = nowFor(state, sub.customer);
  const { currentPeriodStart: start, currentPeriodEnd: end } = sub.item;
  const remaining = Math.max(0, Math.min(1, (end - now) / Math.max(1, end - start)));
  const quantity = sub.item.quantity;
  const credit = Math.round(oldPrice.unitAmount * quantity * remaining);
  const sameCycle =
    oldPrice.interval === newPrice.interval && oldPrice.intervalCount === newPrice.intervalCount;
  const charge = sameCycle
    ? Math.round(newPrice.unitAmount * quantity * remaining)
    : newPrice.unitAmount * quantity;
  return charge - credit;
}

/** Pays an open invoice now with the customer's card (the portal's "Pay now" after a new card). */
export function payOpenInvoices(state: StripeState, engine: Engine, customerId: string): boolean {
  const open = Object.values(state.invoices).filter(
    (invoice) => invoice.customer === customerId && invoice.status === 'open',
  );
  const now = nowFor(state, customerId);
  return open.every((invoice) => attemptPayment(state, engine, invoice, now, true));
}

type Due = { at: number; run: () => void };

function nextDue(
  state: StripeState,
  engine: Engine,
  belongs: (customerId: string) => boolean,
  until: number,
): Due | null {
  let soonest: Due | null = null;
  for (const sub of Object.values(state.subscriptions)) {
    if (!belongs(sub.customer) || (sub.status !== 'active' && sub.status !== 'past_due')) continue;
    const at = sub.item.currentPeriodEnd;
    if (at <= until && (!soonest || at < soonest.at))
      soonest = { at, run: () => reachPeriodEnd(state, engine, sub) };
  }
  for (const invoice of Object.values(state.invoices)) {
    const at = invoice.nextPaymentAttempt;
    if (!belongs(invoice.customer) || invoice.status !== 'open' || at === null) continue;
    if (at <= until && (!soonest || at < soonest.at)) {
      soonest = { at, run: () => attemptPayment(state, engine, invoice, at, false) };
    }
  }
  return soonest;
}

/**
 * Runs, in time order, everything due up to `until` for the customers `belongs` picks: period ends and
 * payment retries. `setTime` moves the customers' clock to each step first, so objects get that step's time.
 */
export function runDue(
  state: StripeState,
  engine: Engine,
  belongs: (customerId: string) => boolean,
  until: number,
  setTime: (at: number) => void = () => {},
): number {
  let steps = 0;
  for (let due = nextDue(state, engine, belongs, until); due; due = nextDue(state, engine, belongs, until)) {
    setTime(due.at);
    due.run();
    steps += 1;
    if (steps > 10_000) throw new Error('billing steps ran away');
  }
  return steps;
}
