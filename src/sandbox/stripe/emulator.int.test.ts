import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStripeClient } from '../../server/billing/stripe-client';
import { createStripeEmulator, type StripeEmulator } from './index';

/**
 * The payments emulator as the official `stripe` client sees it, over real HTTP: Stripe's key checks,
 * parameter checks, ids, lists, expansion, idempotency, webhooks signed as Stripe signs them and retried
 * with backoff, and test clocks driving renewals, failed renewals and period ends.
 */
const SECRET = 'sk_test_emulatorSecretKeyForTheseTests0123456789';
const DAY = 24 * 60 * 60;

interface Delivery {
  at: number;
  signature: string;
  body: string;
}

let server: Server;
let origin: string;
let emulator: StripeEmulator;
let stripe: Stripe;
/** What the webhook receiver got, and how many of the next deliveries it answers with 500. */
const deliveries: Delivery[] = [];
let failNext = 0;

async function listen(app: Hono): Promise<{ server: Server; url: string }> {
  const http = createServer(getRequestListener(app.fetch));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  return { server: http, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
}

let receiver: Server;
let receiverUrl: string;

beforeAll(async () => {
  const hook = new Hono();
  hook.post('/hook', async (c) => {
    const body = await c.req.text();
    deliveries.push({ at: Date.now(), signature: c.req.header('stripe-signature') ?? '', body });
    if (failNext > 0) {
      failNext -= 1;
      return c.text('not now', 500);
    }
    return c.json({ received: true });
  });
  ({ server: receiver, url: receiverUrl } = await listen(hook));

  const root = new Hono();
  let publicOrigin = '';
  emulator = createStripeEmulator({
    secretKey: SECRET,
    publicOrigin: () => publicOrigin,
    webhookRetryDelaysMs: [200, 400, 800],
  });
  root.route('/sandbox/stripe', emulator.app);
  ({ server, url: origin } = await listen(root));
  publicOrigin = origin;
  stripe = createStripeClient({ secretKey: SECRET, apiUrl: `${origin}/sandbox/stripe` });
});

afterAll(async () => {
  emulator.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const raw = (path: string, init: RequestInit = {}) => fetch(`${origin}/sandbox/stripe${path}`, init);
const form = (values: Record<string, string>) => ({
  method: 'POST',
  headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(values).toString(),
});

async function catalog() {
  const product = await stripe.products.create({ name: 'Crossfade Pro' });
  const price = await stripe.prices.create({
    product: product.id,
    unit_amount: 500,
    currency: 'usd',
    recurring: { interval: 'month' },
  });
  return { product, price };
}

async function pay(url: string, card: string) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      email: 'buyer@example.com',
      number: card,
      expiry: '12 / 34',
      cvc: '123',
      name: 'Test Buyer',
      country: 'US',
      postalCode: '94107',
    }),
    redirect: 'manual',
  });
}

/** A customer on a test clock, subscribed through the hosted checkout page with `card`. */
async function subscribed(card = '4242 4242 4242 4242') {
  const { price } = await catalog();
  const clock = await stripe.testHelpers.testClocks.create({ frozen_time: Date.UTC(2027, 0, 31, 12) / 1000 });
  const customer = await stripe.customers.create({ email: 'buyer@example.com', test_clock: clock.id });
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer: customer.id,
    line_items: [{ price: price.id, quantity: 1 }],
    success_url: 'http://127.0.0.1:9/done?session={CHECKOUT_SESSION_ID}',
  });
  const paid = await pay(session.url ?? '', card);
  expect(paid.status).toBe(303);
  expect(paid.headers.get('location')).toBe(`http://127.0.0.1:9/done?session=${session.id}`);
  const done = await stripe.checkout.sessions.retrieve(session.id);
  const subscription = await stripe.subscriptions.retrieve(String(done.subscription), {
    expand: ['latest_invoice'],
  });
  return { clock, customer, session: done, subscription, price };
}

