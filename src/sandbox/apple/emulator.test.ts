import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { importPKCS8, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  generateSandboxAppleKeys,
  type SandboxAppleKeys,
} from '../../server/providers/apple/developer-token';
import { errorResponseSchema } from '../../server/providers/apple/schemas';
import { sandboxAccountKey, signAccountClaim } from '../accounts';
import { generateCatalog } from '../catalog/generator';
import { createAppleEmulator } from './index';
import { buildTestCatalog, fillerIsrc } from './test-catalog';

let keys: SandboxAppleKeys;
const catalog = buildTestCatalog();

/** The origin the tests' developer tokens are issued for, where the consent page may send people back. */
const APP_ORIGIN = 'http://localhost:5173';
const SECRET = Buffer.alloc(32, 3);

async function sign(
  options: {
    alg?: 'ES256' | 'HS256';
    kid?: string;
    iss?: string;
    iat?: number;
    exp?: number;
    origins?: string[];
  } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const alg = options.alg ?? 'ES256';
  const key =
    alg === 'ES256'
      ? await importPKCS8(keys.privateKeyPem, 'ES256')
      : new TextEncoder().encode('x'.repeat(32));
  return new SignJWT({ origin: options.origins ?? [APP_ORIGIN] })
    .setProtectedHeader({ alg, kid: options.kid ?? keys.keyId })
    .setIssuer(options.iss ?? keys.teamId)
    .setIssuedAt(options.iat ?? now)
    .setExpirationTime(options.exp ?? now + 3600)
    .sign(key);
}

function emulator(extra: Partial<Parameters<typeof createAppleEmulator>[0]> = {}) {
  return createAppleEmulator({
    catalog,
    developerKeys: [{ teamId: keys.teamId, keyId: keys.keyId, publicKey: keys.publicKeyJwk }],
    accountSecret: SECRET,
    ...extra,
  });
}

beforeAll(async () => {
  keys = await generateSandboxAppleKeys();
});

