import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthRequests } from '../db/schema';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestServer } from '../testing/test-server';

/**
 * Issue 10, point 6: the `returnTo` of a connect request is where the callback sends the browser. Through
 * the real connect route, the emulator's consent page and the real callback, only our own paths survive;
 * every trick lands on /transfer.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

let accounts = 0;
async function signedIn() {
  accounts += 1;
  const client = server.newClient();
  const registered = await client.post('/api/auth/register', {
    username: `redirect-${accounts}`,
    email: `redirect-${accounts}@example.com`,
    password: 'secret-words',
  });
  expect(registered.status).toBeLessThan(300);
  return client;
}

/** Where a browser goes when it follows `location` from a page of the app. */
const followed = (location: string) => new URL(location, server.url);

describe('returnTo after connecting a service', () => {
  it('brings the person back to the page they started from', async () => {
    const client = await signedIn();
    const location = await connectService(client, 'spotify', { returnTo: '/account?tab=services' });
    const target = followed(location);
    expect(target.origin).toBe(server.url);
    expect(target.pathname).toBe('/account');
    expect(target.searchParams.get('tab')).toBe('services');
    expect(target.searchParams.get('connected')).toBe('spotify');
  });

  const tricks = [
    '/.//evil.example/x',
    '//evil.example/x',
    '/\\evil.example/x',
    '/\\/evil.example',
    '/..//evil.example/x',
    '/%2e//evil.example/x',
    'https://evil.example/x',
    'evil.example',
  ];
  for (const returnTo of tricks) {
    it(`sends ${JSON.stringify(returnTo)} to /transfer, on our own origin`, async () => {
      const client = await signedIn();
      const location = await connectService(client, 'spotify', { returnTo });
      expect(location.startsWith('/')).toBe(true);
      expect(location.startsWith('//')).toBe(false);
      expect(location).not.toContain('\\');
      const target = followed(location);
      expect(target.origin).toBe(server.url);
      expect(target.pathname).toBe('/transfer');
      expect(target.searchParams.get('connected')).toBe('spotify');
    });
  }

  it('stores only the checked path, and a failed connection goes back to it too', async () => {
    const client = await signedIn();
    const start = await client.get(
      `/api/auth/apple/connect?returnTo=${encodeURIComponent('/.//evil.example/x')}`,
    );
    expect(start.status).toBe(200);
    const rows = await server.deps.db.select().from(oauthRequests);
    expect(rows.map((row) => row.returnTo)).not.toContain('/.//evil.example/x');
    for (const row of rows) expect(row.returnTo).toBe('/transfer');

    const denied = await connectService(client, 'apple', {
      decision: 'deny',
      returnTo: '/.//evil.example/x',
    });
    const target = followed(denied);
    expect(target.origin).toBe(server.url);
    expect(target.pathname).toBe('/transfer');
    expect(target.searchParams.get('connectError')).toBeTruthy();
  });
});
