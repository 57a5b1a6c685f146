import { endpoint } from './api-router';
import { endSubscription } from './billing';
import { nowFor, realNow } from './clock';
import { invalidRequest, noSuch } from './errors';
import { recordEvent } from './events';
import { newId } from './ids';
import { newestFirst, page, pageParams } from './lists';
import { array, boolean, integer, metadata, object, oneOf, optional, string } from './params';
import type { StripeState } from './state';
import * as wire from './wire';

/** Customers, products and prices: what a subscription is sold to and for. */

export const customerOf = (state: StripeState, id: string, param = 'id') => {
  const record = state.customers[id];
  if (!record) throw noSuch('customer', id, param);
  return record;
};

/** Applies a `metadata` update as Stripe does: keys merge, an empty value removes its key. */
export function mergeMetadata(current: Record<string, string>, update: Record<string, string> | undefined) {
  if (!update) return current;
  if (Object.keys(update).length === 0) return {};
  const merged = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (value === '') delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

const customerFields = {
  email: optional(string(512)),
  name: optional(string(256)),
  description: optional(string(350)),
  metadata: optional(metadata()),
};

export const customerEndpoints = [
  endpoint({
    method: 'POST',
    path: '/customers',
    params: { ...customerFields, test_clock: optional(string(255)) },
    run: ({ params, state, engine }) => {
      if (params.test_clock && !state.testClocks[params.test_clock]) {
        throw noSuch('test clock', params.test_clock, 'test_clock');
      }
      const testClock = params.test_clock ?? null;
      const created = testClock ? (state.testClocks[testClock]?.frozenTime ?? realNow()) : realNow();
      const id = newId('customer');
      const record = {
        id,
        created,
        email: params.email ?? null,
        name: params.name ?? null,
        description: params.description ?? null,
        metadata: mergeMetadata({}, params.metadata),
        testClock,
        defaultPaymentMethod: null,
        balance: 0,
        invoicePrefix: id.slice(4, 12).toUpperCase(),
        nextInvoiceSequence: 1,
      };
      state.customers[id] = record;
      recordEvent(state, 'customer.created', wire.customer(record), engine.cause);
      return wire.customer(record);
    },
  }),
  endpoint({
    method: 'GET',
    path: '/customers/:id',
    params: {},
    run: ({ path, state }) => wire.customer(customerOf(state, path.id ?? '')),
  }),
  endpoint({
    method: 'POST',
    path: '/customers/:id',
    params: customerFields,
    run: ({ params, path, state, engine }) => {
      const record = customerOf(state, path.id ?? '');
      const previous = { email: record.email, name: record.name, metadata: record.metadata };
      if (params.email !== undefined) record.email = params.email;
      if (params.name !== undefined) record.name = params.name;
      if (params.description !== undefined) record.description = params.description;
      record.metadata = mergeMetadata(record.metadata, params.metadata);
      recordEvent(state, 'customer.updated', wire.customer(record), engine.cause, previous);
      return wire.customer(record);
    },
  }),
  endpoint({
    method: 'DELETE',
    path: '/customers/:id',
    params: {},
    run: ({ path, state, engine }) => {
      const record = customerOf(state, path.id ?? '');
      // Deleting a customer cancels their subscriptions at once, as on Stripe.
      for (const sub of Object.values(state.subscriptions)) {
        if (sub.customer === record.id && sub.status !== 'canceled') {
          endSubscription(state, engine, sub, nowFor(state, record.id), 'cancellation_requested');
        }
      }
      recordEvent(state, 'customer.deleted', wire.customer(record), engine.cause);
      delete state.customers[record.id];
      return { id: record.id, object: 'customer', deleted: true };
    },
  }),
  endpoint({
    method: 'GET',
    path: '/customers',
    params: { ...pageParams, email: optional(string(512)), test_clock: optional(string(255)) },
    run: ({ params, state }) => {
      const records = newestFirst(Object.values(state.customers)).filter(
        (record) =>
          (params.email === undefined || record.email === params.email) &&
          (params.test_clock === undefined || record.testClock === params.test_clock),
      );
      return page(records, params, '/v1/customers', wire.customer);
    },
  }),
  endpoint({
    method: 'GET',
    path: '/payment_methods/:id',
    params: {},
    run: ({ path, state }) => {
      const record = state.paymentMethods[path.id ?? ''];
      if (!record) throw noSuch('PaymentMethod', path.id ?? '');
      return wire.paymentMethod(record);
    },
  }),
];

export const productEndpoints = [
  endpoint({
    method: 'POST',
    path: '/products',
    params: {
      name: string(250),
      description: optional(string(40000)),
      active: optional(boolean()),
      metadata: optional(metadata()),
    },
    run: ({ params, state, engine }) => {
      const now = realNow();
      const record = {
        id: newId('product'),
        created: now,
        updated: now,
        name: params.name,
        description: params.description ?? null,
        active: params.active ?? true,
        metadata: mergeMetadata({}, params.metadata),
      };
      state.products[record.id] = record;
      recordEvent(state, 'product.created', wire.product(record), engine.cause);
      return wire.product(record);
    },
  }),
  endpoint({
    method: 'GET',
    path: '/products/:id',
    params: {},
    run: ({ path, state }) => {
      const record = state.products[path.id ?? ''];
      if (!record) throw noSuch('product', path.id ?? '');
      return wire.product(record);
    },
  }),
  endpoint({
    method: 'GET',
    path: '/products',
    params: { ...pageParams, active: optional(boolean()) },
    run: ({ params, state }) => {
      const records = newestFirst(Object.values(state.products)).filter(
        (record) => params.active === undefined || record.active === params.active,
      );
      return page(records, params, '/v1/products', wire.product);
    },
  }),
];

const CURRENCIES = ['usd', 'eur', 'gbp', 'jpy', 'cad', 'aud', 'chf', 'sek'] as const;

export const priceEndpoints = [
  endpoint({
    method: 'POST',
    path: '/prices',
    params: {
      currency: oneOf(CURRENCIES),
      unit_amount: integer(0, 99_999_999),
      product: optional(string(255)),
      product_data: optional(object({ name: string(250), metadata: optional(metadata()) })),
      recurring: object({
        interval: oneOf(['day', 'week', 'month', 'year'] as const),
        interval_count: optional(integer(1, 365)),
      }),
      lookup_key: optional(string(200)),
      transfer_lookup_key: optional(boolean()),
      nickname: optional(string(250)),
      active: optional(boolean()),
      metadata: optional(metadata()),
    },
    run: ({ params, state, engine }) => {
      if (Boolean(params.product) === Boolean(params.product_data)) {
        throw invalidRequest('You must specify either `product` or `product_data` when creating a price.');
      }
      let productId = params.product;
      if (productId && !state.products[productId]) throw noSuch('product', productId, 'product');
      if (params.product_data) {
        const now = realNow();
        productId = newId('product');
        state.products[productId] = {
          id: productId,
          created: now,
          updated: now,
          name: params.product_data.name,
          description: null,
          active: true,
          metadata: mergeMetadata({}, params.product_data.metadata),
        };
      }
      const holder = params.lookup_key
        ? Object.values(state.prices).find((price) => price.lookupKey === params.lookup_key)
        : undefined;
      if (holder && !params.transfer_lookup_key) {
        throw invalidRequest(
          `A price (\`${holder.id}\`) already uses that lookup key.`,
          'lookup_key_already_used',
          'lookup_key',
        );
      }
      if (holder) holder.lookupKey = null;
      const record = {
        id: newId('price'),
        created: realNow(),
        product: productId ?? '',
        unitAmount: params.unit_amount,
        currency: params.currency,
        interval: params.recurring.interval,
        intervalCount: params.recurring.interval_count ?? 1,
        lookupKey: params.lookup_key ?? null,
        nickname: params.nickname ?? null,
        active: params.active ?? true,
        metadata: mergeMetadata({}, params.metadata),
      };
      state.prices[record.id] = record;
      recordEvent(state, 'price.created', wire.price(record), engine.cause);
      return wire.price(record);
    },
  }),
  endpoint({
    method: 'GET',
    path: '/prices/:id',
    params: {},
    run: ({ path, state }) => {
      const record = state.prices[path.id ?? ''];
      if (!record) throw noSuch('price', path.id ?? '');
      return wire.price(record);
    },
  }),
  endpoint({
    method: 'GET',
    path: '/prices',
    params: {
      ...pageParams,
      active: optional(boolean()),
      product: optional(string(255)),
      lookup_keys: optional(array(string(200), 10)),
      type: optional(oneOf(['recurring', 'one_time'] as const)),
    },
    run: ({ params, state }) => {
      const records = newestFirst(Object.values(state.prices)).filter(
        (record) =>
          (params.active === undefined || record.active === params.active) &&
          (params.product === undefined || record.product === params.product) &&
          (params.type === undefined || params.type === 'recurring') &&
          (params.lookup_keys === undefined ||
            (record.lookupKey !== null && params.lookup_keys.includes(record.lookupKey))),
      );
      return page(records, params, '/v1/prices', wire.price);
    },
  }),
];
