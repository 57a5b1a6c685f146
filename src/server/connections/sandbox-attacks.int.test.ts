import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaylistSummary } from '../../shared/api/playlists';
import { connectService, openConsentPage } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';

/**
 * Issue 20, items 1–5, 7 and 8: each attack on the sandbox as it was done against main, through the real
 * app, its consent pages and its emulators over HTTP. Every one must fail for the attacker (decision 0022).
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 60_000);
afterAll(() => server?.close());

interface Person {
  client: TestClient;
  id: string;
}

let people = 0;
async function register(name: string): Promise<Person> {
  people += 1;
  const client = server.newClient();
  const registered = await client.post('/api/auth/register', {
    username: `${name}-${people}`,
    email: `${name}-${people}@example.com`,
    password: 'secret-words',
  });
  expect(registered.status).toBe(201);
  return { client, id: (registered.body as { user: { id: string } }).user.id };
}

/** A victim with their own account on both services. */
async function victim(name: string): Promise<Person> {
  const person = await register(name);
  await connectService(person.client, 'spotify', {
    account: 'own',
    scenario: 'attack-victim',
    country: 'DE',
  });
  await connectService(person.client, 'apple', { account: 'own', scenario: 'attack-victim' });
  return person;
}

/** Posts a consent form as a browser would (no redirect followed). */
function post(authUrl: URL, form: URLSearchParams) {
  return fetch(authUrl.origin + authUrl.pathname, { method: 'POST', body: form, redirect: 'manual' });
}

/** What the victim's account is: the name and country Spotify answers, and what they hold. */
async function accountOf(person: Person) {
  const spotify = await server.deps.providers.forUser(person.id, 'spotify');
  const me = await spotify.getCurrentUser();
  const listing = (await person.client.get('/api/playlists/spotify')).body as PlaylistSummary[];
  return { me, listing: listing.map((playlist) => [playlist.id, playlist.name, playlist.trackCount]) };
}

/** Every byte the emulators keep on disk. */
function sandboxBytes(): number {
  const walk = (folder: string): number =>
    readdirSync(folder, { withFileTypes: true }).reduce((sum, entry) => {
      const path = join(folder, entry.name);
      return sum + (entry.isDirectory() ? walk(path) : statSync(path).size);
    }, 0);
  return walk(join(server.deps.config.DATA_DIR, 'sandbox'));
}

/** Every file the emulators keep, with when it was last written. */
function sandboxFiles(): Map<string, number> {
  const files = new Map<string, number>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(path, statSync(path).mtimeMs);
    }
  };
  walk(join(server.deps.config.DATA_DIR, 'sandbox'));
  return files;
}

/** A claim with its payload changed and its signature kept. */
function tampered(claim: string, change: (payload: Record<string, unknown>) => void): string {
  const [header = '', payload = '', signature = ''] = claim.split('.');
  const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  change(decoded);
  return [header, Buffer.from(JSON.stringify(decoded)).toString('base64url'), signature].join('.');
}