describe('authentication and parameters', () => {
  it('answers 401 with Stripe’s body without a key or with a wrong one', async () => {
    const none = await raw('/v1/customers');
    expect(none.status).toBe(401);
    expect((await none.json()).error.message).toMatch(/^You did not provide an API key/);
    const wrong = createStripeClient({ secretKey: 'sk_test_wrong', apiUrl: `${origin}/sandbox/stripe` });
    const error = await wrong.customers.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect((error as Stripe.errors.StripeError).message).toBe('Invalid API Key provided: sk_test_*rong');
  });

  it('refuses unknown and missing parameters, naming them, as the client’s errors carry them', async () => {
    const unknown = await stripe.customers
      .create({ email: 'a@example.com', favourite_colour: 'blue' } as Stripe.CustomerCreateParams)
      .catch((caught: unknown) => caught as Stripe.errors.StripeInvalidRequestError);
    expect(unknown).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(unknown).toMatchObject({ code: 'parameter_unknown', param: 'favourite_colour' });
    const { price } = await catalog();
    const nested = await stripe.checkout.sessions
      .create({
        mode: 'subscription',
        line_items: [
          { price: price.id, quantity: 1, colour: 'red' } as Stripe.Checkout.SessionCreateParams.LineItem,
        ],
        success_url: 'http://127.0.0.1:9/ok',
      })
      .catch((caught: unknown) => caught as Stripe.errors.StripeInvalidRequestError);
    expect(nested).toMatchObject({ code: 'parameter_unknown', param: 'line_items[0][colour]' });
    const missing = await raw('/v1/prices', form({ currency: 'usd', unit_amount: '5' }));
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toMatchObject({
      code: 'parameter_missing',
      param: 'recurring',
      type: 'invalid_request_error',
    });
    const missingObject = await stripe.customers
      .retrieve('cus_doesnotexist')
      .catch((caught: unknown) => caught);
    expect(missingObject).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      message: "No such customer: 'cus_doesnotexist'",
    });
  });

  it('answers only in its own API version', async () => {
    const response = await raw('/v1/customers', {
      headers: { authorization: `Bearer ${SECRET}`, 'stripe-version': '2020-08-27' },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('request-id')).toMatch(/^req_/);
  });
});

describe('objects, lists and expansion', () => {
  it('gives ids Stripe’s prefixes and lists with object, data, has_more and url', async () => {
    const { product, price } = await catalog();
    expect(product.id).toMatch(/^prod_/);
    expect(price.id).toMatch(/^price_/);
    for (let i = 0; i < 3; i++) await stripe.customers.create({ email: `list${i}@example.com` });
    const first = await stripe.customers.list({ limit: 2 });
    expect(first).toMatchObject({ object: 'list', has_more: true, url: '/v1/customers' });
    expect(first.data).toHaveLength(2);
    const next = await stripe.customers.list({ limit: 2, starting_after: first.data[1]?.id ?? '' });
    expect(next.data[0]?.id).not.toBe(first.data[1]?.id);
    const expanded = await stripe.prices.list({ limit: 1, expand: ['data.product'] });
    expect(typeof expanded.data[0]?.product).toBe('object');
    const refused = await stripe.prices
      .list({ expand: ['data.nickname'] })
      .catch((caught: unknown) => caught);
    expect((refused as Error).message).toBe('This property cannot be expanded (data.nickname).');
  });

  it('leaves nothing half-done when a request is refused after it began', async () => {
    const { price } = await catalog();
    const taken = await stripe.prices.create({
      product: typeof price.product === 'string' ? price.product : price.product.id,
      unit_amount: 700,
      currency: 'usd',
      recurring: { interval: 'month' },
      lookup_key: `taken-${Date.now()}`,
    });
    const productsBefore = (await stripe.products.list({ limit: 100 })).data.length;
    const refused = await stripe.prices
      .create({
        product_data: { name: 'Half done' },
        unit_amount: 700,
        currency: 'usd',
        recurring: { interval: 'month' },
        lookup_key: taken.lookup_key ?? '',
      })
      .catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ code: 'lookup_key_already_used', param: 'lookup_key' });
    expect((await stripe.products.list({ limit: 100 })).data.length).toBe(productsBefore);
  });

  it('honours Idempotency-Key: the same answer again, and 400 for other parameters', async () => {
    const first = await stripe.customers.create(
      { email: 'once@example.com' },
      { idempotencyKey: 'same-key-1' },
    );
    const again = await stripe.customers.create(
      { email: 'once@example.com' },
      { idempotencyKey: 'same-key-1' },
    );
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    const other = await stripe.customers
      .create({ email: 'twice@example.com' }, { idempotencyKey: 'same-key-1' })
      .catch((caught: unknown) => caught);
    expect(other).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });
});

