import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedLog } from '../testing/captured-log';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';

/**
 * Issue 20 item 6, as the attack was done: behind `TRUST_PROXY=true` the client wrote its own first
 * `X-Forwarded-For` entry, a new one per request, and the proxy appended the real address. Every limit
 * keyed by address must see the appended one. (The server sees the test's loopback socket as the proxy.)
 */
const { logger, lines: logLines } = capturedLog();

let server: TestServer;
let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${counter++}`;
/** A forged first entry, new on every call, then what the proxy appended. */
const forged = (realAddress: string) => ({
  headers: { 'x-forwarded-for': `${(counter++ % 250) + 1}.${counter % 250}.7.9, ${realAddress}` },
});

beforeAll(async () => {
  server = await startTestServer({
    logger,
    env: {
      TRUST_PROXY: 'true',
      LOGIN_MAX_FAILURES: '5',
      LOGIN_ADDRESS_MAX_FAILURES: '8',
      SIGNUP_LIMIT_PER_HOUR: '3',
      LINK_SIGNUP_LIMIT_PER_HOUR: '2',
      EVENTS_PER_10_SECONDS: '100',
      ONBOARDING_REPLIES_PER_MINUTE: '3',
    },
  });
});
afterAll(() => server.close());

async function register(client: TestClient, realAddress: string) {
  const username = unique('u');
  const details = { username, email: `${username}@example.com`, password: 'correct horse' };
  return { answer: await client.post('/api/auth/register', details, forged(realAddress)), ...details };
}

describe('the client address behind one trusted proxy', () => {
  it('throttles 12 wrong passwords whose first X-Forwarded-For entry rotates (the attack as done)', async () => {
    const owner = await register(server.newClient(), '198.51.100.200');
    expect(owner.answer.status).toBe(201);
    const attacker = server.newClient();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++) {
      const answer = await attacker.post(
        '/api/auth/login',
        { username: owner.username, password: `guess-${attempt}` },
        forged('203.0.113.50'),
      );
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
    // The owner, behind the same proxy from their own address, still signs in.
    const ownerSignIn = await server
      .newClient()
      .post(
        '/api/auth/login',
        { username: owner.username, password: owner.password },
        forged('198.51.100.200'),
      );
    expect(ownerSignIn.status).toBe(200);
  });

  it('caps the failures of one IPv6 /64 however its addresses rotate', async () => {
    const attacker = server.newClient();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      const answer = await attacker.post(
        '/api/auth/login',
        { username: unique('nobody'), password: 'x' },
        { headers: { 'x-forwarded-for': `2001:db8:77:1:${attempt.toString(16)}::${attempt + 1}` } },
      );
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 429, 429]);
    // The next /64 is another subscriber.
    const neighbour = await attacker.post(
      '/api/auth/login',
      { username: unique('nobody'), password: 'x' },
      { headers: { 'x-forwarded-for': '2001:db8:77:2::1' } },
    );
    expect(neighbour.status).toBe(401);
  });

  it('limits sign-ups per real address whatever the first entry says', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 5; n++)
      statuses.push((await register(server.newClient(), '198.51.100.60')).answer.status);
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    // An IPv4-mapped spelling of the same address is the same client.
    expect((await register(server.newClient(), '::ffff:198.51.100.60')).answer.status).toBe(429);
    expect((await register(server.newClient(), '198.51.100.61')).answer.status).toBe(201);
  });

  it('limits link-page signups, events and the onboarding assistant per real address', async () => {
    const owner = server.newClient();
    expect((await register(owner, '198.51.100.70')).answer.status).toBe(201);
    const link = await owner.post('/api/links', { name: unique('link') });
    expect(link.status, link.text).toBe(201);
    const slug = (link.body as { slug: string }).slug;
    const signUps: number[] = [];
    for (let n = 0; n < 4; n++) {
      const answer = await server
        .newClient()
        .post(
          `/api/public/links/${slug}/signup`,
          { email: `${unique('fan')}@example.com` },
          forged('198.51.100.71'),
        );
      signUps.push(answer.status);
    }
    expect(signUps).toEqual([201, 201, 429, 429]);

    const event = { event: 'feature_used', properties: {}, timestamp: new Date().toISOString() };
    const batch = (size: number) => ({ events: Array.from({ length: size }, () => event) });
    expect((await server.newClient().post('/api/events', batch(100), forged('198.51.100.72'))).status).toBe(
      202,
    );
    expect((await server.newClient().post('/api/events', batch(1), forged('198.51.100.72'))).status).toBe(
      429,
    );

    const ask = () =>
      server
        .newClient()
        .post(
          '/api/claude/onboarding-chat',
          { messages: [{ type: 'user', content: 'hello', timestamp: new Date().toISOString() }] },
          forged('198.51.100.73'),
        );
    const replies: number[] = [];
    for (let n = 0; n < 4; n++) replies.push((await ask()).status);
    expect(replies).toEqual([200, 200, 200, 429]);
  });

  it('answers a header full of junk as usual and counts it against the proxy that passed it on', async () => {
    const client = server.newClient();
    const junk = [
      'garbage',
      '203.0.113.9:8080',
      '[2001:db8::1]',
      '::1.2.3.4',
      'unknown',
      `${'1.'.repeat(3000)}`,
    ];
    for (const entry of junk) {
      const status = await client.send('GET', '/api/auth/status', undefined, {
        headers: { 'x-forwarded-for': `198.51.100.1, ${entry}` },
      });
      expect(status.status).toBe(200);
      const signIn = await client.post(
        '/api/auth/login',
        { username: unique('nobody'), password: 'x' },
        { headers: { 'x-forwarded-for': `198.51.100.1, ${entry}` } },
      );
      expect([401, 429]).toContain(signIn.status);
    }
    const junkLines = logLines
      .map((line) => JSON.parse(line) as { msg: string; address?: string; path?: string })
      .filter((line) => line.msg === 'request' && line.path === '/api/auth/status');
    expect(junkLines.length).toBeGreaterThanOrEqual(junk.length);
    expect(new Set(junkLines.slice(-junk.length).map((line) => line.address))).toEqual(
      new Set(['127.0.0.1']),
    );
  });

  it('writes the real address in the request log', async () => {
    await server.newClient().send('GET', '/api/health', undefined, forged('192.0.2.44'));
    const line = logLines
      .map((text) => JSON.parse(text) as { msg: string; path?: string; address?: string })
      .findLast((entry) => entry.msg === 'request' && entry.path === '/api/health');
    expect(line?.address).toBe('192.0.2.44');
  });
});

describe('the scheme behind one trusted proxy', () => {
  const csrfCookie = async (headers: Record<string, string>) => {
    const answer = await server.newClient().send('GET', '/api/auth/status', undefined, { headers });
    return answer.headers.getSetCookie().find((cookie) => cookie.startsWith('cf_csrf=')) ?? '';
  };

  it('marks cookies Secure when the proxy says the client came over HTTPS, not when the client says so', async () => {
    expect(await csrfCookie({ 'x-forwarded-proto': 'https' })).toMatch(/; Secure/);
    expect(await csrfCookie({ 'x-forwarded-proto': 'HTTPS' })).toMatch(/; Secure/);
    // The client wrote "https"; the proxy appended what it saw.
    expect(await csrfCookie({ 'x-forwarded-proto': 'https, http' })).not.toMatch(/; Secure/);
    expect(await csrfCookie({})).not.toMatch(/; Secure/);
  });
});

describe('the client address with no trusted proxy', () => {
  it('is the socket peer: a forged X-Forwarded-For changes nothing', async () => {
    const plain = await startTestServer({ env: { SIGNUP_LIMIT_PER_HOUR: '2' } });
    try {
      const statuses: number[] = [];
      for (let n = 0; n < 3; n++)
        statuses.push((await register(plain.newClient(), `198.51.100.${n + 90}`)).answer.status);
      expect(statuses).toEqual([201, 201, 429]);
      const status = await plain.newClient().send('GET', '/api/auth/status', undefined, {
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(status.headers.getSetCookie().join('\n')).not.toMatch(/; Secure/);
    } finally {
      await plain.close();
    }
  });
});
