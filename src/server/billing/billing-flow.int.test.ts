import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingAccounts, users } from '../db/schema';
import { billingOf, CARDS, checkout, subscribe } from '../testing/stripe-sandbox';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';

let server: TestServer;
let counter = 0;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function signedUp(): Promise<{ client: TestClient; userId: string }> {
  const client = server.newClient();
  const username = `buyer${Date.now().toString(36)}${counter++}`;
  const response = await client.post('/api/auth/register', {
    username,
    email: `${username}@example.com`,
    password: 'correct horse',
  });
  expect(response.status).toBe(201);
  const [row] = await server.deps.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  if (!row) throw new Error('no user');
  return { client, userId: row.id };
}

describe('upgrade through the hosted checkout', () => {
  it('makes the person Pro once the signed webhook arrives, with the renewal date', async () => {
    const { client, userId } = await signedUp();
    const before = await billingOf(client);
    expect(before).toMatchObject({ plan: 'free', payments: 'sandbox', canManage: false, subscription: null });
    const billing = await subscribe(server, client, { plan: 'pro' });
    expect(billing.subscription).toMatchObject({
      plan: 'pro',
      interval: 'month',
      status: 'active',
      cancelAtPeriodEnd: false,
    });
    expect(billing.lastInvoice).toMatchObject({ amount: 500, currency: 'usd', status: 'paid' });
    const [account] = await server.deps.db
      .select()
      .from(billingAccounts)
      .where(eq(billingAccounts.userId, userId));
    expect(account?.customerId).toMatch(/^cus_/);
    expect(account?.subscriptionId).toMatch(/^sub_/);
  });

  it('keeps a declined card on the checkout page with Stripe message and changes nothing', async () => {
    const { client } = await signedUp();
    const { paid } = await checkout(client, { plan: 'pro' }, CARDS.declined);
    expect(paid.status).toBe(402);
    const page = await paid.text();
    expect(page).toContain('Your card was declined.');
    expect(page).toContain('role="alert"');
    expect((await billingOf(client)).plan).toBe('free');
  });
});
