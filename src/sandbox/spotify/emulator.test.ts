import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxAccountKey, signAccountClaim } from '../accounts';
import { generateCatalog } from '../catalog/generator';
import {
  buildFixtureCatalog,
  FIXTURE_KEYS,
  fixtureSpotifyId,
  LONG_PLAYLIST_KEY,
  ROAD_TRIP_KEY,
} from './fixture-catalog';
import { sha256Base64Url } from './ids';
import {
  createSpotifyEmulator,
  DEMO_USER,
  demoPlaylistId,
  FOLLOWED_PLAYLIST_ID,
  type SpotifyEmulatorOptions,
  UNREGISTERED_USER,
} from './index';

const catalog = buildFixtureCatalog();
const VERIFIER = 'a-verifier-that-is-long-enough-for-pkce-0123456789';
const REDIRECT = 'http://127.0.0.1:5173/callback';
const ORIGIN = 'http://sandbox.test';
const SECRET = Buffer.alloc(32, 5);

type Emulator = ReturnType<typeof createSpotifyEmulator>;

function emulator(options: Partial<SpotifyEmulatorOptions> = {}): Emulator {
  return createSpotifyEmulator({ catalog, redirectUris: [REDIRECT], accountSecret: SECRET, ...options });
}

const ALL_SCOPES =
  'playlist-read-private playlist-read-collaborative playlist-modify-public playlist-modify-private ugc-image-upload';

async function signIn(emu: Emulator, account = DEMO_USER.id, scope = ALL_SCOPES): Promise<string> {
  const form = new URLSearchParams({
    client_id: 'crossfade-sandbox',
    redirect_uri: REDIRECT,
    code_challenge: sha256Base64Url(VERIFIER),
    state: 'xyz',
    scope,
    account,
    decision: 'agree',
  });
  const consent = await emu.accounts.request(`${ORIGIN}/authorize`, { method: 'POST', body: form });
  const code = new URL(consent.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const token = await emu.accounts.request(`${ORIGIN}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: 'crossfade-sandbox',
      code_verifier: VERIFIER,
    }),
  });
  const body = (await token.json()) as { access_token: string };
  return body.access_token;
}

function get(app: Hono, token: string | undefined, path: string, base = ORIGIN) {
  return app.request(`${base}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
}

function post(app: Hono, token: string, path: string, body: unknown) {
  return app.request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const uri = (key: string) => `spotify:track:${fixtureSpotifyId(key)}`;

describe('Spotify emulator: accounts', () => {
  it('shows an accessible consent page with both demo accounts', async () => {
    const emu = emulator();
    const query = new URLSearchParams({
      client_id: 'crossfade-sandbox',
      response_type: 'code',
      redirect_uri: REDIRECT,
      code_challenge_method: 'S256',
      code_challenge: sha256Base64Url(VERIFIER),
      state: 'st"ate',
      scope: 'playlist-read-private playlist-modify-private',
    });
    const page = await emu.accounts.request(`${ORIGIN}/authorize?${query}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toMatch(/<button[^>]*>Agree<\/button>/);
    expect(html).toMatch(/<button[^>]*>Cancel<\/button>/);
    expect(html).toContain(`<label><input type="radio" name="account" value="${UNREGISTERED_USER.id}">`);
    expect(html).toContain('value="st&#34;ate"'); // attribute values are escaped
  });

  it('refuses unknown clients and redirect URIs Spotify would refuse', async () => {
    const emu = emulator();
    const base = {
      response_type: 'code',
      code_challenge_method: 'S256',
      code_challenge: sha256Base64Url(VERIFIER),
    };
    const unknown = new URLSearchParams({ ...base, client_id: 'other', redirect_uri: REDIRECT });
    expect((await emu.accounts.request(`${ORIGIN}/authorize?${unknown}`)).status).toBe(400);
    const localhost = new URLSearchParams({
      ...base,
      client_id: 'crossfade-sandbox',
      redirect_uri: 'http://localhost:5173/cb',
    });
    expect((await emu.accounts.request(`${ORIGIN}/authorize?${localhost}`)).status).toBe(400);
  });

  it('Cancel sends the person back with access_denied and the state', async () => {
    const emu = emulator();
    const form = new URLSearchParams({
      client_id: 'crossfade-sandbox',
      redirect_uri: REDIRECT,
      state: 's1',
      decision: 'cancel',
    });
    const answer = await emu.accounts.request(`${ORIGIN}/authorize`, { method: 'POST', body: form });
    expect(answer.headers.get('location')).toBe(`${REDIRECT}?error=access_denied&state=s1`);
  });

  it('answers token errors in the OAuth shape', async () => {
    const emu = emulator();
    const answer = await emu.accounts.request(`${ORIGIN}/api/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: 'nope',
        client_id: 'crossfade-sandbox',
      }),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'Invalid refresh token',
    });
  });
});

