import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { generateCatalog } from './catalog/generator';
import { createSandbox } from './index';

const catalog = generateCatalog({ seed: 'sandbox-index', trackCount: 2_000 });

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

describe('createSandbox', () => {
  it('lists both emulators on its index page', async () => {
    const { key } = await developerKey();
    const app = createSandbox({ catalog, appleDeveloperKeys: [key], ...ACCOUNTS });
    const response = await app.request('/sandbox');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('/sandbox/spotify/accounts');
    expect(html).toContain('/sandbox/spotify/api/v1');
    expect(html).toContain('/sandbox/apple/v1');
    expect(html).toContain('Everything I Love');
  });

  it('serves the Spotify API and Apple catalog from the same catalog under their prefixes', async () => {
    const { token, key } = await developerKey();
    const app = createSandbox({ catalog, appleDeveloperKeys: [key], ...ACCOUNTS });
    const spotify = await app.request('/sandbox/spotify/api/v1/me');
    expect(spotify.status).toBe(401);
    expect(await spotify.json()).toMatchObject({ error: { status: 401 } });

    const track = catalog.tracks.find((candidate) => candidate.apple?.storefronts.includes('us'));
    const path = `/sandbox/apple/v1/catalog/us/songs/${track?.apple?.id}`;
    expect((await app.request(path)).status).toBe(401);
    const song = await app.request(path, { headers: { authorization: `Bearer ${token}` } });
    expect(song.status).toBe(200);
    const body = (await song.json()) as { data: { id: string; attributes: { isrc?: string } }[] };
    expect(body.data[0]?.id).toBe(track?.apple?.id);
    expect(body.data[0]?.attributes.isrc).toBe(track?.isrc);

    // Trailing slashes are accepted, as by both services, also when mounted under a prefix.
    const slashed = await app.request(`${path}/`, { headers: { authorization: `Bearer ${token}` } });
    expect(slashed.status).toBe(200);
    expect(await (await app.request('/sandbox/spotify/api/v1/me/')).json()).toMatchObject({
      error: { status: 401 },
    });
  });

  it('keeps emulator state in <dataDir>/sandbox/apple', async () => {
    const { token, key } = await developerKey();
    const dataDir = mkdtempSync(join(tmpdir(), 'crossfade-sandbox-'));
    const app = createSandbox({ catalog, dataDir, appleDeveloperKeys: [key], ...ACCOUNTS });
    const form = new URLSearchParams({
      developer_token: token,
      redirect_uri: 'http://127.0.0.1:9/callback',
      state: 'xyz',
      decision: 'allow',
    });
    const response = await app.request('/sandbox/apple/authorize', { method: 'POST', body: form });
    expect(response.status).toBe(302);
    const userToken = new URL(response.headers.get('location') ?? '').searchParams.get('music_user_token');
    expect(userToken).toBeTruthy();
    const stateFile = join(dataDir, 'sandbox', 'apple', 'shared.json');
    expect(existsSync(stateFile)).toBe(true);
    expect(readFileSync(stateFile, 'utf8')).toContain(userToken ?? 'missing');
  });
});
