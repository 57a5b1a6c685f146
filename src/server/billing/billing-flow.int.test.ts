import { and, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchView } from '../../shared/api/batches';
import type { Billing, CheckoutStatus } from '../../shared/api/billing';
import { BILLING_WEBHOOK_PATH } from '../../shared/api/billing';
import type { PlaylistSummary } from '../../shared/api/playlists';
import {
  backups,
  billingAccounts,
  billingEvents,
  outboxMessages,
  planChanges,
  syncs,
  users,
} from '../db/schema';
import { backupTrack, saveTestBackup } from '../testing/backups';
import { connectService } from '../testing/connect-service';
import {
  billingOf,
  CARDS,
  checkout,
  DAY_SECONDS,
  moveClock,
  openPortal,
  portalAction,
  settleMail,
  settleWebhooks,
  subscribe,
  waitForBilling,
} from '../testing/stripe-sandbox';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';
import { findWebhookEndpoint } from './billing-store';

/**
 * Buying, changing and cancelling plans against the payments sandbox, through the real `stripe` client,
 * the emulator's hosted pages over HTTP, and its webhooks into the real app and database.
 */
let server: TestServer;
let counter = 0;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

interface Person {
  client: TestClient;
  userId: string;
  email: string;
}

async function signedUp(): Promise<Person> {
  const client = server.newClient();
  const username = `buyer${Date.now().toString(36)}${counter++}`;
  const email = `${username}@example.com`;
  const response = await client.post('/api/auth/register', { username, email, password: 'correct horse' });
  expect(response.status).toBe(201);
  const [row] = await server.deps.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  if (!row) throw new Error('no user');
  return { client, userId: row.id, email };
}

async function accountOf(userId: string) {
  const [account] = await server.deps.db
    .select()
    .from(billingAccounts)
    .where(eq(billingAccounts.userId, userId));
  if (!account?.customerId) throw new Error('no billing account');
  return { ...account, customerId: account.customerId };
}

const periodEndOf = (billing: Billing) => Date.parse(billing.subscription?.currentPeriodEnd ?? '') / 1000;

async function addSync(userId: string) {
  await server.deps.db.insert(syncs).values({
    userId,
    sourceService: 'spotify',
    sourcePlaylistId: 'p1',
    destinationService: 'apple',
    schedule: 'daily',
    nextRunAt: new Date(Date.now() + 60_000),
  });
}

async function mailTo(email: string) {
  return server.deps.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, email));
}

async function planChangeCount(userId: string) {
  return (await server.deps.db.select().from(planChanges).where(eq(planChanges.userId, userId))).length;
}

describe('buying a plan', () => {
  it('makes the person Pro once the signed webhook arrives, with the renewal date, and says so on return', async () => {
    const person = await signedUp();
    expect(await billingOf(person.client)).toMatchObject({
      plan: 'free',
      payments: 'sandbox',
      canManage: false,
    });
    const { url, paid } = await checkout(person.client, { plan: 'pro' });
    expect(url).toContain('/sandbox/stripe/c/pay/cs_test_');
    const returnTo = new URL(paid.headers.get('location') ?? '');
    expect(returnTo.pathname).toBe('/billing/return');
    const sessionId = returnTo.searchParams.get('session_id') ?? '';
    const billing = await waitForBilling(person.client, (current) => current.plan === 'pro');
    expect(billing.subscription).toMatchObject({
      plan: 'pro',
      interval: 'month',
      status: 'active',
      cancelAtPeriodEnd: false,
    });
    const days = (periodEndOf(billing) * 1000 - Date.now()) / (DAY_SECONDS * 1000);
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);
    const status = await person.client.get(`/api/billing/checkout/${sessionId}`);
    expect(status.body as CheckoutStatus).toEqual({ status: 'done', plan: 'pro', purchased: 'pro' });
    // Another person cannot look at this checkout.
    const other = await signedUp();
    expect((await other.client.get(`/api/billing/checkout/${sessionId}`)).status).toBe(404);
    await settleWebhooks(server);
    await settleMail(server);
    const [mail] = await mailTo(person.email);
    expect(mail?.subject).toBe('Your Crossfade plan is now Pro');
  });

  it('keeps a declined card on the checkout page with Stripe’s message and changes nothing', async () => {
    const person = await signedUp();
    const { paid } = await checkout(person.client, { plan: 'pro' }, CARDS.declined);
    expect(paid.status).toBe(402);
    const page = await paid.text();
    expect(page).toContain('Your card was declined.');
    expect(page).toContain('role="alert"');
    expect((await billingOf(person.client)).plan).toBe('free');
    expect(await planChangeCount(person.userId)).toBe(0);
  });

  it('answers prices to everyone, billing only to the signed-in, and refuses a plan it does not sell', async () => {
    const visitor = server.newClient();
    const prices = await visitor.get('/api/billing/prices');
    expect(prices.status).toBe(200);
    expect(prices.body).toMatchObject({ payments: 'sandbox' });
    expect((prices.body as { prices: unknown[] }).prices).toContainEqual({
      plan: 'pro',
      interval: 'month',
      amount: 500,
      currency: 'usd',
    });
    expect((await visitor.get('/api/billing')).status).toBe(401);
    const person = await signedUp();
    const unknown = await person.client.post('/api/billing/checkout', { plan: 'platinum' });
    expect(unknown.status).toBe(400);
    expect((unknown.body as { message: string }).message).toBe('Choose the Pro or Vault+ plan');
  });
});

