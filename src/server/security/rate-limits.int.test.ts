import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GEO_TRACKS_PER_CALL } from '../../shared/api/geo-lock';
import type { FetchPlaylistTracksResponse, PlaylistSummary, Track } from '../../shared/api/playlists';
import { outboxMessages, users } from '../db/schema';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { takeRateLimit } from './rate-limit';

/**
 * Issue 10: sign-in throttling that cannot lock the owner out, and the rate limits (429 with Retry-After
 * and a message), with tight limits. Addresses come from X-Forwarded-For (TRUST_PROXY), as behind a proxy.
 */
let server: TestServer;
let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${counter++}`;
const message = (body: unknown) => (body as { message?: string }).message ?? '';
const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

beforeAll(async () => {
  server = await startTestServer({
    env: {
      TRUST_PROXY: 'true',
      LOGIN_MAX_FAILURES: '5',
      LOGIN_ADDRESS_MAX_FAILURES: '25',
      LOGIN_ALERT_FAILURES: '20',
      SIGNUP_LIMIT_PER_HOUR: '3',
      LINK_SIGNUP_LIMIT_PER_HOUR: '2',
      MERGE_INVITATIONS_PER_DAY: '2',
      EVENTS_PER_10_SECONDS: '100',
      ONBOARDING_REPLIES_PER_MINUTE: '3',
      GEO_LOCK_TRACKS_PER_DAY: '30',
    },
  });
});
afterAll(() => server.close());

/** A new account signed up from its own address (the sign-up limit is per address). */
async function account(address = `10.9.${counter % 250}.${(counter++ % 250) + 1}`) {
  const client = server.newClient();
  const username = unique('u');
  const details = { username, email: `${username}@example.com`, password: 'correct horse' };
  const answer = await client.post('/api/auth/register', details, from(address));
  expect(answer.status, answer.text).toBe(201);
  const id = (answer.body as { user: { id: string } }).user.id;
  return { client, id, ...details };
}

function expect429(answer: { status: number; headers: Headers; body: unknown }, text: RegExp) {
  expect(answer.status).toBe(429);
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(message(answer.body)).toMatch(text);
  expect(message(answer.body)).toMatch(/ Try again in \d+ (seconds?|minutes|hours)\.$/);
}

describe('the limiter', () => {
  it('gives out exactly the limit to simultaneous takers, and refused takes cost nothing', async () => {
    const rule = { bucket: unique('race'), limit: 5, windowMs: 60_000, message: '' };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => takeRateLimit(server.deps.db, rule, 'one key')),
    );
    expect(answers.filter((wait) => wait === null)).toHaveLength(5);
    // (At most a window and one slot, a tenth of it.)
    expect(answers.filter((wait) => wait !== null).every((wait) => wait && wait <= 66)).toBe(true);
    // Another key has its own count; a cost over what is left is refused without taking anything.
    expect(await takeRateLimit(server.deps.db, rule, 'other key', 4)).toBeNull();
    expect(await takeRateLimit(server.deps.db, rule, 'other key', 2)).not.toBeNull();
    expect(await takeRateLimit(server.deps.db, rule, 'other key', 1)).toBeNull();
  });

  it('counts over a rolling window: no window of that length holds more than the limit', async () => {
    const { db } = server.deps;
    const rule = { bucket: unique('rolling'), limit: 3, windowMs: 60_000, message: '' };
    // A start on a whole minute, where a fixed window would begin a new count.
    const t0 = Date.now() - (Date.now() % 60_000) - 5 * 60_000;
    expect(await takeRateLimit(db, rule, 'k', 2, t0 + 1_000)).toBeNull();
    expect(await takeRateLimit(db, rule, 'k', 1, t0 + 50_000)).toBeNull();
    // Full: the two units of t0 + 1 s leave the window after their slot (6 s) plus a window.
    expect(await takeRateLimit(db, rule, 'k', 1, t0 + 59_000)).toBe(7);
    // A new minute frees nothing: the window still holds all three units.
    expect(await takeRateLimit(db, rule, 'k', 1, t0 + 61_000)).toBe(5);
    expect(await takeRateLimit(db, rule, 'k', 2, t0 + 66_000)).toBeNull();
    expect(await takeRateLimit(db, rule, 'k', 1, t0 + 66_500)).toBe(48);

    // A burst at the end of one minute and another at the start of the next: the second is refused.
    const burst = { ...rule, bucket: unique('burst') };
    expect(await takeRateLimit(db, burst, 'k', 3, t0 + 59_500)).toBeNull();
    expect(await takeRateLimit(db, burst, 'k', 1, t0 + 60_500)).not.toBeNull();
    expect(await takeRateLimit(db, burst, 'k', 1, t0 + 119_000)).not.toBeNull();
    expect(await takeRateLimit(db, burst, 'k', 3, t0 + 120_000)).toBeNull();
  });
});

describe('sign-in throttling', () => {
  it('50 failures from one address do not stop the owner signing in from another address at once', async () => {
    const owner = await account();
    const attacker = server.newClient();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 50; attempt++) {
      const answer = await attacker.post(
        '/api/auth/login',
        { username: owner.username, password: `guess-${attempt}` },
        from('203.0.113.66'),
      );
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]));
    // Even the right password is refused from the attacker's address…
    expect429(
      await attacker.post(
        '/api/auth/login',
        { username: owner.username, password: owner.password },
        from('203.0.113.66'),
      ),
      /^Too many failed sign-in attempts\./,
    );
    // …but the owner, elsewhere, gets in straight away.
    const signIn = await server
      .newClient()
      .post('/api/auth/login', { username: owner.username, password: owner.password }, from('198.51.100.7'));
    expect(signIn.status, signIn.text).toBe(200);
  });

  it('caps the failures of one address over all usernames', async () => {
    const address = '203.0.113.77';
    const client = server.newClient();
    for (let attempt = 0; attempt < 25; attempt++) {
      const answer = await client.post(
        '/api/auth/login',
        { username: unique('nobody'), password: 'x' },
        from(address),
      );
      expect(answer.status).toBe(401);
    }
    expect429(
      await client.post('/api/auth/login', { username: unique('fresh'), password: 'x' }, from(address)),
      /^Too many failed sign-in attempts\./,
    );
    // Other addresses are not affected.
    expect(
      (
        await client.post(
          '/api/auth/login',
          { username: unique('fresh'), password: 'x' },
          from('203.0.113.78'),
        )
      ).status,
    ).toBe(401);
  });

  it('e-mails the owner once when their account sees many failures, from however many addresses', async () => {
    const owner = await account();
    const attacker = server.newClient();
    for (let host = 1; host <= 6; host++) {
      for (let attempt = 0; attempt < 5; attempt++) {
        const answer = await attacker.post(
          '/api/auth/login',
          { username: owner.username, password: 'guessed-pw-123' },
          from(`192.0.2.${host}`),
        );
        expect(answer.status).toBe(401);
      }
    }
    const mail = await server.deps.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.recipient, owner.email));
    expect(mail).toHaveLength(1);
    expect(mail[0]?.subject).toBe('Many failed sign-ins to your Crossfade account');
    expect(mail[0]?.body).toContain('Your account is not locked');
    expect(mail[0]?.body).not.toContain('guessed-pw-123');
    // The owner still signs in.
    expect(
      (
        await server
          .newClient()
          .post('/api/auth/login', { username: owner.username, password: owner.password }, from('192.0.2.99'))
      ).status,
    ).toBe(200);
  });
});

describe('rate limits', () => {
  it('sign-up: per address', async () => {
    const address = '198.51.100.20';
    for (let n = 0; n < 3; n++) await account(address);
    const client = server.newClient();
    const username = unique('late');
    const refused = await client.post(
      '/api/auth/register',
      { username, email: `${username}@example.com`, password: 'correct horse' },
      from(address),
    );
    // (Minutes, or seconds when the window is nearly over on a slow run.)
    expect429(refused, /^Too many new accounts from your network\. Try again in \d+ (minutes|seconds)\.$/);
    await account('198.51.100.21');
  });

  it('link-page e-mail signups: per link and address', async () => {
    const owner = await account();
    const created = async () => {
      const answer = await owner.client.post('/api/links', { name: unique('link') });
      expect(answer.status, answer.text).toBe(201);
      return (answer.body as { slug: string }).slug;
    };
    const [first, second] = [await created(), await created()];
    const visitor = server.newClient();
    const signUp = (slug: string, address: string) =>
      visitor.post(
        `/api/public/links/${slug}/signup`,
        { email: `${unique('fan')}@example.com` },
        from(address),
      );
    expect((await signUp(first, '198.51.100.30')).status).toBe(201);
    expect((await signUp(first, '198.51.100.30')).status).toBe(201);
    expect429(await signUp(first, '198.51.100.30'), /^Too many signups from your network for this link\./);
    expect((await signUp(second, '198.51.100.30')).status).toBe(201);
    expect((await signUp(first, '198.51.100.31')).status).toBe(201);
  });

  it('merge invitations: per account per day', async () => {
    const inviter = await account();
    await connectService(inviter.client, 'spotify');
    const lists = (await inviter.client.get('/api/playlists/spotify')).body as PlaylistSummary[];
    const playlistId = lists.find((p) => p.kind === 'playlist')?.id;
    const invite = () =>
      inviter.client.post('/api/merge/invitations', {
        playlistId,
        service: 'spotify',
        friendEmail: `${unique('friend')}@example.com`,
      });
    expect((await invite()).status).toBe(201);
    expect((await invite()).status).toBe(201);
    expect429(
      await invite(),
      /^You have sent today's 2 invitations\. Try again in \d+ (hours|minutes|seconds?)\.$/,
    );
  });

  it('analytics events: per address when signed out, per account when signed in; never by the CSRF cookie', async () => {
    const event = { event: 'feature_used', properties: {}, timestamp: new Date().toISOString() };
    const batch = (size: number) => ({ events: Array.from({ length: size }, () => event) });
    const address = '198.51.100.40';
    expect((await server.newClient().post('/api/events', batch(100), from(address))).status).toBe(202);
    // A fresh browser (new CSRF cookie) at the same address shares the count.
    expect429(
      await server.newClient().post('/api/events', batch(1), from(address)),
      /^Too many analytics events\./,
    );
    expect((await server.newClient().post('/api/events', batch(1), from('198.51.100.41'))).status).toBe(202);
    // Signed in, the person has their own count.
    const person = await account();
    expect((await person.client.post('/api/events', batch(100), from(address))).status).toBe(202);
    expect429(await person.client.post('/api/events', batch(1), from(address)), /Too many analytics events/);
  });

  it('onboarding assistant: per address or account', async () => {
    const ask = (client: TestClient, address: string) =>
      client.post(
        '/api/claude/onboarding-chat',
        { messages: [{ type: 'user', content: 'hello', timestamp: new Date().toISOString() }] },
        from(address),
      );
    for (let n = 0; n < 3; n++) expect((await ask(server.newClient(), '198.51.100.50')).status).toBe(200);
    expect429(await ask(server.newClient(), '198.51.100.50'), /^Too many messages at once\./);
    expect((await ask(server.newClient(), '198.51.100.51')).status).toBe(200);
  });

  describe('geo-lock analysis', () => {
    let tracks: Track[];
    let person: Awaited<ReturnType<typeof account>>;
    const analyze = (client: TestClient, body: unknown) =>
      client.post('/api/claude/geo-locked-alternatives', body);

    beforeAll(async () => {
      person = await account();
      await connectService(person.client, 'apple');
      const lists = (await person.client.get('/api/playlists/apple')).body as PlaylistSummary[];
      const list = lists.find((item) => item.name === 'Around the World');
      const answer = await person.client.post('/api/fetch-playlist-tracks', {
        playlistUrl: `https://music.apple.com/library/playlist/${list?.id}`,
      });
      tracks = (answer.body as FetchPlaylistTracksResponse).tracks;
    }, 60_000);

    it('needs a sign-in', async () => {
      const answer = await analyze(server.newClient(), { tracks, sourceRegion: 'US', targetRegion: 'JP' });
      expect(answer.status).toBe(401);
    });

    it('caps the tracks of one call with a message saying to send parts', async () => {
      const many = Array.from({ length: GEO_TRACKS_PER_CALL + 1 }, (_, n) => ({
        ...tracks[0],
        id: String(n + 1),
      }));
      const answer = await analyze(person.client, { tracks: many, sourceRegion: 'US', targetRegion: 'JP' });
      expect(answer.status).toBe(400);
      expect(message(answer.body)).toBe(
        `At most ${GEO_TRACKS_PER_CALL} tracks can be checked in one request: send a longer playlist in parts.`,
      );
    });

    it('counts checked tracks against a daily quota sized by the plan', async () => {
      const part = tracks.slice(0, 12);
      const body = { tracks: part, sourceRegion: 'US', targetRegion: 'JP' };
      expect((await analyze(person.client, body)).status).toBe(200);
      expect((await analyze(person.client, body)).status).toBe(200);
      // 24 of 30 used: 12 more would go over.
      expect429(
        await analyze(person.client, body),
        /^The Free plan checks 30 tracks a day for geo-locks; Pro checks ten times as many \(see \/pricing\)\./,
      );
      await server.deps.db.update(users).set({ plan: 'pro' }).where(eq(users.id, person.id));
      expect((await analyze(person.client, body)).status).toBe(200);
    });
  });
});
