import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateSandboxStripeKey } from '../../sandbox/stripe/sandbox-key';
import type { Billing } from '../../shared/api/billing';
import type { DatabaseHandle } from '../db/client';
import { billingEvents, planChanges, users } from '../db/schema';
import { type ServerProcess, startSandboxProcess, startServerProcess } from '../testing/server-process';
import { payOnCheckoutPage } from '../testing/stripe-sandbox';
import { createTestDatabase, usesRealPostgres } from '../testing/test-database';
import { TestClient } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';
import { createStripeClient } from './stripe-client';

/**
 * Two API processes on one PostgreSQL, each with its own webhook endpoint at the payments sandbox (run on
 * its own, as the README's scaled-out deployment does): every event reaches both at about the same moment,
 * and each is acted on once. PGlite serves one process, so this runs on PostgreSQL (`npm run test:pg`, CI).
 */
let dataDir = '';
let database: (DatabaseHandle & { url?: string }) | undefined;
let sandbox: ServerProcess;
let apis: ServerProcess[] = [];

describe.skipIf(!usesRealPostgres())('two API processes receiving the same Stripe events', () => {
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'crossfade-billing-two-'));
    database = await createTestDatabase();
    sandbox = await startSandboxProcess({
      DATA_DIR: dataDir,
      SANDBOX_RATE_LIMIT: '0',
      SANDBOX_CATALOG_TRACKS: '3000',
    });
    const common = {
      DATA_DIR: dataDir,
      DATABASE_URL: database.url ?? '',
      SANDBOX_URL: sandbox.url,
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
      JOB_WORKERS: '0',
      // The webhook lines (event id and outcome) are what this test reads.
      LOG_LEVEL: 'info',
    };
    apis = await Promise.all([0, 1].map(() => startServerProcess(common)));
  }, 180_000);

  afterAll(async () => {
    await Promise.all([...apis, sandbox].map((process) => process?.stop()));
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** Every `stripe webhook` line a process logged: event id and what it did with it. */
  function webhookLines(api: ServerProcess): { event: string; outcome: string }[] {
    return api
      .output()
      .split('\n')
      .flatMap((line) => {
        try {
          const entry = JSON.parse(line) as { msg?: string; event?: string; outcome?: string };
          return entry.msg === 'stripe webhook' && entry.event && entry.outcome
            ? [{ event: entry.event, outcome: entry.outcome }]
            : [];
        } catch (error) {
          // A line that is not JSON (not a log entry) says nothing about webhooks.
          if (error instanceof SyntaxError) return [];
          throw error;
        }
      });
  }

  it('changes the plan once for an upgrade whose every event both processes received', async () => {
    const [first, second] = apis as [ServerProcess, ServerProcess];
    // Each process sets up its webhook endpoint with the sandbox the first time billing is used.
    for (const api of apis) expect((await fetch(`${api.url}/api/billing/prices`)).status).toBe(200);
    const stripe = createStripeClient({
      secretKey: loadOrCreateSandboxStripeKey(dataDir),
      apiUrl: `${sandbox.url}/sandbox/stripe`,
    });
    const endpoints = await stripe.webhookEndpoints.list();
    expect(endpoints.data.map((endpoint) => endpoint.url).sort()).toEqual(
      apis.map((api) => `${api.url}/api/billing/webhook`).sort(),
    );

    const client = new TestClient(first.url);
    const signup = await client.post('/api/auth/register', {
      username: 'twoprocesses',
      email: 'twoprocesses@example.com',
      password: 'correct horse',
    });
    expect(signup.status).toBe(201);
    const started = await client.post('/api/billing/checkout', { plan: 'pro' });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect((await payOnCheckoutPage((started.body as { url: string }).url)).status).toBe(303);

    client.baseUrl = second.url;
    await waitUntil(
      async () => (await client.get('/api/billing')).body as Billing,
      (billing) => billing.plan === 'pro',
      30_000,
    );
    await waitUntil(
      () => stripe.events.list({ limit: 100 }),
      (events) => events.data.every((event) => event.pending_webhooks === 0),
      30_000,
    );

    const db = database?.db;
    if (!db) throw new Error('no database');
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.username, 'twoprocesses'));
    const changes = await db
      .select()
      .from(planChanges)
      .where(eq(planChanges.userId, user?.id ?? ''));
    expect(changes.map((change) => `${change.fromPlan}->${change.toPlan}`)).toEqual(['free->pro']);

    // Every event both endpoints were sent: one process acted on it, the other found it done. A process
    // answers the delivery before its log line reaches our pipe, so the lines are waited for.
    const recorded = await db.select({ id: billingEvents.id }).from(billingEvents);
    expect(recorded.length).toBeGreaterThan(3);
    const outcomesByEvent = () => {
      const seen = new Map<string, string[]>();
      for (const line of [...webhookLines(first), ...webhookLines(second)]) {
        seen.set(line.event, [...(seen.get(line.event) ?? []), line.outcome]);
      }
      return seen;
    };
    const seen = await waitUntil(
      async () => outcomesByEvent(),
      (current) => recorded.every(({ id }) => (current.get(id) ?? []).length >= 2),
      10_000,
    );
    for (const { id } of recorded) {
      const outcomes = (seen.get(id) ?? []).sort();
      expect(outcomes, id).toHaveLength(2);
      expect(
        outcomes.filter((outcome) => outcome === 'duplicate'),
        id,
      ).toHaveLength(1);
    }
  });
});
