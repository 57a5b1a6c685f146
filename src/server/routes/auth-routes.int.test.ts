import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsEvents, sessions } from '../db/schema';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';

let server: TestServer;
let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${counter++}`;

beforeAll(async () => {
  server = await startTestServer({ env: { LOGIN_MAX_FAILURES: '3', LOGIN_THROTTLE_WINDOW_MINUTES: '15' } });
});
afterAll(() => server.close());

async function registered(client: TestClient = server.newClient()) {
  const username = unique('user');
  const account = { username, email: `${username}@example.com`, password: 'correct horse' };
  const response = await client.post('/api/auth/register', account);
  expect(response.status).toBe(201);
  return { client, account };
}

const message = (body: unknown) => (body as { message?: string }).message;

describe('registration', () => {
  it('creates the account, signs the person in with an httpOnly SameSite=Lax cookie and reports it in status', async () => {
    const client = server.newClient();
    const username = unique('Ada');
    const response = await client.post('/api/auth/register', {
      username,
      email: `${username}@example.com`,
      password: 'secret1',
    });
    expect(response.status).toBe(201);
    const sessionCookie = response.headers.getSetCookie().find((cookie) => cookie.startsWith('cf_session='));
    expect(sessionCookie).toMatch(/HttpOnly/i);
    expect(sessionCookie).toMatch(/SameSite=Lax/i);

    const status = await client.get('/api/auth/status');
    expect(status.body).toMatchObject({
      authenticated: true,
      isAuthenticated: true,
      spotifyConnected: false,
      appleConnected: false,
      user: { username, plan: 'free' },
    });
  });

  it('stores an argon2id hash, never the password', async () => {
    const { account } = await registered();
    const rows = await server.deps.db.execute(
      sql`select password_hash from users where username = ${account.username}`,
    );
    const hash = String((rows as unknown as { rows: { password_hash: string }[] }).rows[0]?.password_hash);
    expect(hash.startsWith('$argon2id$')).toBe(true);
    expect(hash).not.toContain(account.password);
  });

  it.each([
    [{ email: 'a@example.com', password: 'secret1' }, 'Username is required'],
    [{ username: 'bob', password: 'secret1' }, 'Email is required'],
    [{ username: 'bob', email: 'b@example.com' }, 'Password is required'],
    [{ username: 'bob', email: 'not-an-email', password: 'secret1' }, 'Please enter a valid email address'],
    [
      { username: 'bob', email: 'b@example.com', password: '12345' },
      'Password must be at least 6 characters long',
    ],
    [{ username: 42, email: 'b@example.com', password: 'secret1' }, 'Username must be text'],
    [{ username: '   ', email: 'b@example.com', password: 'secret1' }, 'Username is required'],
    [
      { username: 'x'.repeat(100), email: 'b@example.com', password: 'secret1' },
      'Username must be at most 64 characters',
    ],
  ])('rejects %j with 400 "%s"', async (body, expected) => {
    const response = await server.newClient().post('/api/auth/register', body);
    expect(response.status).toBe(400);
    expect(message(response.body)).toBe(expected);
  });

  it('answers a body that is not JSON, or not an object, with a clear 400', async () => {
    const client = server.newClient();
    const notJson = await client.post('/api/auth/register', undefined, { raw: '{"username":' });
    expect(notJson.status).toBe(400);
    expect(message(notJson.body)).toBe('The request body must be valid JSON.');
    const array = await client.post('/api/auth/register', ['a']);
    expect(array.status).toBe(400);
    expect(message(array.body)).toBe('The request body must be a JSON object.');
  });

  it.each(['username', 'email', 'password'])(
    'refuses a 1 MB %s with a 400 and a message, not a crash',
    async (field) => {
      const body = {
        username: 'big',
        email: 'big@example.com',
        password: 'secret1',
        [field]: 'p'.repeat(1024 * 1024),
      };
      const response = await server.newClient().post('/api/auth/register', body);
      expect(response.status).toBe(400);
      expect(message(response.body)).toMatch(/must be at most \d+ characters/);
    },
  );

  it('answers 409 for a username or e-mail that is taken, whatever the letter case', async () => {
    const { account } = await registered();
    const sameName = await server.newClient().post('/api/auth/register', {
      ...account,
      username: account.username.toUpperCase(),
      email: `other-${account.email}`,
    });
    expect(sameName.status).toBe(409);
    expect(message(sameName.body)).toBe('That username is already taken.');
    const sameEmail = await server.newClient().post('/api/auth/register', {
      ...account,
      username: `${account.username}x`,
      email: account.email.toUpperCase(),
    });
    expect(sameEmail.status).toBe(409);
    expect(message(sameEmail.body)).toBe('An account with that email address already exists.');
  });
});

describe('sign-in and sessions', () => {
  it('signs in with the right password and issues a new token each time, revoking the browser’s old one', async () => {
    const { client, account } = await registered();
    const firstToken = client.cookies.get('cf_session');
    const login = await client.post('/api/auth/login', {
      username: account.username,
      password: account.password,
    });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ user: { username: account.username } });
    const secondToken = client.cookies.get('cf_session');
    expect(secondToken).toBeDefined();
    expect(secondToken).not.toBe(firstToken);

    const replay = server.newClient();
    replay.cookies.set('cf_session', String(firstToken));
    expect((await replay.get('/api/auth/status')).body).toMatchObject({ authenticated: false, user: null });
  });

  it('answers 401 for a wrong password and for an unknown user, with the same message', async () => {
    const { account } = await registered();
    const wrong = await server
      .newClient()
      .post('/api/auth/login', { username: account.username, password: 'nope12' });
    const unknown = await server
      .newClient()
      .post('/api/auth/login', { username: unique('ghost'), password: 'nope12' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(message(wrong.body)).toBe('Invalid username or password.');
    expect(message(unknown.body)).toBe(message(wrong.body));
  });

  it('rejects a sign-in without username or password', async () => {
    const response = await server.newClient().post('/api/auth/login', { username: 'someone' });
    expect(response.status).toBe(400);
    expect(message(response.body)).toBe('Password is required');
  });

  it('throttles repeated failures with 429, a Retry-After and a message saying when to retry', async () => {
    const { account } = await registered();
    const attacker = server.newClient();
    for (let attempt = 0; attempt < 3; attempt++) {
      const failure = await attacker.post('/api/auth/login', {
        username: account.username,
        password: 'guess-1',
      });
      expect(failure.status).toBe(401);
    }
    const blocked = await attacker.post('/api/auth/login', {
      username: account.username,
      password: account.password,
    });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(message(blocked.body)).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ minutes\.$/);
  });

  it('signs out for real: the old cookie no longer opens the session', async () => {
    const { client } = await registered();
    const token = String(client.cookies.get('cf_session'));
    expect((await client.post('/api/auth/logout')).status).toBe(204);
    expect(client.cookies.has('cf_session')).toBe(false);
    const replay = server.newClient();
    replay.cookies.set('cf_session', token);
    expect((await replay.get('/api/auth/status')).body).toMatchObject({ authenticated: false });
  });

  it('stops a revoked session at once, even right after it was used', async () => {
    const { client, account } = await registered();
    const token = String(client.cookies.get('cf_session'));
    const replay = server.newClient();
    replay.cookies.set('cf_session', token);
    expect((await replay.get('/api/auth/status')).body).toMatchObject({ authenticated: true });
    expect((await client.post('/api/auth/logout')).status).toBe(204);
    expect((await replay.get('/api/auth/status')).body).toMatchObject({ authenticated: false, user: null });

    // Removed behind the routes' back (an operator, another code path): also at once.
    const second = server.newClient();
    expect((await second.post('/api/auth/login', account)).status).toBe(200);
    expect((await second.get('/api/auth/status')).body).toMatchObject({ authenticated: true });
    await server.deps.db.delete(sessions);
    expect((await second.get('/api/auth/status')).body).toMatchObject({ authenticated: false });
  });

  it('treats an expired session as signed out', async () => {
    const { client, account } = await registered();
    expect((await client.get('/api/auth/status')).body).toMatchObject({ authenticated: true });
    await server.deps.db.execute(
      sql`update sessions set expires_at = now() - interval '1 minute' where user_id = (select id from users where username = ${account.username})`,
    );
    expect((await client.get('/api/auth/status')).body).toMatchObject({ authenticated: false, user: null });
  });
});

describe('CSRF protection', () => {
  it('refuses a mutating request without the token header, with a wrong one, or from another site', async () => {
    const { client, account } = await registered();
    const credentials = { username: account.username, password: account.password };
    const missing = await client.send('POST', '/api/auth/login', credentials, { skipCsrf: true });
    expect(missing.status).toBe(403);
    expect(message(missing.body)).toMatch(/security token/);
    const wrong = await client.post('/api/auth/login', credentials, {
      headers: { 'x-csrf-token': 'x'.repeat(43) },
    });
    expect(wrong.status).toBe(403);
    const crossSite = await client.post('/api/auth/logout', undefined, {
      headers: { origin: 'https://evil.example' },
    });
    expect(crossSite.status).toBe(403);
    expect(message(crossSite.body)).toBe('Requests from other sites are not accepted.');
    // The session survived all three.
    expect((await client.get('/api/auth/status')).body).toMatchObject({ authenticated: true });
  });
});

describe('analytics events', () => {
  const event = (name: string) => ({
    event: name,
    properties: { page_name: '/' },
    timestamp: new Date().toISOString(),
  });

  it('stores a valid batch with the signed-in user', async () => {
    const { client, account } = await registered();
    const response = await client.post('/api/events', {
      events: [event('$pageview'), event('button_clicked')],
    });
    expect(response.status).toBe(202);
    const rows = await server.deps.db
      .select()
      .from(analyticsEvents)
      .where(eq(analyticsEvents.event, 'button_clicked'));
    expect(rows.some((row) => row.userId !== null)).toBe(true);
    expect(account.username).toBeTruthy();
  });

  it.each([
    [{ events: [] }, 'events must not be empty'],
    [
      { events: [{ event: 'Bad Name', properties: {}, timestamp: new Date().toISOString() }] },
      'event name must be snake_case (or $pageview)',
    ],
    [
      { events: [{ event: 'ok_event', properties: {}, timestamp: 'yesterday' }] },
      'timestamp must be an ISO 8601 date-time',
    ],
  ])('rejects bad events with 400: %j', async (body, expected) => {
    const response = await server.newClient().post('/api/events', body);
    expect(response.status).toBe(400);
    expect(message(response.body)).toBe(expected);
  });
  // The events limit (per account or address) is tested in security/rate-limits.int.test.ts.
});

describe('HTTP basics', () => {
  it('sends security headers and JSON 404s for unknown API paths', async () => {
    const response = await server.newClient().get('/api/nope');
    expect(response.status).toBe(404);
    expect(message(response.body)).toBe('No API route for GET /api/nope.');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('reports health with the database', async () => {
    const response = await server.newClient().get('/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ok: true, database: 'up' });
  });

  it('keeps sessions in the database', async () => {
    const { account } = await registered();
    const rows = await server.deps.db.select().from(sessions);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.tokenHash))).toBe(true);
    expect(account).toBeTruthy();
  });
});
