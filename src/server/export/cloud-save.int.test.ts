import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CloudDrive, CloudDriveFile, CloudDriveStatus, CloudSave } from '../../shared/api/export';
import type { PlaylistSummary } from '../../shared/api/playlists';
import { cloudDriveConnections, users } from '../db/schema';
import { consentTo } from '../testing/cloud-drive-emulators';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { CloudDriveStore } from './cloud-drives/cloud-drive-store';

/**
 * Save to Cloud on the person's own drives, through the API as the page calls it: connecting (state,
 * PKCE, Vault+), saving an export, listing it, the drive's page showing it, disconnecting.
 */

let server: TestServer;
let vault: TestClient;
let free: TestClient;
let roadTrip: PlaylistSummary;

async function signUp(name: string, plan: 'free' | 'vault') {
  const client = server.newClient();
  const res = await client.post('/api/auth/register', {
    username: name,
    email: `${name}@example.com`,
    password: 'secret-password',
  });
  expect(res.status).toBe(201);
  await connectService(client, 'spotify');
  await server.deps.db.update(users).set({ plan }).where(eq(users.username, name));
  return client;
}

/** Connect as the browser does: ask for the consent page, agree, follow the redirect back to the callback. */
async function connectDrive(client: TestClient, drive: CloudDrive, decision: 'allow' | 'deny' = 'allow') {
  const start = await client.get(
    `/api/cloud-drives/${drive}/connect?returnTo=${encodeURIComponent('/visualizations?tab=export-options')}`,
  );
  expect(start.status).toBe(200);
  const consent = await consentTo((start.body as { authUrl: string }).authUrl, { decision });
  const back = await client.get(`${consent.redirect.pathname}${consent.redirect.search}`);
  expect(back.status).toBe(302);
  return { location: new URL(back.headers.get('location') ?? '', server.url), cookie: consent.cookie };
}

const saveRequest = (target: string, format = 'csv') => ({
  service: 'spotify',
  playlistId: roadTrip.id,
  format,
  includeMetadata: false,
  includeLinks: false,
  includeArtwork: false,
  target,
});

beforeAll(async () => {
  server = await startTestServer();
  vault = await signUp('cloud_vault', 'vault');
  free = await signUp('cloud_free', 'free');
  const playlists = (await vault.get('/api/playlists/spotify')).body as PlaylistSummary[];
  const found = playlists.find((playlist) => playlist.name === 'Road Trip');
  if (!found) throw new Error('no Road Trip in the demo library');
  roadTrip = found;
});

afterAll(async () => {
  await server.close();
});

describe.each(['google-drive', 'dropbox'] as const)('Save to %s', (drive) => {
  let cookie = '';

  it('connects with the person’s consent and says as whom', async () => {
    const before = (await vault.get('/api/cloud-drives')).body as CloudDriveStatus[];
    expect(before.find((status) => status.drive === drive)).toMatchObject({
      connected: false,
      sandbox: true,
    });
    const connected = await connectDrive(vault, drive);
    cookie = connected.cookie;
    expect(connected.location.pathname).toBe('/visualizations');
    expect(connected.location.searchParams.get('tab')).toBe('export-options');
    expect(connected.location.searchParams.get('cloudConnected')).toBe(drive);
    const after = (await vault.get('/api/cloud-drives')).body as CloudDriveStatus[];
    expect(after.find((status) => status.drive === drive)).toMatchObject({
      connected: true,
      accountName: expect.stringMatching(/@sandbox\.example\)$/),
    });
  });

  it('keeps the tokens encrypted at rest', async () => {
    const [row] = await server.deps.db
      .select()
      .from(cloudDriveConnections)
      .where(eq(cloudDriveConnections.drive, drive));
    expect(row?.encryptedTokens).toMatch(/^v1\./);
    expect(row?.encryptedTokens).not.toContain('refreshToken');
  });

  it('saves the chosen export there, lists it, and the drive’s page shows it to this person', async () => {
    const saved = await vault.post('/api/export/cloud', saveRequest(drive, 'json'));
    expect(saved.status).toBe(201);
    const body = saved.body as CloudSave;
    expect(body).toMatchObject({
      target: drive,
      format: 'json',
      fileName: 'Road-Trip.json',
      playlistName: 'Road Trip',
    });
    expect(body.sizeBytes).toBeGreaterThan(100);
    const files = (await vault.get(`/api/cloud-drives/${drive}/files`)).body as CloudDriveFile[];
    expect(files.map((file) => file.name)).toContain('Road-Trip.json');

    const statuses = (await vault.get('/api/cloud-drives')).body as CloudDriveStatus[];
    const page = await fetch(body.webUrl ?? statuses.find((status) => status.drive === drive)?.webUrl ?? '', {
      headers: { cookie },
    });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Road-Trip.json');
  });

  it('refuses Save to Cloud and connecting on the Free plan (402)', async () => {
    const save = await free.post('/api/export/cloud', saveRequest(drive));
    expect(save.status).toBe(402);
    expect((save.body as { message: string }).message).toContain('Vault+');
    expect((await free.get(`/api/cloud-drives/${drive}/connect`)).status).toBe(402);
    expect((await free.get(`/api/cloud-drives/${drive}/files`)).status).toBe(402);
  });

  it('disconnects, after which saving asks to connect first', async () => {
    expect((await vault.post(`/api/cloud-drives/${drive}/disconnect`)).status).toBe(204);
    const save = await vault.post('/api/export/cloud', saveRequest(drive));
    expect(save.status).toBe(409);
    expect((save.body as { message: string }).message).toMatch(/^Connect (Google Drive|Dropbox) first/);
  });
});

