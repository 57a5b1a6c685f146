import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { generateCatalog } from './catalog/generator';
import { createAddDropper, faultInjection, NO_FAULTS, parseSandboxFaults } from './faults';
import { createSandboxParts } from './index';

const catalog = generateCatalog({ seed: 'sandbox-faults', trackCount: 1_000 });

const ACCOUNTS = { accountSecret: Buffer.alloc(32, 1), spotifyRedirectUris: [] };

async function developerKey() {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const teamId = 'TEAM123456';
  const keyId = 'KEY1234567';
  // Issued for the origin the sign-in page may send people back to.
  const token = await new SignJWT({ origin: ['http://127.0.0.1:9'] })
    .setProtectedHeader({ alg: 'ES256', kid: keyId })
    .setIssuer(teamId)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(privateKey);
  return { token, key: { teamId, keyId, publicKey: await exportJWK(publicKey) } };
}

describe('parseSandboxFaults', () => {
  it('reads the comma list and is off by default', () => {
    expect(parseSandboxFaults(undefined)).toEqual(NO_FAULTS);
    expect(parseSandboxFaults('')).toEqual(NO_FAULTS);
    expect(
      parseSandboxFaults('apple-write-lag-ms=3000, error-after-write=0.1,error-rate=0.05,timeout-rate=0'),
    ).toEqual({ ...NO_FAULTS, appleWriteLagMs: 3000, errorAfterWrite: 0.1, errorRate: 0.05 });
  });

  it('names the bad item', () => {
    expect(() => parseSandboxFaults('error-rate=2')).toThrow('"error-rate=2": a rate is between 0 and 1');
    expect(() => parseSandboxFaults('slow=1')).toThrow('unknown fault "slow"');
    expect(() => parseSandboxFaults('apple-write-lag-ms=')).toThrow('needs a non-negative number');
    expect(() => parseSandboxFaults('apple-write-lag-ms=1.5')).toThrow('whole number');
    expect(() => parseSandboxFaults('dropped-adds=0.5')).toThrow('whole number of tracks');
  });

  it('reads dropped-adds, which leaves out the first N tracks added and then none', () => {
    expect(parseSandboxFaults('dropped-adds=2')).toEqual({ ...NO_FAULTS, droppedAdds: 2 });
    const drop = createAddDropper(2);
    expect(drop(['a'])).toEqual([]);
    expect(drop(['b', 'c', 'd'])).toEqual(['c', 'd']);
    expect(drop(['e'])).toEqual(['e']);
    expect(createAddDropper(0)(['a'])).toEqual(['a']);
  });
});

