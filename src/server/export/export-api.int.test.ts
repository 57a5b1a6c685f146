import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaylistExportJson, SavedExport } from '../../shared/api/export';
import type { PlaylistSummary } from '../../shared/api/playlists';
import { SAMPLE_PLAYLISTS } from '../../shared/api/visualizations';
import { users } from '../db/schema';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';

let server: TestServer;
let free: TestClient;
let vault: TestClient;
let roadTrip: PlaylistSummary;
let emptyPlaylist: PlaylistSummary;

async function signUp(name: string) {
  const client = server.newClient();
  const res = await client.post('/api/auth/register', {
    username: name,
    email: `${name}@example.com`,
    password: 'secret-password',
  });
  expect(res.status).toBe(201);
  await connectService(client, 'spotify');
  return client;
}

/** A download's bytes (the test client reads bodies as text, which would mangle a ZIP). */
async function download(client: TestClient, path: string, body: unknown) {
  if (!client.cookies.has('cf_csrf')) await client.get('/api/auth/status');
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-csrf-token': client.cookies.get('cf_csrf') ?? '',
    },
    body: JSON.stringify(body),
  });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes).replace(/^\uFEFF/, '');
const exportRequest = (playlistId: string, format: string, options: Record<string, boolean> = {}) => ({
  service: 'spotify',
  playlistId,
  format,
  includeMetadata: false,
  includeLinks: false,
  includeArtwork: false,
  ...options,
});

beforeAll(async () => {
  server = await startTestServer();
  free = await signUp('export_free');
  vault = await signUp('export_vault');
  await server.deps.db.update(users).set({ plan: 'vault' }).where(eq(users.username, 'export_vault'));
  const playlists = (await free.get('/api/playlists/spotify')).body as PlaylistSummary[];
  const find = (name: string) => {
    const found = playlists.find((playlist) => playlist.name === name);
    if (!found) throw new Error(`no ${name} in the demo library`);
    return found;
  };
  roadTrip = find('Road Trip');
  emptyPlaylist = find('New Playlist');
});

afterAll(async () => {
  await server.close();
});