describe('1–3. nobody signs in to, or overwrites, another person’s sandbox account', () => {
  it('refuses a Spotify consent naming an account by the public user id, a guessed key or an edited claim', async () => {
    const ada = await victim('ada');
    const before = await accountOf(ada);
    // What anyone can learn from a share URL: the owner's Spotify user id. Nothing of the key is in it.
    expect(before.me.id).toMatch(/^listener-[0-9a-f]{16}$/);
    const publicPart = before.me.id.slice('listener-'.length);

    const eve = await register('eve');
    const page = await openConsentPage(eve.client, 'spotify', { account: 'own', scenario: 'attack-eve' });
    const ownClaim = page.form.get('sandbox_account') ?? '';
    const forgeries = [
      `${publicPart}0123456789abcdef`,
      publicPart.padEnd(64, 'f'),
      createHash('sha256').update(`crossfade-sandbox-account:${ada.id}`).digest('hex').slice(0, 24),
      tampered(ownClaim, (payload) => {
        payload.acc = publicPart.padEnd(64, '0');
      }),
      `${ownClaim.slice(0, -2)}AA`,
    ];
    for (const forged of forgeries) {
      const form = new URLSearchParams(page.form);
      form.set('sandbox_account', forged);
      form.set('account', 'own');
      form.set('country', 'JP');
      form.set('decision', 'agree');
      const answer = await post(page.authUrl, form);
      expect(answer.status).toBe(403);
      expect(answer.headers.get('location')).toBeNull();
      expect(await answer.text()).toMatch(/sign-in link/);
    }
    // The person's own consent page is as strict: it does not even show for an edited claim.
    const shown = new URL(page.authUrl);
    shown.searchParams.set('sandbox_account', forgeries[3] ?? '');
    expect((await fetch(shown)).status).toBe(403);

    expect(await server.deps.providers.connections.get(eve.id, 'spotify')).toBeNull();
    expect(await accountOf(ada)).toEqual(before);
  });

  it('refuses an Apple sign-in naming an account by the user id, or with another person’s claim', async () => {
    const ada = await victim('ada-apple');
    const eve = await register('eve-apple');
    const eveApple = await openConsentPage(eve.client, 'apple', { account: 'own', scenario: 'attack-eve' });
    // The old key: a digest of the (public) user id, with no secret.
    const guessed = createHash('sha256').update(`crossfade-sandbox-account:${ada.id}`).digest('hex');
    for (const key of [guessed.slice(0, 24), guessed]) {
      const form = new URLSearchParams(eveApple.form);
      form.set('sandbox_account', key);
      form.set('account', 'own');
      form.set('decision', 'allow');
      const answer = await post(eveApple.authUrl, form);
      expect(answer.status).toBe(403);
      expect(answer.headers.get('location')).toBeNull();
    }
    // Ada's own (unused) claim, replayed in Eve's sign-in: it was issued for Ada's request only.
    const adaApple = await openConsentPage(ada.client, 'apple', {
      account: 'own',
      scenario: 'attack-victim',
    });
    const replayed = new URLSearchParams(eveApple.form);
    replayed.set('sandbox_account', adaApple.form.get('sandbox_account') ?? '');
    replayed.set('account', 'own');
    replayed.set('decision', 'allow');
    expect((await post(eveApple.authUrl, replayed)).status).toBe(403);
    expect(await server.deps.providers.connections.get(eve.id, 'apple')).toBeNull();

    // Used once by its owner, the claim signs in nobody a second time.
    const agreed = new URLSearchParams(adaApple.form);
    agreed.set('account', 'own');
    agreed.set('decision', 'allow');
    expect((await post(adaApple.authUrl, agreed)).status).toBe(302);
    const again = await post(adaApple.authUrl, agreed);
    expect(again.status).toBe(403);
    expect(await again.text()).toMatch(/already used/);
  });

  it('keeps an account as its owner left it: another consent changes neither its name, country nor library', async () => {
    const ada = await victim('ada-kept');
    const before = await accountOf(ada);
    expect(before.me.region).toBeUndefined();
    // Another person's consent, new account, another country…
    const eve = await register('eve-kept');
    await connectService(eve.client, 'spotify', { account: 'own', scenario: 'attack-victim', country: 'JP' });
    // …and the owner's own later consent asking for another country: the account stays as it is.
    await connectService(ada.client, 'spotify', { account: 'own', scenario: 'attack-victim', country: 'US' });
    const after = await accountOf(ada);
    expect(after).toEqual(before);
    expect((await server.deps.providers.connections.get(ada.id, 'spotify'))?.region).toBe('de');
    // Same scenario, same music: but Eve's account is hers, with ids of its own.
    const eveAccount = await accountOf(eve);
    expect(eveAccount.me.id).not.toBe(before.me.id);
    expect(eveAccount.listing.map(([, name]) => name)).toEqual(before.listing.map(([, name]) => name));
    const adaIds = new Set(before.listing.map(([id]) => id));
    const ownIds = eveAccount.listing.filter(([id]) => !String(id).startsWith('library:'));
    expect(ownIds.some(([id]) => adaIds.has(id))).toBe(false);
  });
});