describe('Spotify emulator: tokens and access', () => {
  it('tells a missing, a wrong and an expired token apart', async () => {
    let clock = 1_700_000_000_000;
    const emu = emulator({ now: () => clock });
    const token = await signIn(emu);
    const message = async (response: Response) =>
      ((await response.json()) as { error: { message: string } }).error.message;
    expect(await message(await get(emu.api, undefined, '/v1/me'))).toBe('No token provided');
    expect(await message(await get(emu.api, 'bogus', '/v1/me'))).toBe('Invalid access token');
    expect((await get(emu.api, token, '/v1/me')).status).toBe(200);
    clock += 3600 * 1000;
    const expired = await get(emu.api, token, '/v1/me');
    expect(expired.status).toBe(401);
    expect(await message(expired)).toBe('The access token expired');
  });

  it('answers every call of an account not on the allow-list with the plain-text 403', async () => {
    const emu = emulator();
    const token = await signIn(emu, UNREGISTERED_USER.id);
    for (const path of [
      '/v1/me',
      '/v1/me/playlists',
      `/v1/tracks/${fixtureSpotifyId(FIXTURE_KEYS.heaven)}`,
    ]) {
      const answer = await get(emu.api, token, path);
      expect(answer.status).toBe(403);
      expect(answer.headers.get('content-type')).toContain('text/plain');
      expect(await answer.text()).toBe('User not registered in the Developer Dashboard');
    }
  });
});

describe('Spotify emulator: development-mode caps', () => {
  it('caps search at 10, refuses legacy endpoints and other people’s playlist items', async () => {
    const emu = emulator();
    const token = await signIn(emu);
    expect((await get(emu.api, token, '/v1/search?q=mile&type=track&limit=10')).status).toBe(200);
    expect((await get(emu.api, token, '/v1/search?q=mile&type=track&limit=11')).status).toBe(400);
    expect((await get(emu.api, token, `/v1/playlists/${demoPlaylistId(ROAD_TRIP_KEY)}/tracks`)).status).toBe(
      403,
    );
    expect(
      (await get(emu.api, token, `/v1/tracks?ids=${fixtureSpotifyId(FIXTURE_KEYS.heaven)}`)).status,
    ).toBe(403);
    expect((await get(emu.api, token, `/v1/playlists/${FOLLOWED_PLAYLIST_ID}/items`)).status).toBe(403);
    const followed = (await (
      await get(emu.api, token, `/v1/playlists/${FOLLOWED_PLAYLIST_ID}`)
    ).json()) as object;
    expect(followed).toMatchObject({ name: "Friends' Mixtape", owner: { id: 'mixtape-maker' } });
    expect(followed).not.toHaveProperty('items');
    const track = (await (
      await get(emu.api, token, `/v1/tracks/${fixtureSpotifyId(FIXTURE_KEYS.heaven)}`)
    ).json()) as object;
    expect(track).not.toHaveProperty('available_markets');
  });

  it('lifts them in extended mode', async () => {
    const emu = emulator({ mode: 'extended' });
    const token = await signIn(emu);
    const search = await get(emu.api, token, '/v1/search?q=mile&type=track&limit=50');
    expect(((await search.json()) as { tracks: { items: unknown[] } }).tracks.items).toHaveLength(50);
    expect((await get(emu.api, token, `/v1/playlists/${FOLLOWED_PLAYLIST_ID}/items`)).status).toBe(200);
    const several = await get(
      emu.api,
      token,
      `/v1/tracks?ids=${fixtureSpotifyId(FIXTURE_KEYS.neonRain)},${'x'.repeat(22)}`,
    );
    const body = (await several.json()) as { tracks: ({ available_markets: string[] } | null)[] };
    expect(body.tracks[0]?.available_markets).toEqual(['US', 'GB']);
    expect(body.tracks[1]).toBeNull();
  });
});

