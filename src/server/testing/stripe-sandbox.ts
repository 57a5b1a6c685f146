import { and, eq, inArray } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Billing, CheckoutRequest } from '../../shared/api/billing';
import { jobs } from '../db/schema';
import type { TestClient, TestServer } from './test-server';
import { waitUntil } from './wait-until';

/**
 * Billing tests drive the sandbox's Stripe emulator as a person would: its hosted Checkout and portal
 * pages over HTTP (the forms a browser posts), and its test clocks through the server's own Stripe client.
 */
export const CARDS = {
  succeeds: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  failsOnRenewal: '4000 0000 0000 0341',
} as const;

export const DAY_SECONDS = 24 * 60 * 60;

/** Posts the checkout page's form, as the browser does after the person types their card. */
export async function payOnCheckoutPage(
  url: string,
  card: string = CARDS.succeeds,
  email = 'buyer@example.com',
) {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const form = new URLSearchParams({
    email,
    number: card,
    expiry: '12 / 34',
    cvc: '123',
    name: 'Test Buyer',
    country: 'US',
    postalCode: '94107',
  });
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
  });
}

/** Posts one of the portal page's forms (`cancel`, `renew`, `update`, `card`, `pay`, `clock`). */
export async function portalAction(portalUrl: string, action: string, fields: Record<string, string> = {}) {
  const response = await fetch(`${portalUrl}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });
  return response;
}

export async function billingOf(client: TestClient): Promise<Billing> {
  const response = await client.get('/api/billing');
  expect(response.status).toBe(200);
  return response.body as Billing;
}

/** Waits until the webhooks have brought the person's billing where `done` says. */
export function waitForBilling(client: TestClient, done: (billing: Billing) => boolean, timeoutMs = 15_000) {
  return waitUntil(() => billingOf(client), done, timeoutMs, 50, 250);
}

/** Checkout through the hosted page with `card`; answers where the page sent the browser. */
export async function checkout(client: TestClient, request: CheckoutRequest, card: string = CARDS.succeeds) {
  const started = await client.post('/api/billing/checkout', request);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const { url } = started.body as { url: string };
  const paid = await payOnCheckoutPage(url, card);
  return { url, paid };
}

/**
 * Waits until the emulator has delivered every event it holds (`pending_webhooks` 0 on each, as Stripe
 * counts them), so a test reads the database after the last webhook and not between two.
 */
export async function settleWebhooks(server: TestServer, timeoutMs = 15_000) {
  const stripe = server.deps.billing.stripe();
  await waitUntil(
    () => stripe.events.list({ limit: 100 }),
    (events) => events.data.every((event) => event.pending_webhooks === 0),
    timeoutMs,
    50,
    250,
  );
}

/** Waits until every e-mail about a change of plan has been sent (their jobs finished). */
export async function settleMail(server: TestServer, timeoutMs = 15_000) {
  await waitUntil(
    () =>
      server.deps.db
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.kind, 'plan-change-mail'), inArray(jobs.status, ['queued', 'running']))),
    (pending) => pending.length === 0,
    timeoutMs,
    50,
    250,
  );
}

/** A person on `plan` through a real checkout, confirmed by the webhook (every event delivered, every e-mail sent). */
export async function subscribe(
  server: TestServer,
  client: TestClient,
  request: CheckoutRequest,
  card: string = CARDS.succeeds,
) {
  const { paid } = await checkout(client, request, card);
  expect(paid.status).toBe(303);
  await waitForBilling(client, (billing) => billing.plan === request.plan);
  await settleWebhooks(server);
  await settleMail(server);
  return billingOf(client);
}

/** The portal's address for the person ("Manage billing"). */
export async function openPortal(client: TestClient): Promise<string> {
  const response = await client.post('/api/billing/portal');
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body as { url: string }).url;
}

/** Moves the person's test clock to `seconds` through the server's own Stripe client. */
export async function moveClock(server: TestServer, customerId: string, toSeconds: number) {
  const stripe = server.deps.billing.stripe();
  const customer = await stripe.customers.retrieve(customerId);
  if (customer.deleted || !customer.test_clock) throw new Error('the customer has no test clock');
  const clockId = typeof customer.test_clock === 'string' ? customer.test_clock : customer.test_clock.id;
  await stripe.testHelpers.testClocks.advance(clockId, { frozen_time: Math.floor(toSeconds) });
}
