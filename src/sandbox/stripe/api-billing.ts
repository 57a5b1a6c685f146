import { mergeMetadata } from './api-customers';
import { endpoint } from './api-router';
import { changePrice, type Engine, endSubscription, runDue, setCancelAtPeriodEnd } from './billing';
import { DAY, nowFor, realNow } from './clock';
import { invalidRequest, noSuch } from './errors';
import { recordEvent } from './events';
import { newId } from './ids';
import { newestFirst, page, pageParams } from './lists';
import { array, boolean, integer, metadata, object, oneOf, optional, string } from './params';
import type { StripeState, TestClockRecord } from './state';
import * as wire from './wire';

/** Subscriptions, invoices and test clocks. */

export const subscriptionOf = (state: StripeState, id: string) => {
  const record = state.subscriptions[id];
  if (!record) throw noSuch('subscription', id);
  return record;
};

const STATUSES = [
  'active',
  'past_due',
  'unpaid',
  'canceled',
  'incomplete',
  'incomplete_expired',
  'trialing',
  'paused',
  'all',
  'ended',
] as const;

export const subscriptionEndpoints = [
  endpoint({
    method: 'GET',
    path: '/subscriptions/:id',
    params: {},
    run: ({ path, state }) => wire.subscription(state, subscriptionOf(state, path.id ?? '')),
  }),
  endpoint({
    method: 'GET',
    path: '/subscriptions',
    params: {
      ...pageParams,
      customer: optional(string(255)),
      price: optional(string(255)),
      status: optional(oneOf(STATUSES)),
    },
    run: ({ params, state }) => {
      const status = params.status;
      const records = newestFirst(Object.values(state.subscriptions)).filter(
        (record) =>
          (params.customer === undefined || record.customer === params.customer) &&
          (params.price === undefined || record.item.price === params.price) &&
          // Without a status Stripe lists every subscription that has not been canceled.
          (status === 'all' ||
            (status === undefined && record.status !== 'canceled') ||
            (status === 'ended' && record.status === 'canceled') ||
            record.status === status),
      );
      return page(records, params, '/v1/subscriptions', (record) => wire.subscription(state, record));
    },
  }),
  endpoint({
    method: 'POST',
    path: '/subscriptions/:id',
    params: {
      cancel_at_period_end: optional(boolean()),
      items: optional(
        array(
          object({ id: string(255), price: optional(string(255)), quantity: optional(integer(1, 1)) }),
          1,
        ),
      ),
      proration_behavior: optional(oneOf(['always_invoice', 'create_prorations', 'none'] as const)),
      default_payment_method: optional(string(255)),
      metadata: optional(metadata()),
    },
    run: ({ params, path, state, engine }) => {
      const record = subscriptionOf(state, path.id ?? '');
      if (params.default_payment_method) {
        const card = state.paymentMethods[params.default_payment_method];
        if (!card || card.customer !== record.customer) {
          throw noSuch('PaymentMethod', params.default_payment_method, 'default_payment_method');
        }
        record.defaultPaymentMethod = card.id;
      }
      const item = params.items?.[0];
      if (item) {
        if (item.id !== record.item.id) throw noSuch('subscription item', item.id, 'items[0][id]');
        if (item.price) {
          const price = state.prices[item.price];
          if (!price) throw noSuch('price', item.price, 'items[0][price]');
          if (price.currency !== state.prices[record.item.price]?.currency) {
            throw invalidRequest(
              'The price specified has a different currency than the subscription.',
              undefined,
              'items[0][price]',
            );
          }
          changePrice(state, engine, record, price.id, params.proration_behavior ?? 'create_prorations');
        }
      }
      if (params.cancel_at_period_end !== undefined)
        setCancelAtPeriodEnd(state, engine, record, params.cancel_at_period_end);
      if (params.metadata) record.metadata = mergeMetadata(record.metadata, params.metadata);
      return wire.subscription(state, record);
    },
  }),
  endpoint({
    method: 'DELETE',
    path: '/subscriptions/:id',
    params: { invoice_now: optional(boolean()), prorate: optional(boolean()) },
    run: ({ path, state, engine }) => {
      const record = subscriptionOf(state, path.id ?? '');
      if (record.status === 'canceled') {
        throw invalidRequest(
          `No such subscription: '${record.id}'; it has been canceled.`,
          'resource_missing',
          'id',
        );
      }
      endSubscription(state, engine, record, nowFor(state, record.customer), 'cancellation_requested');
      return wire.subscription(state, record);
    },
  }),
];