describe('Spotify emulator: playlists', () => {
  it("uses the catalog's own followed playlist when it has one", async () => {
    const base = buildFixtureCatalog();
    const withFollowed = {
      ...base,
      demoLibraries: {
        ...base.demoLibraries,
        spotify: [
          ...base.demoLibraries.spotify,
          {
            key: 'dj-picks',
            name: 'DJ Picks',
            description: 'Followed',
            ownerId: 'dj-someone',
            ownerName: 'DJ Someone',
            followedOnly: true,
            entries: [
              { kind: 'track' as const, trackKey: FIXTURE_KEYS.heaven, addedAt: '2025-01-01T00:00:00Z' },
            ],
          },
        ],
      },
    };
    const emu = emulator({ catalog: withFollowed });
    const token = await signIn(emu);
    const list = (await (await get(emu.api, token, '/v1/me/playlists')).json()) as {
      items: { name: string; owner: { id: string; display_name: string } }[];
    };
    expect(list.items.map((p) => p.name)).toEqual(['Road Trip', 'Long Haul', 'DJ Picks']);
    expect(list.items[2]?.owner).toMatchObject({ id: 'dj-someone', display_name: 'DJ Someone' });
    expect((await get(emu.api, token, `/v1/playlists/${demoPlaylistId('dj-picks')}/items`)).status).toBe(403);
  });

  it('pages items at most 50 with absolute next links, standalone and under a prefix', async () => {
    const emu = emulator();
    const token = await signIn(emu);
    const path = `/v1/playlists/${demoPlaylistId(LONG_PLAYLIST_KEY)}/items`;
    expect((await get(emu.api, token, `${path}?limit=51`)).status).toBe(400);
    const standalone = (await (await get(emu.api, token, `${path}?limit=50`)).json()) as {
      next: string;
      total: number;
    };
    expect(standalone.total).toBe(120);
    expect(standalone.next).toBe(`${ORIGIN}${path}?limit=50&offset=50`);

    const app = new Hono().route('/sandbox/spotify/api', emu.api);
    const mounted = (await (
      await get(app, token, `/sandbox/spotify/api${path}?offset=100&limit=50`)
    ).json()) as {
      next: string | null;
      previous: string;
      items: { item: { href: string } }[];
    };
    expect(mounted.next).toBeNull();
    expect(mounted.previous).toBe(`${ORIGIN}/sandbox/spotify/api${path}?offset=50&limit=50`);
    expect(mounted.items).toHaveLength(20);
    expect(mounted.items[0]?.item.href).toMatch(new RegExp(`^${ORIGIN}/sandbox/spotify/api/v1/tracks/`));
  });

  it('shows episodes only to clients that ask for them', async () => {
    const emu = emulator();
    const token = await signIn(emu);
    const path = `/v1/playlists/${demoPlaylistId(ROAD_TRIP_KEY)}/items`;
    type Page = { items: { item: { type: string } | null; track: unknown }[] };
    const plain = (await (await get(emu.api, token, path)).json()) as Page;
    expect(plain.items[4]?.item).toBeNull();
    const withEpisodes = (await (
      await get(emu.api, token, `${path}?additional_types=track,episode`)
    ).json()) as Page;
    expect(withEpisodes.items[4]?.item?.type).toBe('episode');
    expect(withEpisodes.items[4]?.track).toEqual(withEpisodes.items[4]?.item);
  });

  it('adds tracks with a new snapshot per write, at a position, and refuses what Spotify refuses', async () => {
    const emu = emulator();
    const token = await signIn(emu);
    const created = await post(emu.api, token, '/v1/me/playlists', { name: 'New one' });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const first = await post(emu.api, token, `/v1/playlists/${id}/items`, {
      uris: [uri(FIXTURE_KEYS.heaven), uri(FIXTURE_KEYS.dejaVu)],
    });
    expect(first.status).toBe(201);
    const second = await post(emu.api, token, `/v1/playlists/${id}/items`, {
      uris: [uri(FIXTURE_KEYS.goldenHour)],
      position: 1,
    });
    const snapshots = [
      ((await first.json()) as { snapshot_id: string }).snapshot_id,
      ((await second.json()) as { snapshot_id: string }).snapshot_id,
    ];
    expect(snapshots[0]).not.toBe(snapshots[1]);
    const items = (await (await get(emu.api, token, `/v1/playlists/${id}/items`)).json()) as {
      items: { item: { name: string } }[];
    };
    expect(items.items.map((i) => i.item.name)).toEqual(['Heaven', 'Golden Hour', 'Déjà Vu']);

    const tooMany = Array.from({ length: 101 }, () => uri(FIXTURE_KEYS.heaven));
    expect((await post(emu.api, token, `/v1/playlists/${id}/items`, { uris: tooMany })).status).toBe(400);
    expect(
      (await post(emu.api, token, `/v1/playlists/${id}/items`, { uris: ['spotify:local:a:b:c:100'] })).status,
    ).toBe(400);
    expect(
      (await post(emu.api, token, `/v1/playlists/${id}/items`, { uris: [uri(FIXTURE_KEYS.appleOnly)] }))
        .status,
    ).toBe(400);
    expect(
      (
        await post(emu.api, token, `/v1/playlists/${FOLLOWED_PLAYLIST_ID}/items`, {
          uris: [uri(FIXTURE_KEYS.heaven)],
        })
      ).status,
    ).toBe(403);
    expect((await post(emu.api, token, '/v1/me/playlists', { description: 'no name' })).status).toBe(400);
  });

  it('renames a playlist and takes a JPEG cover, as the owner with the right scopes only', async () => {
    const emu = emulator();
    const token = await signIn(emu);
    const created = await post(emu.api, token, '/v1/me/playlists', { name: 'Old name', public: false });
    const { id } = (await created.json()) as { id: string };
    const put = (path: string, body: string, type = 'application/json', as = token) =>
      emu.api.request(`${ORIGIN}${path}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${as}`, 'content-type': type },
        body,
      });
    expect((await put(`/v1/playlists/${id}`, JSON.stringify({ name: 'New name' }))).status).toBe(200);
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]).toString('base64');
    expect((await put(`/v1/playlists/${id}/images`, jpeg, 'image/jpeg')).status).toBe(202);
    expect((await put(`/v1/playlists/${id}/images`, 'bm90IGEganBlZw==', 'image/jpeg')).status).toBe(400);
    const playlist = (await (await get(emu.api, token, `/v1/playlists/${id}`)).json()) as {
      name: string;
      images: { url: string }[];
    };
    expect(playlist.name).toBe('New name');
    const cover = await emu.api.request(playlist.images[0]?.url ?? '');
    expect(cover.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await cover.arrayBuffer()).toString('base64')).toBe(jpeg);

    // Someone else's playlist, and a token without the modify scope, are refused with 403.
    expect((await put(`/v1/playlists/${FOLLOWED_PLAYLIST_ID}`, '{"name":"Mine now"}')).status).toBe(403);
    const readOnly = await signIn(emu, DEMO_USER.id, 'playlist-read-private');
    const refused = await put(`/v1/playlists/${id}`, '{"name":"x"}', 'application/json', readOnly);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: { status: 403, message: 'Insufficient client scope' } });
  });
});