describe('POST /api/export/playlist', () => {
  it('downloads JSON in the spec shape, with links and artwork only when asked for', async () => {
    const plain = await download(free, '/api/export/playlist', exportRequest(roadTrip.id, 'json'));
    expect(plain.response.status).toBe(200);
    expect(plain.response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="Road-Trip\.json"/,
    );
    const json = JSON.parse(text(plain.bytes)) as PlaylistExportJson;
    expect(Object.keys(json).sort()).toEqual(['exportedAt', 'includesMetadata', 'playlist', 'tracks']);
    expect(json.playlist).toMatchObject({ name: 'Road Trip', id: roadTrip.id });
    expect(json.playlist.trackCount).toBe(json.tracks.length);
    expect(typeof json.playlist.description).toBe('string');
    expect(json.includesMetadata).toBe(false);
    expect(Date.parse(json.exportedAt)).not.toBeNaN();
    for (const track of json.tracks) {
      expect(Object.keys(track).sort()).toEqual(['album', 'artists', 'id', 'name']);
      expect(track.artists.length).toBeGreaterThan(0);
    }

    const rich = await download(
      free,
      '/api/export/playlist',
      exportRequest(roadTrip.id, 'json', { includeMetadata: true, includeLinks: true }),
    );
    const richJson = JSON.parse(text(rich.bytes)) as PlaylistExportJson;
    expect(richJson.includesMetadata).toBe(true);
    expect(richJson.tracks.every((track) => track.uri?.startsWith('spotify:track:'))).toBe(true);
    expect(richJson.tracks.some((track) => track.artwork?.startsWith('http'))).toBe(true);
  });

  it('writes the CSV columns with m:ss durations, quoting and defusing formula-looking titles', async () => {
    const csvFile = [
      'Track Name,Artist,Album,Duration',
      '"=HYPERLINK(""http://evil.example"",""win"")",Mallory,"Tricks, Vol. 1",3:25',
      '"Say ""Hi""",Plain Band,Album,61000',
      '',
    ].join('\r\n');
    const imported = await free.post('/api/import/csv?fileName=tricky.csv', undefined, {
      raw: csvFile,
      headers: { 'content-type': 'text/csv' },
    });
    expect(imported.status, imported.text).toBe(201);
    const playlistId = (imported.body as { playlist: { id: string } }).playlist.id;

    const { response, bytes } = await download(
      free,
      '/api/export/playlist',
      exportRequest(playlistId, 'csv'),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    const csv = text(bytes);
    expect(csv.split('\r\n')[0]).toBe('Track Name,Artist,Album,Duration');
    const rows = parse(csv, { columns: true }) as Record<string, string>[];
    expect(rows[0]).toEqual({
      'Track Name': '\'=HYPERLINK("http://evil.example","win")',
      Artist: 'Mallory',
      Album: 'Tricks, Vol. 1',
      Duration: '3:25',
    });
    expect(rows[1]).toMatchObject({ 'Track Name': 'Say "Hi"', Duration: '1:01' });
  });

  it('adds the metadata columns to a CSV when asked', async () => {
    const { bytes } = await download(
      free,
      '/api/export/playlist',
      exportRequest(roadTrip.id, 'csv', { includeMetadata: true }),
    );
    const rows = parse(text(bytes), { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0] ?? {})).toEqual([
      'Track Name',
      'Artist',
      'Album',
      'Duration',
      'ISRC',
      'Release Date',
      'Genres',
      'Artwork URL',
    ]);
    expect(rows.every((row) => /^\d+:\d\d$/.test(row.Duration ?? ''))).toBe(true);
  });

  it('says "No data to export" for a playlist without tracks', async () => {
    const res = await free.post('/api/export/playlist', exportRequest(emptyPlaylist.id, 'csv'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'No data to export' });
  });

  it('exports the sample playlists to anyone, and real ones only when signed in', async () => {
    const anonymous = server.newClient();
    const sample = SAMPLE_PLAYLISTS[0];
    const { response, bytes } = await download(
      anonymous,
      '/api/export/playlist',
      exportRequest(sample?.id ?? '', 'csv'),
    );
    expect(response.status).toBe(200);
    expect(parse(text(bytes), { columns: true })).toHaveLength(15);
    expect((await anonymous.post('/api/export/playlist', exportRequest(roadTrip.id, 'json'))).status).toBe(
      401,
    );
  });

  it('keeps ZIP for Vault+: 402 on the free plan, an archive with JSON, CSV and artwork for Vault+', async () => {
    const refused = await free.post('/api/export/playlist', exportRequest(roadTrip.id, 'zip'));
    expect(refused.status).toBe(402);
    expect((refused.body as { message: string }).message).toMatch(/Vault\+ subscription is required/);

    const { response, bytes } = await download(
      vault,
      '/api/export/playlist',
      exportRequest(roadTrip.id, 'zip', { includeArtwork: true, includeLinks: true }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    const entries = unzipSync(bytes);
    const names = Object.keys(entries);
    expect(names).toContain('playlist.json');
    expect(names).toContain('playlist.csv');
    const json = JSON.parse(text(entries['playlist.json'] ?? new Uint8Array())) as PlaylistExportJson;
    expect(json.playlist.name).toBe('Road Trip');
    expect(json.tracks[0]?.uri).toMatch(/^spotify:track:/);
    // The sandbox's Spotify covers are served by the emulator, so they arrive as files.
    const images = names.filter((name) => name.startsWith('artwork/'));
    expect(images.length).toBeGreaterThan(0);
    expect(text(entries[images[0] ?? ''] ?? new Uint8Array())).toContain('<svg');
  });
});

describe('POST /api/export/cloud', () => {
  it('needs Vault+, stores the file in Crossfade storage, and asks to connect a drive before saving there', async () => {
    const refused = await free.post('/api/export/cloud', {
      ...exportRequest(roadTrip.id, 'json'),
      target: 'crossfade',
    });
    expect(refused.status).toBe(402);
    expect((refused.body as { message: string }).message).toMatch(/A Vault\+ subscription is required/);

    const saved = await vault.post('/api/export/cloud', {
      ...exportRequest(roadTrip.id, 'csv'),
      target: 'crossfade',
    });
    expect(saved.status).toBe(201);
    const record = saved.body as SavedExport;
    expect(record).toMatchObject({ format: 'csv', fileName: 'Road-Trip.csv', playlistName: 'Road Trip' });

    const list = (await vault.get('/api/exports')).body as SavedExport[];
    expect(list.map((item) => item.id)).toContain(record.id);
    expect(((await free.get('/api/exports')).body as SavedExport[]).length).toBe(0);

    const file = await vault.get(`/api/exports/${record.id}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toMatch(/filename="Road-Trip\.csv"/);
    expect(file.text.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe('Track Name,Artist,Album,Duration');
    expect((await free.get(`/api/exports/${record.id}`)).status).toBe(404);

    const drive = await vault.post('/api/export/cloud', {
      ...exportRequest(roadTrip.id, 'csv'),
      target: 'google-drive',
    });
    // Saving to the drives themselves is tested in cloud-save.int.test.ts.
    expect(drive.status).toBe(409);
    expect(drive.body).toEqual({
      message: 'Connect Google Drive first (Save to Cloud → Connect Google Drive).',
    });
    const dropbox = await vault.post('/api/export/cloud', {
      ...exportRequest(roadTrip.id, 'csv'),
      target: 'dropbox',
    });
    expect(dropbox.status).toBe(409);
  });
});