describe('time passing on the test clock', () => {
  it('renews at the end of the period: still Pro, a new renewal date and a new paid invoice', async () => {
    const person = await signedUp();
    const first = await subscribe(server, person.client, { plan: 'pro' });
    const { customerId } = await accountOf(person.userId);
    await moveClock(server, customerId, periodEndOf(first) + 3600);
    const renewed = await waitForBilling(
      person.client,
      (billing) => periodEndOf(billing) > periodEndOf(first),
    );
    expect(renewed.plan).toBe('pro');
    expect((periodEndOf(renewed) - periodEndOf(first)) / DAY_SECONDS).toBeGreaterThanOrEqual(28);
    expect(renewed.lastInvoice?.status).toBe('paid');
    expect(renewed.lastInvoice?.createdAt).not.toBe(first.lastInvoice?.createdAt);
    expect(await planChangeCount(person.userId)).toBe(1);
  });

  it('keeps the plan for a 7-day grace period after a failed renewal, then moves to Free with syncs paused', async () => {
    const person = await signedUp();
    await addSync(person.userId);
    const first = await subscribe(server, person.client, { plan: 'pro' }, CARDS.failsOnRenewal);
    const end = periodEndOf(first);
    const { customerId } = await accountOf(person.userId);
    await moveClock(server, customerId, end + 60);
    const failing = await waitForBilling(person.client, (billing) => billing.paymentProblem !== null);
    expect(failing.plan).toBe('pro');
    const problem = failing.paymentProblem ?? { failedAt: '', graceEndsAt: '' };
    expect(Date.parse(problem.graceEndsAt) - Date.parse(problem.failedAt)).toBe(7 * DAY_SECONDS * 1000);
    // Day 4: the retry of day 3 failed too, and the grace period still runs.
    await moveClock(server, customerId, end + 4 * DAY_SECONDS);
    await settleWebhooks(server);
    expect((await billingOf(person.client)).plan).toBe('pro');
    // Day 8: past the grace period.
    await moveClock(server, customerId, end + 8 * DAY_SECONDS);
    const free = await waitForBilling(person.client, (billing) => billing.plan === 'free');
    expect(free.lastChange).toMatchObject({ from: 'pro', to: 'free', reason: 'grace_ended', syncsPaused: 1 });
    expect(free.pausedSyncs).toBe(1);
    const [sync] = await server.deps.db.select().from(syncs).where(eq(syncs.userId, person.userId));
    expect(sync).toMatchObject({ paused: true, pausedByPlan: true });
    await settleMail(server);
    const told = (await mailTo(person.email)).find(
      (mail) => mail.subject === 'Your Crossfade plan is now Free',
    );
    expect(told?.body).toContain('the 7-day grace period is over');
    expect(told?.body).toContain('Your sync is paused.');
  });

  it('recovers during the grace period when the person pays with a new card in the portal', async () => {
    const person = await signedUp();
    const first = await subscribe(server, person.client, { plan: 'pro' }, CARDS.failsOnRenewal);
    const { customerId } = await accountOf(person.userId);
    await moveClock(server, customerId, periodEndOf(first) + 60);
    await waitForBilling(person.client, (billing) => billing.paymentProblem !== null);
    const portal = await openPortal(person.client);
    expect(
      (
        await portalAction(portal, 'card', {
          number: CARDS.succeeds,
          expiry: '12 / 34',
          cvc: '123',
          name: 'A',
          postalCode: '94107',
        })
      ).status,
    ).toBe(303);
    expect((await portalAction(portal, 'pay')).status).toBe(303);
    const paid = await waitForBilling(person.client, (billing) => billing.paymentProblem === null);
    expect(paid).toMatchObject({ plan: 'pro', subscription: { status: 'active' } });
  });

  it('cancels at the end of the period: Vault+ until then, then Free, backups kept 30 days and then deleted', async () => {
    const person = await signedUp();
    await addSync(person.userId);
    const first = await subscribe(server, person.client, { plan: 'vault' });
    await saveTestBackup(server.deps.db, person.userId, {
      playlists: [{ id: 'kept-playlist', name: 'Kept', tracks: [backupTrack('t1')] }],
    });
    const portal = await openPortal(person.client);
    expect(portal).toContain('/sandbox/stripe/p/session/test_');
    expect(await (await fetch(portal)).text()).toContain('Cancel plan');
    expect((await portalAction(portal, 'cancel')).status).toBe(303);
    const canceling = await waitForBilling(
      person.client,
      (billing) => billing.subscription?.cancelAtPeriodEnd === true,
    );
    expect(canceling.plan).toBe('vault');

    const end = periodEndOf(first);
    const { customerId } = await accountOf(person.userId);
    await moveClock(server, customerId, end + 60);
    const free = await waitForBilling(person.client, (billing) => billing.plan === 'free');
    expect(free.lastChange).toMatchObject({
      from: 'vault',
      to: 'free',
      reason: 'subscription_ended',
      syncsPaused: 1,
    });
    expect(Date.parse(free.backupsKeptUntil ?? '') / 1000).toBe(end + 30 * DAY_SECONDS);
    // Readable and downloadable, not made any more.
    const list = await person.client.get('/api/vault/backups');
    expect(list.status).toBe(200);
    const [backup] = list.body as { id: string }[];
    const download = await person.client.get(`/api/vault/backups/${backup?.id}/download`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="crossfade-backup-/);
    // Sessions may keep the old plan for up to 2 s (decision 0018): the next request after that is Free.
    await waitUntil(
      async () => (await person.client.get('/api/auth/status')).body as { user: { plan: string } },
      (status) => status.user.plan === 'free',
    );
    expect((await person.client.post('/api/vault/backups')).status).toBe(402);

    await moveClock(server, customerId, end + 31 * DAY_SECONDS);
    await waitForBilling(person.client, (billing) => billing.backupsKeptUntil === null);
    const left = await server.deps.db.select().from(backups).where(eq(backups.userId, person.userId));
    expect(left).toEqual([]);
    expect((await person.client.get('/api/vault/backups')).status).toBe(402);
  });
});

describe('work begun on Pro', () => {
  it('finishes after the plan ends: a batch in review is still moved', async () => {
    const person = await signedUp();
    const first = await subscribe(server, person.client, { plan: 'pro' });
    await connectService(person.client, 'spotify');
    await connectService(person.client, 'apple');
    const playlists = ((await person.client.get('/api/playlists/spotify')).body as PlaylistSummary[])
      .filter(
        (item) => (item.kind ?? 'playlist') === 'playlist' && !item.unreadableReason && item.trackCount > 0,
      )
      .sort((a, b) => a.trackCount - b.trackCount)
      .slice(0, 2);
    const created = await person.client.post('/api/batches', {
      sourceService: 'spotify',
      destinationService: 'apple',
      playlistIds: playlists.map((item) => item.id),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { batchId } = created.body as { batchId: string };
    const view = async () => (await person.client.get(`/api/batches/${batchId}`)).body as BatchView;
    expect((await waitUntil(view, (batch) => batch.status !== 'matching', 120_000)).status).toBe('review');

    // The subscription ends while the batch waits for its review.
    const portal = await openPortal(person.client);
    await portalAction(portal, 'cancel');
    await waitForBilling(person.client, (billing) => billing.subscription?.cancelAtPeriodEnd === true);
    await moveClock(server, (await accountOf(person.userId)).customerId, periodEndOf(first) + 60);
    await waitForBilling(person.client, (billing) => billing.plan === 'free');
    // A new batch needs Pro; the one begun on Pro is moved.
    const another = await person.client.post('/api/batches', {
      sourceService: 'spotify',
      destinationService: 'apple',
      playlistIds: playlists.map((item) => item.id),
    });
    expect(another.status).toBe(402);
    const started = await person.client.post(`/api/batches/${batchId}/transfer`, {});
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const moved = await waitUntil(
      view,
      (batch) => batch.status === 'done' || batch.status === 'failed',
      120_000,
    );
    expect(moved.status, moved.error ?? '').toBe('done');
  }, 180_000);
});

describe('changing plan in the portal', () => {
  it('upgrades Pro to Vault+ at once with a prorated invoice, and back to Pro keeping backups 30 days', async () => {
    const person = await signedUp();
    await subscribe(server, person.client, { plan: 'pro' });
    const prices = await server.deps.billing.prices();
    const vault = prices.find((price) => price.plan === 'vault' && price.interval === 'month');
    const pro = prices.find((price) => price.plan === 'pro' && price.interval === 'month');
    // Someone who subscribes already is sent to the portal's confirmation step, not a second checkout.
    const started = await person.client.post('/api/billing/checkout', { plan: 'vault' });
    const confirmUrl = (started.body as { url: string }).url;
    expect(confirmUrl).toContain('/sandbox/stripe/p/session/test_');
    const page = await (await fetch(confirmUrl)).text();
    expect(page).toContain('Confirm your new plan');
    expect(page).toContain('Amount due today');
    const confirmed = await portalAction(confirmUrl, 'update', { price: vault?.id ?? '' });
    expect(confirmed.headers.get('location')).toMatch(/\/account\?billing=updated$/);
    const upgraded = await waitForBilling(person.client, (billing) => billing.plan === 'vault');
    expect(upgraded.lastChange).toMatchObject({ from: 'pro', to: 'vault', reason: 'plan_changed' });
    expect(upgraded.lastInvoice?.amount).toBeGreaterThan(0);
    expect(upgraded.lastInvoice?.amount).toBeLessThanOrEqual(500);

    const portal = await openPortal(person.client);
    expect((await portalAction(portal, 'update', { price: pro?.id ?? '' })).status).toBe(303);
    const downgraded = await waitForBilling(person.client, (billing) => billing.plan === 'pro');
    expect(downgraded.lastChange).toMatchObject({ from: 'vault', to: 'pro', reason: 'plan_changed' });
    expect(downgraded.backupsKeptUntil).not.toBeNull();
    expect((await person.client.post('/api/billing/checkout', { plan: 'pro' })).status).toBe(400);
  });
});

describe('POST /api/billing/webhook', () => {
  async function webhookSecret() {
    const endpoint = await findWebhookEndpoint(server.deps.db, `${server.url}${BILLING_WEBHOOK_PATH}`);
    if (!endpoint) throw new Error('no webhook endpoint');
    return server.deps.encryptor.decrypt(endpoint.secretEncrypted);
  }

  const post = (payload: string, signature?: string) =>
    fetch(`${server.url}${BILLING_WEBHOOK_PATH}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(signature ? { 'stripe-signature': signature } : {}),
      },
      body: payload,
    });

  /** An event the emulator recorded while no endpoint listened: the app has never seen it. */
  async function undeliveredEvent(person: Person) {
    const stripe = server.deps.billing.stripe();
    const endpoint = await findWebhookEndpoint(server.deps.db, `${server.url}${BILLING_WEBHOOK_PATH}`);
    await stripe.webhookEndpoints.update(endpoint?.endpointId ?? '', { disabled: true });
    try {
      const portal = await openPortal(person.client);
      await portalAction(portal, 'cancel');
    } finally {
      await stripe.webhookEndpoints.update(endpoint?.endpointId ?? '', { disabled: false });
    }
    const events = await stripe.events.list({ type: 'customer.subscription.updated', limit: 1 });
    const event = events.data[0];
    if (!event) throw new Error('no event');
    return JSON.stringify(event, null, 2);
  }

  it('refuses a forged, a stale and an unsigned event with 400 and changes nothing', async () => {
    const person = await signedUp();
    await subscribe(server, person.client, { plan: 'pro' });
    const payload = await undeliveredEvent(person);
    const secret = await webhookSecret();
    const eventsBefore = (await server.deps.db.select().from(billingEvents)).length;

    const forged = await post(
      payload,
      Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_forged' }),
    );
    expect(forged.status).toBe(400);
    expect(((await forged.json()) as { message: string }).message).toBe(
      'The webhook signature does not match: nothing was changed.',
    );
    const stale = await post(
      payload,
      Stripe.webhooks.generateTestHeaderString({
        payload,
        secret,
        timestamp: Math.floor(Date.now() / 1000) - 10 * 60,
      }),
    );
    expect(stale.status).toBe(400);
    expect(((await stale.json()) as { message: string }).message).toMatch(/within the last 5 minutes/);
    const future = await post(
      payload,
      Stripe.webhooks.generateTestHeaderString({
        payload,
        secret,
        timestamp: Math.floor(Date.now() / 1000) + 10 * 60,
      }),
    );
    expect(future.status).toBe(400);
    expect((await post(payload)).status).toBe(400);
    // A body changed after signing fails too.
    const signed = Stripe.webhooks.generateTestHeaderString({ payload, secret });
    expect(
      (await post(payload.replace('"cancel_at_period_end": true', '"cancel_at_period_end": false'), signed))
        .status,
    ).toBe(400);

    expect((await server.deps.db.select().from(billingEvents)).length).toBe(eventsBefore);
    expect((await billingOf(person.client)).subscription?.cancelAtPeriodEnd).toBe(false);

    // The same event, rightly signed, is acted on: then a replay of it has no second effect.
    const accepted = await post(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret }));
    expect(await accepted.json()).toEqual({ received: true, outcome: 'processed' });
    expect((await billingOf(person.client)).subscription?.cancelAtPeriodEnd).toBe(true);
    const changes = await planChangeCount(person.userId);
    const replayed = await post(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret }));
    expect(replayed.status).toBe(200);
    expect(await replayed.json()).toEqual({ received: true, outcome: 'duplicate' });
    expect(await planChangeCount(person.userId)).toBe(changes);
  });

  it('acts once on one event delivered twice at the same moment', async () => {
    const person = await signedUp();
    await subscribe(server, person.client, { plan: 'pro' });
    const payload = await undeliveredEvent(person);
    const secret = await webhookSecret();
    const id = (JSON.parse(payload) as { id: string }).id;
    const answers = await Promise.all(
      [0, 1, 2].map(async () =>
        (await post(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret }))).json(),
      ),
    );
    const outcomes = answers.map((answer) => (answer as { outcome: string }).outcome).sort();
    expect(outcomes).toEqual(['duplicate', 'duplicate', 'processed']);
    const rows = await server.deps.db
      .select()
      .from(billingEvents)
      .where(and(eq(billingEvents.id, id)));
    expect(rows).toHaveLength(1);
  });
});

describe('a customer Stripe no longer knows', () => {
  it('is forgotten: Manage billing says so, and the next checkout makes a new customer', async () => {
    const person = await signedUp();
    await subscribe(server, person.client, { plan: 'pro' });
    const { customerId } = await accountOf(person.userId);
    // Deleted in Stripe's dashboard: the subscription ends with it, and the webhook says so.
    await server.deps.billing.stripe().customers.del(customerId);
    await waitForBilling(person.client, (billing) => billing.plan === 'free');
    const portal = await person.client.post('/api/billing/portal');
    expect(portal.status).toBe(409);
    expect((portal.body as { message: string }).message).toBe(
      'Stripe no longer knows your billing account: choose a plan on /pricing again.',
    );
    const again = await person.client.post('/api/billing/checkout', { plan: 'pro' });
    expect(again.status, again.text).toBe(200);
    const account = await accountOf(person.userId);
    expect(account.customerId).not.toBe(customerId);
  });
});

describe('deleting an account', () => {
  it('cancels the subscription at Stripe first, so a deleted account is never charged again', async () => {
    const person = await signedUp();
    await subscribe(server, person.client, { plan: 'pro' });
    const { customerId, subscriptionId } = await accountOf(person.userId);
    const username = person.email.split('@')[0] ?? '';
    const deleted = await person.client.send('DELETE', '/api/account', { confirmUsername: username });
    expect(deleted.status).toBe(204);
    const stripe = server.deps.billing.stripe();
    expect(await stripe.customers.retrieve(customerId).catch((error: unknown) => error)).toMatchObject({
      statusCode: 404,
    });
    expect((await stripe.subscriptions.retrieve(subscriptionId ?? '')).status).toBe('canceled');
  });
});