describe('Spotify emulator: strict like Spotify', () => {
  it('enforces scopes with the real 403', async () => {
    const emu = emulator();
    const none = await signIn(emu, DEMO_USER.id, '');
    expect((await get(emu.api, none, '/v1/me')).status).toBe(200);
    const list = await get(emu.api, none, '/v1/me/playlists');
    expect(list.status).toBe(403);
    expect(await list.json()).toEqual({ error: { status: 403, message: 'Insufficient client scope' } });
    const publicOnly = await signIn(emu, DEMO_USER.id, 'playlist-modify-public');
    expect((await post(emu.api, publicOnly, '/v1/me/playlists', { name: 'p' })).status).toBe(201);
    expect((await post(emu.api, publicOnly, '/v1/me/playlists', { name: 'p', public: false })).status).toBe(
      403,
    );
  });

  it('accepts trailing slashes and answers the retired paths with 403', async () => {
    const emu = emulator();
    const token = await signIn(emu);
    expect((await get(emu.api, token, '/v1/me/')).status).toBe(200);
    const id = demoPlaylistId(ROAD_TRIP_KEY);
    expect((await post(emu.api, token, `/v1/users/${DEMO_USER.id}/playlists`, { name: 'x' })).status).toBe(
      403,
    );
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const answer = await emu.api.request(`${ORIGIN}/v1/playlists/${id}/tracks`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ uris: [uri(FIXTURE_KEYS.heaven)] }),
      });
      expect(answer.status, method).toBe(403);
    }
  });

  it('answers every call with the premium 403 when the app owner has no Premium (a switch)', async () => {
    const emu = emulator({ ownerHasPremium: false });
    const token = await signIn(emu);
    const answer = await get(emu.api, token, '/v1/me');
    expect(answer.status).toBe(403);
    expect(await answer.json()).toEqual({
      error: { status: 403, message: 'Active premium subscription required for the owner of the app' },
    });
  });
});