describe('developer token', () => {
  const cases: [string, () => Promise<string>][] = [
    ['HS256 instead of ES256', () => sign({ alg: 'HS256' })],
    ['an unknown key id', () => sign({ kid: 'ZZZZZZZZZZ' })],
    ['another team as issuer', () => sign({ iss: 'OTHERTEAM1' })],
    [
      'an expired token',
      () => sign({ iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 60 }),
    ],
    [
      'a lifetime over 15,777,000 s',
      () => sign({ iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 15_777_001 }),
    ],
    ['a token that is not a JWT', async () => 'not-a-token'],
  ];
  for (const [label, makeToken] of cases) {
    it(`rejects ${label} with 401 and an empty body`, async () => {
      const { app } = emulator();
      const response = await app.request('/v1/storefronts/us', {
        headers: { authorization: `Bearer ${await makeToken()}` },
      });
      expect(response.status).toBe(401);
      expect(await response.text()).toBe('');
    });
  }

  it('rejects a call without any token', async () => {
    const response = await emulator().app.request('/v1/catalog/us/songs/1500000001');
    expect(response.status).toBe(401);
    expect(await response.text()).toBe('');
  });

  it('accepts a valid ES256 token with a lifetime of exactly 15,777,000 s', async () => {
    const now = Math.floor(Date.now() / 1000);
    const response = await emulator().app.request('/v1/storefronts/jp', {
      headers: { authorization: `Bearer ${await sign({ iat: now, exp: now + 15_777_000 })}` },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { id: string; attributes: { name: string } }[] };
    expect(body.data[0]?.id).toBe('jp');
    expect(body.data[0]?.attributes.name).toBe('Japan');
  });

  it('stops accepting a cached token once it expires', async () => {
    let clock = Date.now();
    const { app } = emulator({ now: () => clock });
    const token = await sign({ exp: Math.floor(clock / 1000) + 60 });
    const call = () => app.request('/v1/storefronts/us', { headers: { authorization: `Bearer ${token}` } });
    expect((await call()).status).toBe(200);
    clock += 61_000;
    expect((await call()).status).toBe(401);
  });
});

/** Signs in through the consent form and returns headers for library calls. */
async function signedIn(app: Hono | ReturnType<typeof emulator>['app']) {
  const developerToken = await sign();
  const form = new URLSearchParams({
    developer_token: developerToken,
    redirect_uri: 'http://localhost:5173/callback',
    state: 's1',
    decision: 'allow',
  });
  const answer = await app.request('/authorize', { method: 'POST', body: form });
  const location = new URL(answer.headers.get('location') ?? '');
  return {
    authorization: `Bearer ${developerToken}`,
    'music-user-token': location.searchParams.get('music_user_token') ?? '',
  };
}

describe('consent page and Music User Token', () => {
  it('shows an accessible consent page with Allow and Don’t Allow', async () => {
    const query = new URLSearchParams({
      developer_token: await sign(),
      redirect_uri: 'http://localhost:5173/callback',
      state: 'abc',
    });
    const response = await emulator().app.request(`/authorize?${query}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toMatch(/<h1>Allow .*localhost:5173.* to access Apple Music\?<\/h1>/);
    expect(html).toContain('>Allow</button>');
    expect(html).toContain('>Don&rsquo;t Allow</button>');
  });

  it('refuses to show the page for an invalid developer token', async () => {
    const query = new URLSearchParams({
      developer_token: 'bad',
      redirect_uri: 'http://localhost/cb',
      state: 'a',
    });
    const response = await emulator().app.request(`/authorize?${query}`);
    expect(response.status).toBe(401);
  });

  it('Allow redirects with a token that opens the library; Don’t Allow redirects with access_denied', async () => {
    const { app } = emulator();
    const headers = await signedIn(app);
    expect(headers['music-user-token']).toMatch(/^sandbox-mut\./);
    expect((await app.request('/v1/me/storefront', { headers })).status).toBe(200);

    const form = new URLSearchParams({
      developer_token: await sign(),
      redirect_uri: 'http://localhost:5173/callback',
      state: 's2',
      decision: 'deny',
    });
    const denied = await app.request('/authorize', { method: 'POST', body: form });
    expect(denied.status).toBe(302);
    const location = new URL(denied.headers.get('location') ?? '');
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('s2');
    expect(location.searchParams.has('music_user_token')).toBe(false);
  });

  it('answers library calls without or with a wrong Music-User-Token with 403 in Apple’s error shape', async () => {
    const { app } = emulator();
    const authorization = `Bearer ${await sign()}`;
    const attempts: Record<string, string>[] = [
      { authorization },
      { authorization, 'music-user-token': 'made-up' },
    ];
    for (const headers of attempts) {
      const response = await app.request('/v1/me/library/playlists', { headers });
      expect(response.status).toBe(403);
      const body = errorResponseSchema.parse(await response.json());
      expect(body.errors[0]?.status).toBe('403');
    }
  });

  it('keeps tokens and created playlists in the state file across restarts', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'apple-emulator-'));
    try {
      const stateDir = join(directory, 'apple');
      const first = emulator({ stateDir });
      const headers = await signedIn(first.app);
      const created = await first.app.request('/v1/me/library/playlists', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ attributes: { name: 'Survives' } }),
      });
      expect(created.status).toBe(201);

      const second = emulator({ stateDir });
      const list = await second.app.request('/v1/me/library/playlists?limit=100', { headers });
      expect(list.status).toBe(200);
      const body = (await list.json()) as { data: { attributes: { name: string } }[] };
      expect(body.data.map((playlist) => playlist.attributes.name)).toContain('Survives');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('library', () => {
  it('pages playlist tracks with a root-relative next that omits limit and the mount prefix', async () => {
    const root = new Hono();
    const { app } = emulator();
    root.route('/sandbox/apple', app);
    const headers = await signedIn(app);
    const list = (await (
      await root.request('/sandbox/apple/v1/me/library/playlists', { headers })
    ).json()) as {
      data: { id: string; attributes: { name: string } }[];
    };
    const bigMix = list.data.find((playlist) => playlist.attributes.name === 'Big Mix');
    const page = await root.request(`/sandbox/apple/v1/me/library/playlists/${bigMix?.id}/tracks?limit=100`, {
      headers,
    });
    const body = (await page.json()) as { data: { id: string }[]; next: string; meta: { total: number } };
    expect(body.data).toHaveLength(100);
    expect(body.meta.total).toBe(250);
    expect(body.next).toBe(`/v1/me/library/playlists/${bigMix?.id}/tracks?offset=100`);
    expect(body.data[0]?.id).toMatch(/^i\./);
  });

  it('answers 400 for a page size over 100', async () => {
    const { app } = emulator();
    const headers = await signedIn(app);
    const response = await app.request('/v1/me/library/playlists?limit=101', { headers });
    expect(response.status).toBe(400);
    expect(errorResponseSchema.parse(await response.json()).errors[0]?.source?.parameter).toBe('limit');
  });

  it('gives library songs without isrc, and the catalog song with include=catalog', async () => {
    const { app } = emulator();
    const headers = await signedIn(app);
    const list = (await (await app.request('/v1/me/library/playlists', { headers })).json()) as {
      data: { id: string; attributes: { name: string } }[];
    };
    const roadTrip = list.data.find((playlist) => playlist.attributes.name === 'Road Trip');
    const tracks = (await (
      await app.request(`/v1/me/library/playlists/${roadTrip?.id}/tracks?include=catalog`, { headers })
    ).json()) as {
      data: {
        attributes: Record<string, unknown> & { playParams: { catalogId?: string } };
        relationships: { catalog: { data: { id: string; attributes: { isrc: string } }[] } };
      }[];
    };
    const [heaven, nightDrive, unavailable, upload] = tracks.data;
    expect(heaven?.attributes.isrc).toBeUndefined();
    expect(heaven?.attributes.playParams.catalogId).toBe('1500000001');
    expect(heaven?.relationships.catalog.data[0]?.attributes.isrc).toBe('USAAA2400001');
    expect(nightDrive?.attributes.name).toBe('Night Drive (feat. Ana Ruiz)');
    expect(unavailable?.relationships.catalog.data).toEqual([]);
    expect(upload?.attributes.name).toBe('Garage Demo');
    expect(upload?.attributes.playParams.catalogId).toBeUndefined();
  });

  it('answers 404 for the tracks of an empty playlist', async () => {
    const { app } = emulator();
    const headers = await signedIn(app);
    const list = (await (await app.request('/v1/me/library/playlists', { headers })).json()) as {
      data: { id: string; attributes: { name: string } }[];
    };
    const empty = list.data.find((playlist) => playlist.attributes.name === 'Nothing Yet');
    const response = await app.request(`/v1/me/library/playlists/${empty?.id}/tracks`, { headers });
    expect(response.status).toBe(404);
    expect(errorResponseSchema.parse(await response.json()).errors[0]?.code).toBe('40400');
  });

  it('leaves meta.total out for a playlist the person only follows, as Apple may, and sends it for their own', async () => {
    const { app } = emulator();
    const headers = await signedIn(app);
    const list = (await (await app.request('/v1/me/library/playlists', { headers })).json()) as {
      data: { id: string; attributes: { name: string; canEdit: boolean } }[];
    };
    const followed = list.data.find((playlist) => !playlist.attributes.canEdit);
    const own = list.data.find((playlist) => playlist.attributes.name === 'Big Mix');
    const page = async (id: string | undefined, query: string) =>
      (await (await app.request(`/v1/me/library/playlists/${id}${query}`, { headers })).json()) as {
        data: { relationships?: { tracks: { meta?: unknown } } }[];
        meta?: { total: number };
      };
    const followedPage = await page(followed?.id, '/tracks?limit=1');
    expect(followedPage.data).toHaveLength(1);
    expect(followedPage.meta).toBeUndefined();
    expect((await page(followed?.id, '?include=tracks')).data[0]?.relationships?.tracks.meta).toBeUndefined();
    expect((await page(own?.id, '/tracks?limit=1')).meta).toEqual({ total: 250 });
  });

  it('creates with 201 and appends with 204, and refuses every edit with 405', async () => {
    const { app } = emulator();
    const headers = { ...(await signedIn(app)), 'content-type': 'application/json' };
    const created = await app.request('/v1/me/library/playlists', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        attributes: { name: 'New', description: 'From a test' },
        relationships: { tracks: { data: [{ id: '1500000001', type: 'songs' }] } },
      }),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { data: { id: string }[] }).data[0]?.id ?? '';
    expect(id).toMatch(/^p\./);

    const appended = await app.request(`/v1/me/library/playlists/${id}/tracks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ data: [{ id: '1500000003', type: 'songs' }] }),
    });
    expect(appended.status).toBe(204);
    expect(await appended.text()).toBe('');

    const tooMany = await app.request(`/v1/me/library/playlists/${id}/tracks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        data: Array.from({ length: 101 }, () => ({ id: '1500000003', type: 'songs' })),
      }),
    });
    expect(tooMany.status).toBe(400);

    for (const [method, path] of [
      ['PUT', `/v1/me/library/playlists/${id}/tracks`],
      ['DELETE', `/v1/me/library/playlists/${id}/tracks`],
      ['DELETE', `/v1/me/library/playlists/${id}`],
      ['PATCH', `/v1/me/library/playlists/${id}`],
    ] as const) {
      const refused = await app.request(path, { method, headers, body: '{}' });
      expect(refused.status, `${method} ${path}`).toBe(405);
    }
    const tracks = (await (
      await app.request(`/v1/me/library/playlists/${id}/tracks`, { headers })
    ).json()) as {
      data: { attributes: { playParams: { catalogId: string } } }[];
    };
    expect(tracks.data.map((song) => song.attributes.playParams.catalogId)).toEqual([
      '1500000001',
      '1500000003',
    ]);
  });

  it('answers 404 for a library playlist id in the catalog and for a catalog id in the library', async () => {
    const { app } = emulator();
    const headers = await signedIn(app);
    const list = (await (await app.request('/v1/me/library/playlists', { headers })).json()) as {
      data: { id: string; attributes: { playParams: { globalId?: string } } }[];
    };
    const shared = list.data.find((playlist) => playlist.attributes.playParams.globalId);
    const globalId = shared?.attributes.playParams.globalId ?? '';
    expect(globalId).toMatch(/^pl\.u-/);
    expect((await app.request(`/v1/catalog/us/playlists/${globalId}`, { headers })).status).toBe(200);
    expect((await app.request(`/v1/me/library/playlists/${globalId}`, { headers })).status).toBe(404);
    expect((await app.request(`/v1/catalog/us/playlists/${shared?.id}`, { headers })).status).toBe(404);
  });
});

describe('catalog', () => {
  async function get(path: string, extra: Partial<Parameters<typeof emulator>[0]> = {}) {
    const response = await emulator(extra).app.request(path, {
      headers: { authorization: `Bearer ${await sign()}` },
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
  }

  it('writes songs the Apple way', async () => {
    const { body } = await get('/v1/catalog/us/songs?ids=1500000003,1500000001');
    const [nightDrive, heaven] = (body as { data: { attributes: Record<string, unknown> }[] }).data;
    expect(nightDrive?.attributes).toMatchObject({
      name: 'Night Drive (feat. Ana Ruiz)',
      artistName: 'Maya Stone & Leo Park',
      albumName: 'Northern Lights',
      contentRating: 'explicit',
      isrc: 'USAAA2400002',
      genreNames: ['Pop', 'Electronic', 'Music'],
      releaseDate: '2024-05-10',
    });
    expect(String(nightDrive?.attributes.url)).toMatch(
      /^https:\/\/music\.apple\.com\/us\/album\/northern-lights\/\d+\?i=1500000003$/,
    );
    expect(heaven?.attributes).toMatchObject({ albumName: 'Heaven - Single' });
    expect(heaven?.attributes.contentRating).toBeUndefined();
    expect(JSON.stringify(heaven?.attributes.artwork)).toContain('{w}x{h}');
    expect(JSON.stringify(body)).not.toContain('mzstatic');
  });

  it('serves the cover art and the "Open in Apple Music" pages itself', async () => {
    const { body } = await get('/v1/catalog/us/songs/1500000003');
    const attributes = (body as { data: { attributes: { url: string; artwork: { url: string } } }[] }).data[0]
      ?.attributes;
    const app = emulator().app;
    const image = await app.request(attributes?.artwork.url.replace('{w}x{h}', '300x300') ?? '');
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/svg+xml');
    expect(await image.text()).toContain('width="300"');
    // The song's page under the emulator's /web, at Apple's path.
    const page = await app.request(
      new URL(attributes?.url ?? '').pathname.replace(/^/, '/web') + new URL(attributes?.url ?? '').search,
    );
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Night Drive (feat. Ana Ruiz)');
    const trio = await get('/v1/catalog/us/songs/1500000007');
    expect(JSON.stringify(trio.body)).toContain('"artistName":"Ana Ruiz, Leo Park & Maya Stone"');
  });

  it('maps ISRCs to every song carrying them, in that storefront only', async () => {
    const us = await get('/v1/catalog/us/songs?filter[isrc]=USAAA2400001,USAAA2400004,XX0000000000');
    const filters = (us.body as { meta: { filters: { isrc: Record<string, { id: string }[]> } } }).meta
      .filters.isrc;
    expect(filters.USAAA2400001?.map((ref) => ref.id)).toEqual(['1500000001', '1500000002']);
    expect(filters.USAAA2400004?.map((ref) => ref.id)).toEqual(['1500000005']);
    expect(filters.XX0000000000).toBeUndefined();
    const jp = await get('/v1/catalog/jp/songs?filter[isrc]=USAAA2400001,USAAA2400004');
    const jpFilters = (jp.body as { meta: { filters: { isrc: Record<string, { id: string }[]> } } }).meta
      .filters.isrc;
    expect(jpFilters.USAAA2400001?.map((ref) => ref.id)).toEqual(['1500000001']);
    expect(jpFilters.USAAA2400004).toBeUndefined();
  });

  it('refuses more than 25 ISRCs and more than 300 ids with 400', async () => {
    const isrcs = Array.from({ length: 26 }, (_, index) => fillerIsrc(index)).join(',');
    expect((await get(`/v1/catalog/us/songs?filter[isrc]=${isrcs}`)).status).toBe(400);
    const ids = Array.from({ length: 301 }, (_, index) => String(1_600_000_000 + index)).join(',');
    expect((await get(`/v1/catalog/us/songs?ids=${ids}`)).status).toBe(400);
    expect((await get('/v1/catalog/us/search?term=heaven&types=songs&limit=26')).status).toBe(400);
  });

  it('treats a song outside the storefront as absent', async () => {
    expect((await get('/v1/catalog/jp/songs/1500000005')).status).toBe(404);
    const borderTown = await get('/v1/catalog/us/songs/1500000005');
    expect(borderTown.status).toBe(200);
    expect(JSON.stringify(borderTown.body)).toContain('"contentRating":"clean"');
    expect((await get('/v1/catalog/xx/songs/1500000005')).status).toBe(404);
  });

  it('ranks the exact title first, reads + as a space, and answers results:{} when nothing matches', async () => {
    const { body } = await get('/v1/catalog/us/search?term=heaven+maya+stone&types=songs&limit=10');
    const songs = (body as { results: { songs: { data: { attributes: { name: string } }[] } } }).results.songs
      .data;
    // "Three Voices" only matches through its album ("Heaven - Single"), so it ranks last.
    expect(songs.map((song) => song.attributes.name)).toEqual([
      'Heaven',
      'Heaven',
      'Heaven - Acoustic',
      'Three Voices',
    ]);
    const none = await get('/v1/catalog/us/search?term=zzzz+qqqq&types=songs');
    expect(none.body).toMatchObject({ results: {} });
    expect(Object.keys((none.body as { results: object }).results)).toEqual([]);
  });

  it('pages search results with a root-relative next', async () => {
    const { body } = await get('/v1/catalog/us/search?term=filler+song&types=songs&limit=25');
    const songs = (body as { results: { songs: { next: string; data: unknown[] } } }).results.songs;
    expect(songs.data).toHaveLength(25);
    expect(songs.next).toBe('/v1/catalog/us/search?offset=25&term=filler+song&types=songs');
  });

  it('answers 429 without Retry-After once the developer token is over budget', async () => {
    const { app } = emulator({ rateLimit: { budget: 2, windowMs: 60_000 } });
    const headers = { authorization: `Bearer ${await sign()}` };
    expect((await app.request('/v1/storefronts/us', { headers })).status).toBe(200);
    expect((await app.request('/v1/storefronts/us', { headers })).status).toBe(200);
    const limited = await app.request('/v1/storefronts/us', { headers });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeNull();
    expect(errorResponseSchema.parse(await limited.json()).errors[0]?.status).toBe('429');
  });
});

describe('a sandbox account per person', () => {
  const generated = generateCatalog({ trackCount: 3000 });
  const claimFor = (person: string, state = 's1') =>
    signAccountClaim(SECRET, {
      account: sandboxAccountKey(SECRET, person),
      service: 'apple',
      redirectUri: 'http://localhost:5173/callback',
      state,
    });
  async function signedInAs(
    app: ReturnType<typeof emulator>['app'],
    person: string,
    account: 'own' | 'shared',
  ) {
    const developerToken = await sign();
    const form = new URLSearchParams({
      developer_token: developerToken,
      redirect_uri: 'http://localhost:5173/callback',
      state: 's1',
      sandbox_account: await claimFor(person),
      account,
      decision: 'allow',
    });
    const answer = await app.request('/authorize', { method: 'POST', body: form });
    const location = new URL(answer.headers.get('location') ?? '');
    return {
      authorization: `Bearer ${developerToken}`,
      'music-user-token': location.searchParams.get('music_user_token') ?? '',
    };
  }

  it('gives each account its own library and storefront; the second demo listener is the shared one', async () => {
    const { app } = emulator({ catalog: generated });
    const consent = await app.request(
      `/authorize?${new URLSearchParams({ developer_token: await sign(), redirect_uri: 'http://localhost:5173/callback', state: 's', sandbox_account: await claimFor('ada', 's') })}`,
    );
    const html = await consent.text();
    expect(html).toContain('value="own" form="consent" checked');
    expect(html).toContain('Second demo listener');

    const ada = await signedInAs(app, 'ada', 'own');
    const bea = await signedInAs(app, 'bea', 'own');
    const shared = await signedInAs(app, 'ada', 'shared');
    const ids = async (headers: Record<string, string>) =>
      (
        (await (await app.request('/v1/me/library/playlists?limit=100', { headers })).json()) as {
          data: { id: string }[];
        }
      ).data.map((playlist) => playlist.id);
    const [adaIds, beaIds, sharedIds] = [await ids(ada), await ids(bea), await ids(shared)];
    expect(adaIds.length).toBeGreaterThan(5);
    expect(beaIds.some((id) => adaIds.includes(id))).toBe(false);
    expect(sharedIds.some((id) => adaIds.includes(id))).toBe(false);

    const created = await app.request('/v1/me/library/playlists', {
      method: 'POST',
      headers: { ...ada, 'content-type': 'application/json' },
      body: JSON.stringify({ attributes: { name: 'Only mine' } }),
    });
    const createdId = ((await created.json()) as { data: { id: string }[] }).data[0]?.id ?? '';
    expect(await ids(ada)).toContain(createdId);
    expect(await ids(bea)).not.toContain(createdId);
    expect((await app.request(`/v1/me/library/playlists/${createdId}`, { headers: bea })).status).toBe(404);
    const storefront = async (headers: Record<string, string>) =>
      ((await (await app.request('/v1/me/storefront', { headers })).json()) as { data: { id: string }[] })
        .data[0]?.id;
    expect(['us', 'de', 'jp']).toContain(await storefront(ada));
    expect(await storefront(shared)).toBe('us');
  });

  it('sends cosmetic fields as Apple does: an upload without albumName, artwork without sizes', async () => {
    const { app } = emulator({ catalog: generated });
    const headers = await signedInAs(app, 'eve', 'own');
    type Song = { attributes: { name: string; albumName?: string; artwork: { width: number | null } } };
    const playlists = (
      (await (await app.request('/v1/me/library/playlists?limit=100', { headers })).json()) as {
        data: { id: string }[];
      }
    ).data;
    const songs: Song[] = [];
    for (const playlist of playlists) {
      let next: string | undefined = `/v1/me/library/playlists/${playlist.id}/tracks?limit=100`;
      while (next) {
        const answer = await app.request(next, { headers });
        if (answer.status === 404) break;
        const page = (await answer.json()) as { data: Song[]; next?: string };
        songs.push(...page.data);
        next = page.next ? `${page.next}&limit=100` : undefined;
      }
    }
    const memo = songs.find((song) => song.attributes.name === 'voice memo - melody idea');
    expect(memo).toBeDefined();
    expect(memo?.attributes).not.toHaveProperty('albumName');
    expect(memo?.attributes.artwork.width).toBeNull();
  });

  it('lists some songs without playParams outside the US (not streamable there), never in the US', async () => {
    const { app } = emulator({ catalog: generated });
    const authorization = `Bearer ${await sign()}`;
    const count = async (storefront: string) => {
      let missing = 0;
      for (const term of ['love', 'night', 'heart', 'rain', 'light']) {
        const answer = (await (
          await app.request(`/v1/catalog/${storefront}/search?types=songs&limit=25&term=${term}`, {
            headers: { authorization },
          })
        ).json()) as { results: { songs?: { data: { attributes: { playParams?: unknown } }[] } } };
        missing += (answer.results.songs?.data ?? []).filter((song) => !song.attributes.playParams).length;
      }
      return missing;
    };
    expect(await count('us')).toBe(0);
    expect(await count('de')).toBeGreaterThan(0);
  });
});

describe('the library page (the Music app): edits and the write lag', () => {
  const generated = generateCatalog({ trackCount: 3000 });

  it('shows its own edits at once; API reads show an added song after the lag, a removal or a move at once', async () => {
    let clock = Date.now();
    const { app } = emulator({ catalog: generated, writeLagMs: 5000, now: () => clock });
    const developerToken = await sign();
    const claim = await signAccountClaim(SECRET, {
      account: sandboxAccountKey(SECRET, 'lagging'),
      service: 'apple',
      redirectUri: 'http://localhost:5173/callback',
      state: 's1',
    });
    const consent = await app.request('/authorize', {
      method: 'POST',
      body: new URLSearchParams({
        developer_token: developerToken,
        redirect_uri: 'http://localhost:5173/callback',
        state: 's1',
        sandbox_account: claim,
        account: 'own',
        decision: 'allow',
      }),
    });
    const cookie = (consent.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toMatch(/^sandbox_apple_session=/);
    const headers = {
      authorization: `Bearer ${developerToken}`,
      'music-user-token':
        new URL(consent.headers.get('location') ?? '').searchParams.get('music_user_token') ?? '',
    };
    const playlists = (await (
      await app.request('/v1/me/library/playlists?limit=100', { headers })
    ).json()) as {
      data: { id: string; attributes: { name: string } }[];
    };
    const id = playlists.data.find((playlist) => playlist.attributes.name === 'Road Trip')?.id ?? '';
    const read = async () =>
      (
        (await (
          await app.request(`/v1/me/library/playlists/${id}/tracks?limit=100`, { headers })
        ).json()) as {
          data: { id: string }[];
        }
      ).data.map((song) => song.id);
    const page = async () =>
      (await app.request(`/web/library/playlist/${id}`, { headers: { cookie } })).text();
    const formToken = /name="token" value="([^"]+)"/.exec(await page())?.[1] ?? '';
    const edit = (path: string, fields: Record<string, string>) =>
      app.request(`/web/library/playlist/${id}/${path}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: formToken, ...fields }),
      });

    const before = await read();
    const song = generated.tracks.find((track) => track.apple?.storefronts.includes('us'))?.apple?.id ?? '';
    expect((await edit('add', { track: song })).status).toBe(303);
    // The app shows the song it added; the API does not yet.
    expect((await page()).split('Move up').length - 1).toBe(before.length + 1);
    expect(await read()).toEqual(before);
    // A move and a removal show in API reads at once; the lagging song stays out of them until its time.
    expect((await edit('move-down', { position: '0', item: before[0] ?? '' })).status).toBe(303);
    expect((await edit('remove', { position: '2', item: before[2] ?? '' })).status).toBe(303);
    const edited = [before[1], before[0], ...before.slice(3)];
    expect(await read()).toEqual(edited);
    clock += 5001;
    expect((await read()).length).toBe(edited.length + 1);
    expect((await read()).slice(0, -1)).toEqual(edited);
  });
});