export const invoiceEndpoints = [
  endpoint({
    method: 'GET',
    path: '/invoices/:id',
    params: {},
    run: ({ path, state, engine }) => {
      const record = state.invoices[path.id ?? ''];
      if (!record) throw noSuch('invoice', path.id ?? '');
      return wire.invoice(state, record, engine.urls);
    },
  }),
  endpoint({
    method: 'GET',
    path: '/invoices',
    params: {
      ...pageParams,
      customer: optional(string(255)),
      subscription: optional(string(255)),
      status: optional(oneOf(['draft', 'open', 'paid', 'uncollectible', 'void'] as const)),
    },
    run: ({ params, state, engine }) => {
      const records = newestFirst(Object.values(state.invoices)).filter(
        (record) =>
          (params.customer === undefined || record.customer === params.customer) &&
          (params.subscription === undefined || record.subscription === params.subscription) &&
          (params.status === undefined || record.status === params.status),
      );
      return page(records, params, '/v1/invoices', (record) => wire.invoice(state, record, engine.urls));
    },
  }),
];

const clockOf = (state: StripeState, id: string) => {
  const record = state.testClocks[id];
  if (!record) throw noSuch('test_helpers.test_clock', id);
  return record;
};

/**
 * Moves a test clock forward: every period end and payment retry of its customers up to `target` happens in
 * time order, each at its own moment, then the clock rests at `target` and says so (`…test_clock.ready`).
 */
export function advanceClock(state: StripeState, engine: Engine, clock: TestClockRecord, target: number) {
  if (target <= clock.frozenTime) {
    throw invalidRequest(
      'The frozen_time must be after the current frozen_time of the test clock.',
      undefined,
      'frozen_time',
    );
  }
  clock.status = 'advancing';
  recordEvent(state, 'test_helpers.test_clock.advancing', wire.testClock(clock), engine.cause);
  const belongs = (customerId: string) => state.customers[customerId]?.testClock === clock.id;
  runDue(state, engine, belongs, target, (at) => {
    clock.frozenTime = at;
  });
  clock.frozenTime = target;
  clock.status = 'ready';
  recordEvent(state, 'test_helpers.test_clock.ready', wire.testClock(clock), engine.cause);
}

export const testClockEndpoints = [
  endpoint({
    method: 'POST',
    path: '/test_helpers/test_clocks',
    params: { frozen_time: integer(0), name: optional(string(300)) },
    run: ({ params, state, engine }) => {
      const record: TestClockRecord = {
        id: newId('testClock'),
        name: params.name ?? null,
        created: realNow(),
        frozenTime: params.frozen_time,
        status: 'ready',
      };
      state.testClocks[record.id] = record;
      recordEvent(state, 'test_helpers.test_clock.created', wire.testClock(record), engine.cause);
      return wire.testClock(record);
    },
  }),
  endpoint({
    method: 'GET',
    path: '/test_helpers/test_clocks/:id',
    params: {},
    run: ({ path, state }) => wire.testClock(clockOf(state, path.id ?? '')),
  }),
  endpoint({
    method: 'GET',
    path: '/test_helpers/test_clocks',
    params: pageParams,
    run: ({ params, state }) =>
      page(
        newestFirst(Object.values(state.testClocks)),
        params,
        '/v1/test_helpers/test_clocks',
        wire.testClock,
      ),
  }),
  endpoint({
    method: 'POST',
    path: '/test_helpers/test_clocks/:id/advance',
    params: { frozen_time: integer(0) },
    run: ({ params, path, state, engine }) => {
      const clock = clockOf(state, path.id ?? '');
      // Stripe refuses to advance a clock more than two intervals of its shortest subscription at once;
      // the sandbox allows up to two years, enough for any yearly plan.
      if (params.frozen_time - clock.frozenTime > 2 * 366 * DAY) {
        throw invalidRequest(
          'A test clock can be advanced by at most two years at a time.',
          undefined,
          'frozen_time',
        );
      }
      advanceClock(state, engine, clock, params.frozen_time);
      return wire.testClock(clock);
    },
  }),
  endpoint({
    method: 'DELETE',
    path: '/test_helpers/test_clocks/:id',
    params: {},
    run: ({ path, state, engine }) => {
      const clock = clockOf(state, path.id ?? '');
      // Deleting a clock deletes its customers and their subscriptions, as on Stripe.
      for (const customer of Object.values(state.customers)) {
        if (customer.testClock !== clock.id) continue;
        for (const sub of Object.values(state.subscriptions)) {
          if (sub.customer === customer.id && sub.status !== 'canceled') {
            endSubscription(state, engine, sub, clock.frozenTime, 'cancellation_requested');
          }
        }
        delete state.customers[customer.id];
      }
      delete state.testClocks[clock.id];
      recordEvent(state, 'test_helpers.test_clock.deleted', wire.testClock(clock), engine.cause);
      return { id: clock.id, object: 'test_helpers.test_clock', deleted: true };
    },
  }),
];