describe('checkout, webhooks and time', () => {
  it('sends events with Stripe’s envelope, signed with the endpoint’s own secret', async () => {
    const endpoint = await stripe.webhookEndpoints.create({
      url: `${receiverUrl}/hook`,
      enabled_events: ['*'],
    });
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect((await stripe.webhookEndpoints.retrieve(endpoint.id)).secret).toBeUndefined();
    deliveries.length = 0;
    const { subscription } = await subscribed();
    expect(subscription).toMatchObject({ status: 'active', object: 'subscription' });
    await waitFor(() =>
      deliveries.some((delivery) => delivery.body.includes('"checkout.session.completed"')),
    );
    for (const delivery of deliveries) {
      const event = stripe.webhooks.constructEvent(
        delivery.body,
        delivery.signature,
        endpoint.secret ?? '',
        300,
      );
      expect(event).toMatchObject({ object: 'event', livemode: false, api_version: '2026-10-28.endive' });
      expect(event.id).toMatch(/^evt_/);
      expect(event.data.object).toBeTypeOf('object');
      expect(() =>
        stripe.webhooks.constructEvent(delivery.body, delivery.signature, 'whsec_other', 300),
      ).toThrow(Stripe.errors.StripeSignatureVerificationError);
    }
    const types = deliveries.map((delivery) => (JSON.parse(delivery.body) as { type: string }).type);
    expect(types).toEqual(
      expect.arrayContaining(['customer.subscription.created', 'invoice.paid', 'checkout.session.completed']),
    );
    await stripe.webhookEndpoints.del(endpoint.id);
  });

  it('retries a failed delivery with growing pauses until it is answered 2xx', async () => {
    const endpoint = await stripe.webhookEndpoints.create({
      url: `${receiverUrl}/hook`,
      enabled_events: ['customer.created'],
    });
    deliveries.length = 0;
    failNext = 2;
    const customer = await stripe.customers.create({ email: 'retry@example.com' });
    await waitFor(() => deliveries.length === 3, 5_000);
    const ids = deliveries.map((delivery) => (JSON.parse(delivery.body) as { id: string }).id);
    expect(new Set(ids).size).toBe(1);
    const [first, second, third] = deliveries.map((delivery) => delivery.at) as [number, number, number];
    expect(second - first).toBeGreaterThanOrEqual(150);
    expect(third - second).toBeGreaterThanOrEqual(350);
    expect(third - second).toBeGreaterThan(second - first);
    const events = await stripe.events.list({ type: 'customer.created', limit: 5 });
    const event = events.data.find(
      (candidate) => (candidate.data.object as { id: string }).id === customer.id,
    );
    await waitFor(async () => (await stripe.events.retrieve(event?.id ?? '')).pending_webhooks === 0);
    await stripe.webhookEndpoints.del(endpoint.id);
  });

  it('declines 4000 0000 0000 0002 on the checkout page with Stripe’s message and keeps the session open', async () => {
    const { price } = await catalog();
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer_email: 'declined@example.com',
      line_items: [{ price: price.id, quantity: 1 }],
      success_url: 'http://127.0.0.1:9/ok',
    });
    const declined = await pay(session.url ?? '', '4000 0000 0000 0002');
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Your card was declined.');
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
  });

  it('renews at the end of the period when the test clock passes it', async () => {
    const { clock, subscription } = await subscribed();
    const end = subscription.items.data[0]?.current_period_end ?? 0;
    expect(new Date(end * 1000).toISOString()).toBe('2027-02-28T12:00:00.000Z');
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: end + 3600 });
    const renewed = await stripe.subscriptions.retrieve(subscription.id, { expand: ['latest_invoice'] });
    expect(renewed.status).toBe('active');
    expect(new Date((renewed.items.data[0]?.current_period_end ?? 0) * 1000).toISOString()).toBe(
      '2027-03-31T12:00:00.000Z',
    );
    const invoice = renewed.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ billing_reason: 'subscription_cycle', status: 'paid', amount_paid: 500 });
  });

  it('fails the renewal of 4000 0000 0000 0341, retries on days 3, 7 and 14, then cancels', async () => {
    const { clock, subscription } = await subscribed('4000 0000 0000 0341');
    const end = subscription.items.data[0]?.current_period_end ?? 0;
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: end + 60 });
    const failed = await stripe.subscriptions.retrieve(subscription.id, { expand: ['latest_invoice'] });
    expect(failed.status).toBe('past_due');
    const invoice = failed.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ status: 'open', attempt_count: 1, next_payment_attempt: end + 3 * DAY });
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: end + 8 * DAY });
    const retried = await stripe.invoices.retrieve(invoice.id);
    expect(retried).toMatchObject({ attempt_count: 3, next_payment_attempt: end + 14 * DAY });
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: end + 15 * DAY });
    const ended = await stripe.subscriptions.retrieve(subscription.id);
    expect(ended).toMatchObject({ status: 'canceled', ended_at: end + 14 * DAY });
    expect(ended.cancellation_details?.reason).toBe('payment_failed');
  });

  it('ends a subscription canceled at period end when the clock reaches it, not before', async () => {
    const { clock, subscription } = await subscribed();
    const end = subscription.items.data[0]?.current_period_end ?? 0;
    const canceling = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    expect(canceling).toMatchObject({ status: 'active', cancel_at_period_end: true });
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: end - 60 });
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('active');
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: end + 60 });
    expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({
      status: 'canceled',
      ended_at: end,
    });
  });
});

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('gave up waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