describe('MusicKit’s popup: the answer as a message to the opener', () => {
  it('posts the token to the app’s origin only, the one the developer token names', async () => {
    const { app } = emulator();
    const developerToken = await sign();
    const refused = await app.request(
      `/authorize?${new URLSearchParams({ developer_token: developerToken, origin: 'https://evil.example', state: 's' })}`,
    );
    expect(refused.status).toBe(400);
    const page = await app.request(
      `/authorize?${new URLSearchParams({ developer_token: developerToken, origin: APP_ORIGIN, state: 's' })}`,
    );
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`<input type="hidden" name="origin" value="${APP_ORIGIN}">`);
    const answer = await app.request('/authorize', {
      method: 'POST',
      body: new URLSearchParams({
        developer_token: developerToken,
        origin: APP_ORIGIN,
        state: 's',
        decision: 'allow',
      }),
    });
    expect(answer.status).toBe(200);
    const html = await answer.text();
    const posted = /postMessage\((\{.*?\}), "([^"]+)"\)/.exec(html);
    expect(posted?.[2]).toBe(APP_ORIGIN);
    const result = JSON.parse(posted?.[1] ?? '{}') as { music_user_token?: string; state?: string };
    expect(result.state).toBe('s');
    const headers = {
      authorization: `Bearer ${developerToken}`,
      'music-user-token': result.music_user_token ?? '',
    };
    expect((await app.request('/v1/me/storefront', { headers })).status).toBe(200);
  });
});