describe('fault injection', () => {
  it('answers 5xx with each service’s own error body', async () => {
    const { token, key } = await developerKey();
    const { app } = createSandboxParts({
      catalog,
      appleDeveloperKeys: [key],
      ...ACCOUNTS,
      faults: { ...NO_FAULTS, errorRate: 1 },
    });
    const spotify = await app.request('/sandbox/spotify/api/v1/me');
    expect([500, 502, 503]).toContain(spotify.status);
    const spotifyBody = (await spotify.json()) as { error: { status: number; message: string } };
    expect(spotifyBody.error.status).toBe(spotify.status);
    expect(spotifyBody.error.message).toBeTruthy();

    const apple = await app.request('/sandbox/apple/v1/storefronts/us', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect([500, 502, 503]).toContain(apple.status);
    const appleBody = (await apple.json()) as { errors: { status: string; code: string }[] };
    expect(appleBody.errors[0]?.status).toBe(String(apple.status));
    expect(appleBody.errors[0]?.code).toMatch(/^50\d{3}$/);
  });

  it('applies a write and then answers 5xx (error-after-write), and never fails a read for it', async () => {
    const { Hono } = await import('hono');
    const app = new Hono();
    let writes = 0;
    app.use('*', faultInjection('apple', { ...NO_FAULTS, errorAfterWrite: 1 }));
    app.post('/v1/x', (c) => {
      writes++;
      return c.body(null, 204);
    });
    app.get('/v1/x', (c) => c.json({ writes }));
    const write = await app.request('/v1/x', { method: 'POST' });
    expect(write.status).toBeGreaterThanOrEqual(500);
    expect(writes).toBe(1);
    expect((await app.request('/v1/x')).status).toBe(200);
  });

  it('with a seed, the same calls meet the same faults; another seed, others', async () => {
    const { Hono } = await import('hono');
    const statuses = (text: string) => {
      const app = new Hono();
      app.use('*', faultInjection('spotify', parseSandboxFaults(text)));
      app.get('/v1/x', (c) => c.body(null, 204));
      return Promise.all(Array.from({ length: 60 }, async () => (await app.request('/v1/x')).status));
    };
    const first = await statuses('error-rate=0.3,seed=7');
    expect(first.filter((status) => status >= 500).length).toBeGreaterThan(0);
    expect(first.filter((status) => status === 204).length).toBeGreaterThan(0);
    expect(await statuses('error-rate=0.3,seed=7')).toEqual(first);
    expect(await statuses('error-rate=0.3,seed=8')).not.toEqual(first);
    expect(() => parseSandboxFaults('seed=1.5')).toThrow('the seed is a whole number');
  });

  it('holds a timed-out call for 30 s and then answers 503 without doing it', async () => {
    const { Hono } = await import('hono');
    const app = new Hono();
    const slept: number[] = [];
    let reached = false;
    app.use(
      '*',
      faultInjection(
        'spotify',
        { ...NO_FAULTS, timeoutRate: 1 },
        Math.random,
        async (ms) => void slept.push(ms),
      ),
    );
    app.get('/v1/me', (c) => {
      reached = true;
      return c.json({});
    });
    const response = await app.request('/v1/me');
    expect(slept).toEqual([30_000]);
    expect(response.status).toBe(503);
    expect(reached).toBe(false);
  });
});

describe('Apple write lag', () => {
  it('shows created playlists and appended songs only after the lag; writes still land in order', async () => {
    const { token, key } = await developerKey();
    const { appleRoot } = createSandboxParts({
      catalog,
      appleDeveloperKeys: [key],
      ...ACCOUNTS,
      faults: { ...NO_FAULTS, appleWriteLagMs: 400 },
    });
    const form = new URLSearchParams({
      developer_token: token,
      redirect_uri: 'http://127.0.0.1:9/callback',
      state: 's',
      decision: 'allow',
    });
    // Served at the root of its own app: paths start at /v1, like Apple's.
    const signIn = await appleRoot.request('/authorize', { method: 'POST', body: form });
    const mut = new URL(signIn.headers.get('location') ?? '').searchParams.get('music_user_token') ?? '';
    const headers = { authorization: `Bearer ${token}`, 'music-user-token': mut };
    const songs = catalog.tracks.filter((track) => track.apple?.storefronts.includes('us')).slice(0, 4);
    const ref = (index: number) => ({ id: songs[index]?.apple?.id ?? '', type: 'songs' });

    const created = await appleRoot.request('/v1/me/library/playlists', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        attributes: { name: 'Lagging' },
        relationships: { tracks: { data: [ref(0)] } },
      }),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { data: { id: string }[] }).data[0]?.id ?? '';
    expect((await appleRoot.request(`/v1/me/library/playlists/${id}`, { headers })).status).toBe(404);

    // Appending to a playlist reads do not show yet works: the write goes to what Apple has.
    const append = await appleRoot.request(`/v1/me/library/playlists/${id}/tracks`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ data: [ref(1), ref(2)] }),
    });
    expect(append.status).toBe(204);

    await new Promise((resolve) => setTimeout(resolve, 500));
    const tracks = await appleRoot.request(`/v1/me/library/playlists/${id}/tracks`, { headers });
    expect(tracks.status).toBe(200);
    const body = (await tracks.json()) as { data: { attributes: { playParams: { catalogId?: string } } }[] };
    expect(body.data.map((song) => song.attributes.playParams.catalogId)).toEqual([
      songs[0]?.apple?.id,
      songs[1]?.apple?.id,
      songs[2]?.apple?.id,
    ]);
  });
});