describe('Spotify emulator: rate limit', () => {
  it('counts calls in a rolling window and says when the oldest leaves it', async () => {
    let clock = 0;
    const emu = emulator({ rateLimit: { budget: 3, windowMs: 30_000 }, now: () => clock });
    const token = await signIn(emu);
    for (let i = 0; i < 3; i++) {
      expect((await get(emu.api, token, '/v1/me')).status).toBe(200);
      clock += 5_000;
    }
    const limited = await get(emu.api, token, '/v1/me');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('15');
    expect(await limited.json()).toEqual({
      error: { status: 429, message: 'Too many requests', reason: 'QUOTA_EXCEEDED' },
    });
    clock = 30_000;
    expect((await get(emu.api, token, '/v1/me')).status).toBe(200);
    expect((await get(emu.api, token, '/v1/me')).status).toBe(429);
  });
});

describe('Spotify emulator: reordering and replacing items (PUT /playlists/{id}/items)', () => {
  it('moves a range before another item, replaces all items, and refuses ranges out of bounds', async () => {
    const emu = emulator();
    const token = await signIn(emu);
    const { id } = (await (await post(emu.api, token, '/v1/me/playlists', { name: 'Order' })).json()) as {
      id: string;
    };
    const ids = [FIXTURE_KEYS.heaven, FIXTURE_KEYS.goldenHour, 'long-1', 'long-2', 'long-3'].map((key) =>
      fixtureSpotifyId(key),
    );
    await post(emu.api, token, `/v1/playlists/${id}/items`, {
      uris: ids.map((track) => `spotify:track:${track}`),
    });
    const put = (body: unknown) =>
      emu.api.request(`${ORIGIN}/v1/playlists/${id}/items`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const order = async () =>
      (
        (await (await get(emu.api, token, `/v1/playlists/${id}/items?limit=50`)).json()) as {
          items: { item: { id: string } }[];
        }
      ).items.map((entry) => entry.item.id);
    // The last two to the front, then the first to the end (Spotify's examples).
    expect((await put({ range_start: 3, range_length: 2, insert_before: 0 })).status).toBe(200);
    expect(await order()).toEqual([ids[3], ids[4], ids[0], ids[1], ids[2]]);
    expect((await put({ range_start: 0, insert_before: 5 })).status).toBe(200);
    expect(await order()).toEqual([ids[4], ids[0], ids[1], ids[2], ids[3]]);
    expect((await put({ range_start: 4, insert_before: 9 })).status).toBe(400);
    expect((await put({ range_start: 0, range_length: 3, insert_before: 1 })).status).toBe(400);
    expect((await put({ uris: [`spotify:track:${ids[2]}`] })).status).toBe(200);
    expect(await order()).toEqual([ids[2]]);
  });
});

describe('Spotify emulator: durable state', () => {
  const folder = mkdtempSync(join(tmpdir(), 'spotify-emulator-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('keeps created playlists, added tracks and tokens across a restart', async () => {
    const stateDir = join(folder, 'spotify');
    const before = emulator({ stateDir });
    const token = await signIn(before);
    const { id } = (await (
      await post(before.api, token, '/v1/me/playlists', { name: 'Survives' })
    ).json()) as { id: string };
    await post(before.api, token, `/v1/playlists/${id}/items`, { uris: [uri(FIXTURE_KEYS.heaven)] });

    const after = emulator({ stateDir });
    const playlists = (await (await get(after.api, token, '/v1/me/playlists')).json()) as {
      items: { name: string; items: { total: number } }[];
    };
    expect(playlists.items[0]).toMatchObject({ name: 'Survives', items: { total: 1 } });
  });
});

describe('Spotify emulator: a sandbox account per person, in its own country', () => {
  const generated = generateCatalog({ trackCount: 3000 });
  const own = async (emu: Emulator, person: string, country?: string) => {
    const claim = await signAccountClaim(SECRET, {
      account: sandboxAccountKey(SECRET, person),
      service: 'spotify',
      clientId: 'crossfade-sandbox',
      redirectUri: REDIRECT,
      state: 'xyz',
      codeChallenge: sha256Base64Url(VERIFIER),
    });
    const form = new URLSearchParams({
      client_id: 'crossfade-sandbox',
      redirect_uri: REDIRECT,
      code_challenge: sha256Base64Url(VERIFIER),
      state: 'xyz',
      scope: ALL_SCOPES,
      sandbox_account: claim,
      account: 'own',
      decision: 'agree',
      ...(country ? { country } : {}),
    });
    const consent = await emu.accounts.request(`${ORIGIN}/authorize`, { method: 'POST', body: form });
    const code = new URL(consent.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const token = await emu.accounts.request(`${ORIGIN}/api/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: 'crossfade-sandbox',
        code_verifier: VERIFIER,
      }),
    });
    return ((await token.json()) as { access_token: string }).access_token;
  };

  it('offers the own account and the second demo listener on the consent page', async () => {
    const emu = emulator({ catalog: generated });
    const claim = await signAccountClaim(SECRET, {
      account: sandboxAccountKey(SECRET, 'ada'),
      service: 'spotify',
      clientId: 'crossfade-sandbox',
      redirectUri: REDIRECT,
      state: 's',
      codeChallenge: sha256Base64Url(VERIFIER),
    });
    const page = await emu.accounts.request(
      `${ORIGIN}/authorize?client_id=crossfade-sandbox&response_type=code&redirect_uri=${encodeURIComponent(REDIRECT)}&code_challenge_method=S256&code_challenge=${sha256Base64Url(VERIFIER)}&state=s&scope=playlist-read-private&sandbox_account=${claim}`,
    );
    const html = await page.text();
    expect(html).toContain('value="own" checked');
    expect(html).toContain('Second demo listener');
    expect(html).toContain('<select name="country">');
  });

  it('keeps each account’s library to itself and answers in the account’s country whatever market says', async () => {
    const emu = emulator({ catalog: generated });
    const ada = await own(emu, 'ada', 'DE');
    const bea = await own(emu, 'bea', 'JP');
    const me = (await (await get(emu.api, ada, '/v1/me')).json()) as Record<string, unknown>;
    // A random public id: nothing of the account's key.
    expect(me.id).toMatch(/^listener-[0-9a-f]{16}$/);
    expect(sandboxAccountKey(SECRET, 'ada')).not.toContain(String(me.id).slice('listener-'.length));
    expect(me).not.toHaveProperty('country');
    const ids = async (token: string) =>
      (
        (await (await get(emu.api, token, '/v1/me/playlists?limit=50')).json()) as { items: { id: string }[] }
      ).items.map((item) => item.id);
    const adaIds = await ids(ada);
    expect(adaIds.length).toBeGreaterThan(5);
    expect((await ids(bea)).some((id) => adaIds.includes(id))).toBe(false);
    expect((await get(emu.api, bea, `/v1/playlists/${adaIds[0]}/items`)).status).toBe(403);

    const search = (await (
      await get(emu.api, ada, '/v1/search?q=love&type=track&market=US&limit=10')
    ).json()) as {
      tracks: {
        href: string;
        items: { id: string; is_playable: boolean; restrictions?: { reason: string } }[];
      };
    };
    expect(new URL(search.tracks.href).searchParams.get('market')).toBe('DE');
    const markets = new Map(
      generated.tracks.map((track) => [track.spotify?.id, track.spotify?.markets ?? []]),
    );
    for (const item of search.tracks.items) {
      expect(item.is_playable).toBe(markets.get(item.id)?.includes('DE'));
      if (!item.is_playable) expect(item.restrictions).toEqual({ reason: 'market' });
    }
  });

  it('seeds an account’s library from its key alone: the same playlists and tracks in a fresh emulator', async () => {
    const library = async (emu: Emulator) => {
      const token = await own(emu, 'dana', 'US');
      const lists = (
        (await (await get(emu.api, token, '/v1/me/playlists?limit=50')).json()) as {
          items: { id: string; name: string }[];
        }
      ).items;
      const first = (await (
        await get(emu.api, token, `/v1/playlists/${lists[0]?.id}/items?limit=50`)
      ).json()) as { items: { item: { id: string } | null }[] };
      // Playlist ids come from the account's key, its public user id is random: compare what it holds.
      return {
        lists: lists.map((list) => list.name),
        tracks: first.items.map((entry) => entry.item?.id ?? null),
      };
    };
    const once = await library(emulator({ catalog: generated }));
    expect(once.lists.length).toBeGreaterThan(5);
    expect(once.tracks.length).toBeGreaterThan(0);
    expect(await library(emulator({ catalog: generated }))).toEqual(once);
  });

  it('lists a few tracks it cannot play in the market, marked is_playable false with restrictions', async () => {
    const emu = emulator({ catalog: generated });
    const token = await own(emu, 'carl', 'JP');
    let unplayable = 0;
    for (const q of ['love', 'night', 'heart', 'rain', 'light', 'fire', 'dream', 'blue']) {
      for (let offset = 0; offset < 100; offset += 10) {
        const answer = (await (
          await get(
            emu.api,
            token,
            `/v1/search?q=${q}&type=track&market=from_token&limit=10&offset=${offset}`,
          )
        ).json()) as { tracks: { items: { is_playable: boolean }[] } };
        unplayable += answer.tracks.items.filter((item) => item.is_playable === false).length;
      }
    }
    expect(unplayable).toBeGreaterThan(0);
  });
});