describe('4. the consent pages accept only the accounts they offer', () => {
  it('refuses a hidden account (Mixtape Maker, owner of a playlist everyone follows) on both services', async () => {
    const eve = await register('eve-hidden');
    const spotify = await openConsentPage(eve.client, 'spotify', { account: 'own', scenario: 'attack-eve' });
    expect(spotify.html).not.toContain('mixtape-maker');
    for (const account of ['mixtape-maker', 'listener-0123456789abcdef', '']) {
      const form = new URLSearchParams(spotify.form);
      form.set('account', account);
      form.set('decision', 'agree');
      const answer = await post(spotify.authUrl, form);
      expect(answer.status).toBe(400);
      expect(answer.headers.get('location')).toBeNull();
    }
    const apple = await openConsentPage(eve.client, 'apple', { account: 'own', scenario: 'attack-eve' });
    const form = new URLSearchParams(apple.form);
    form.set('account', 'mixtape-maker');
    form.set('decision', 'allow');
    const answer = await post(apple.authUrl, form);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
  });
});

describe('5. consent posts are cheap and limited', () => {
  it('40 unauthenticated consent posts write nothing, and /api/health answers all along', async () => {
    const before = sandboxBytes();
    const eve = await register('eve-flood');
    const page = await openConsentPage(eve.client, 'spotify', { account: 'own', scenario: 'attack-eve' });
    const health: number[] = [];
    let flooding = true;
    const probe = (async () => {
      while (flooding) {
        health.push((await fetch(`${server.url}/api/health`)).status);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const answers = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const form = new URLSearchParams(page.form);
        form.set('sandbox_account', randomBytes(32).toString('hex'));
        form.set('account', 'own');
        form.set('decision', 'agree');
        return (await post(page.authUrl, form)).status;
      }),
    );
    flooding = false;
    await probe;
    expect(new Set(answers)).toEqual(new Set([403]));
    expect(health.length).toBeGreaterThan(0);
    expect(new Set(health)).toEqual(new Set([200]));
    expect(sandboxBytes() - before).toBeLessThan(2 * 1024 * 1024);
    // Not even one document: a refused consent writes nothing at all.
    expect(sandboxBytes()).toBe(before);
  });

  it('40 new accounts cost one small document each, not a rewrite of everyone’s state', async () => {
    const first = await register('newcomer');
    await connectService(first.client, 'spotify', { account: 'own', scenario: 'attack-newcomer' });
    const before = sandboxBytes();
    const written = sandboxFiles();
    for (let index = 0; index < 40; index++) {
      const person = await register('newcomer');
      await connectService(person.client, 'spotify', {
        account: 'own',
        scenario: `attack-newcomer-${index}`,
      });
    }
    const grown = sandboxBytes() - before;
    expect(grown).toBeLessThan(2 * 1024 * 1024);
    // An account's document: its key, seed, ids of its demo playlists, a code spent and two tokens.
    expect(grown / 40).toBeLessThan(8 * 1024);
    // Nothing written before (the shared document, the first newcomer's) was written again.
    const after = sandboxFiles();
    for (const [path, modified] of written) expect(after.get(path), path).toBe(modified);
    expect(after.size).toBe(written.size + 40);
  }, 120_000);

  it('answers 429 with Retry-After once an address has posted too many consents', async () => {
    const limited = await startTestServer({ env: { SANDBOX_CONSENTS_PER_HOUR: '3' } });
    try {
      const client = limited.newClient();
      await client.post('/api/auth/register', {
        username: 'eve-limited',
        email: 'eve-limited@example.com',
        password: 'secret-words',
      });
      for (const service of ['spotify', 'apple'] as const) {
        const page = await openConsentPage(client, service, { account: 'own', scenario: 'attack-eve' });
        const form = new URLSearchParams(page.form);
        form.set('decision', 'cancel');
        const statuses = [];
        for (let index = 0; index < 4; index++) statuses.push((await post(page.authUrl, form)).status);
        expect(statuses).toEqual([302, 302, 302, 429]);
        const refused = await post(page.authUrl, form);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await refused.text()).toMatch(/Too many sign-ins from your address/);
      }
    } finally {
      await limited.close();
    }
  });
});