describe('the OAuth callback', () => {
  it('refuses a forged state, and a state that was already used', async () => {
    const forged = await vault.get('/api/cloud-drives/google-drive/callback?state=forged&code=whatever');
    expect(forged.status).toBe(302);
    const location = new URL(forged.headers.get('location') ?? '', server.url);
    expect(location.searchParams.get('cloudError')).toContain('unknown, expired or was already used');
    expect(location.searchParams.get('cloudConnected')).toBeNull();

    const start = await vault.get('/api/cloud-drives/dropbox/connect');
    const consent = await consentTo((start.body as { authUrl: string }).authUrl);
    const callback = `${consent.redirect.pathname}${consent.redirect.search}`;
    // Another person's browser cannot finish this person's connection with it.
    const other = await signUp('cloud_other', 'vault');
    const stolen = await other.get(callback);
    expect(
      new URL(stolen.headers.get('location') ?? '', server.url).searchParams.get('cloudError'),
    ).toContain('unknown');
    expect((await other.get('/api/cloud-drives')).body).toEqual(
      expect.arrayContaining([expect.objectContaining({ drive: 'dropbox', connected: false })]),
    );
    // The stolen attempt did not burn it: the owner finishes once, and a replay is refused.
    const first = await vault.get(callback);
    expect(new URL(first.headers.get('location') ?? '', server.url).searchParams.get('cloudConnected')).toBe(
      'dropbox',
    );
    const replay = await vault.get(callback);
    expect(
      new URL(replay.headers.get('location') ?? '', server.url).searchParams.get('cloudError'),
    ).toContain('already used');
  });

  it('says so when the person cancels on the consent page, and connects nothing', async () => {
    await vault.post('/api/cloud-drives/google-drive/disconnect');
    const { location } = await connectDrive(vault, 'google-drive', 'deny');
    expect(location.searchParams.get('cloudError')).toBe(
      'The Google Drive connection was cancelled, so nothing was connected.',
    );
    const statuses = (await vault.get('/api/cloud-drives')).body as CloudDriveStatus[];
    expect(statuses.find((status) => status.drive === 'google-drive')?.connected).toBe(false);
  });

  it('drops a connection the drive no longer accepts and says to connect again', async () => {
    await connectDrive(vault, 'google-drive');
    const [user] = await server.deps.db.select().from(users).where(eq(users.username, 'cloud_vault'));
    await new CloudDriveStore(server.deps.db, server.deps.encryptor).updateTokens(
      user?.id ?? '',
      'google-drive',
      {
        accessToken: 'revoked',
        refreshToken: 'revoked',
        expiresAt: Date.now() + 3600_000,
        scope: 'https://www.googleapis.com/auth/drive.file',
      },
    );
    const save = await vault.post('/api/export/cloud', saveRequest('google-drive'));
    expect(save.status).toBe(409);
    expect((save.body as { message: string }).message).toContain('connect Google Drive again');
    const statuses = (await vault.get('/api/cloud-drives')).body as CloudDriveStatus[];
    expect(statuses.find((status) => status.drive === 'google-drive')?.connected).toBe(false);
  });
});