describe('7. no open redirect through the sign-in pages', () => {
  it('Spotify refuses a redirect URI not registered for the client, with a page and no redirect', async () => {
    const attempt = new URL(`${server.url}/sandbox/spotify/accounts/authorize`);
    for (const [name, value] of Object.entries({
      client_id: 'crossfade-sandbox',
      response_type: 'token',
      redirect_uri: 'https://evil.example/landing',
    }))
      attempt.searchParams.set(name, value);
    const answer = await fetch(attempt, { redirect: 'manual' });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
    // A registered address differing in one character is as foreign.
    const eve = await register('eve-redirect');
    const page = await openConsentPage(eve.client, 'spotify');
    for (const redirect of ['https://evil.example/landing', `${page.form.get('redirect_uri')}/`]) {
      const form = new URLSearchParams(page.form);
      form.set('redirect_uri', redirect);
      form.set('decision', 'cancel');
      const posted = await post(page.authUrl, form);
      expect(posted.status).toBe(400);
      expect(posted.headers.get('location')).toBeNull();
    }
  });

  it('Apple’s sign-in sends people back only to the origin the developer token was issued for', async () => {
    const eve = await register('eve-apple-redirect');
    const page = await openConsentPage(eve.client, 'apple');
    const shown = new URL(page.authUrl);
    shown.searchParams.set('redirect_uri', 'https://evil.example/landing');
    const answer = await fetch(shown, { redirect: 'manual' });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toMatch(/not issued for https:\/\/evil\.example/);
    for (const decision of ['allow', 'deny']) {
      const form = new URLSearchParams(page.form);
      form.set('redirect_uri', 'https://evil.example/landing');
      form.set('decision', decision);
      const posted = await post(page.authUrl, form);
      expect(posted.status).toBe(400);
      expect(posted.headers.get('location')).toBeNull();
    }
  });
});

describe('8. private playlists are seen by their owner only', () => {
  it('shows a private Spotify playlist and an Apple library playlist to the owner’s sandbox session only', async () => {
    const ada = await victim('ada-private');
    const eve = await register('eve-private');
    await connectService(eve.client, 'spotify', { account: 'own', scenario: 'attack-eve' });
    await connectService(eve.client, 'apple', { account: 'own', scenario: 'attack-eve' });
    for (const service of ['spotify', 'apple'] as const) {
      const listing = (await ada.client.get(`/api/playlists/${service}`)).body as PlaylistSummary[];
      const roadTrip = listing.find((playlist) => playlist.name === 'Road Trip') as PlaylistSummary;
      const provider = await server.deps.providers.forUser(ada.id, service);
      const contents = await provider.getPlaylist(roadTrip.id);
      const title = contents.entries.flatMap((entry) =>
        entry.kind === 'track' ? [entry.track.name] : [],
      )[0];
      expect(title).toBeTruthy();
      const path =
        service === 'spotify'
          ? `/sandbox/spotify/api/open/playlist/${roadTrip.id}`
          : `/sandbox/apple/web/library/playlist/${roadTrip.id}`;
      const escaped = (title ?? '').replace(/&/g, '&#38;').replace(/'/g, '&#39;');
      for (const stranger of [server.newClient(), eve.client]) {
        const refused = await stranger.get(path);
        expect(refused.status).toBe(401);
        expect(refused.text).toContain('Log in to see this playlist');
        expect(refused.text).not.toContain(escaped);
      }
      const owner = await ada.client.get(path);
      expect(owner.status).toBe(200);
      expect(owner.text).toContain(escaped);
    }
    // Apple's catalog pages answer shared playlists only, never a library id.
    const apple = (await ada.client.get('/api/playlists/apple')).body as PlaylistSummary[];
    const libraryId = apple.find((playlist) => playlist.id.startsWith('p.'))?.id ?? '';
    expect((await server.newClient().get(`/sandbox/apple/web/us/playlist/${libraryId}`)).status).toBe(404);
  });
});
