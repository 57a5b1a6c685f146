import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaylistSummary } from '../../shared/api/playlists';
import type { MatchSetView, TransferResult } from '../../shared/api/transfer';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';

/**
 * Issue 10, the text rule for what the services send us: a playlist named with a NUL or a lone surrogate
 * (Spotify lets people type anything) is cleaned where the answer is read, so listing, matching,
 * transferring it and its CSV work instead of failing where PostgreSQL refuses such text.
 */
let server: TestServer;
let client: TestClient;
let userId: string;

const HOSTILE_NAME = 'Late\u0000 Night \ud800Mix';
const CLEAN_NAME = 'Late Night \ufffdMix';

beforeAll(async () => {
  server = await startTestServer();
  client = server.newClient();
  const registered = await client.post('/api/auth/register', {
    username: 'oddnames',
    email: 'oddnames@example.com',
    password: 'secret-words',
  });
  userId = (registered.body as { user: { id: string } }).user.id;
  await connectService(client, 'spotify', { account: 'own', scenario: 'unsafe-text-answers' });
  await connectService(client, 'apple', { account: 'own', scenario: 'unsafe-text-answers' });
}, 120_000);
afterAll(() => server.close());

describe('provider answers holding NUL or lone surrogates', () => {
  it('lists, matches and transfers such a playlist under its cleaned name', async () => {
    // Made through the service's own API, as a person would in the Spotify app.
    const spotify = await server.deps.providers.forUser(userId, 'spotify');
    const road = (await spotify.listPlaylists()).find((playlist) => playlist.trackCount > 3);
    if (!road) throw new Error('the sandbox account has no playlist to copy tracks from');
    const tracks = (await spotify.getPlaylist(road.id)).entries.flatMap((entry) =>
      entry.kind === 'track' ? [entry.track.uri] : [],
    );
    const created = await spotify.createPlaylist(HOSTILE_NAME, 'Notes \u0000 with \udc00 odd text');
    await spotify.addTracks(created.id, tracks.slice(0, 3));

    const listed = await client.get('/api/playlists/spotify');
    expect(listed.status).toBe(200);
    const summary = (listed.body as PlaylistSummary[]).find((playlist) => playlist.id === created.id);
    expect(summary?.name).toBe(CLEAN_NAME);

    const started = await client.post('/api/match', {
      sourceService: 'spotify',
      destinationService: 'apple',
      playlistId: created.id,
    });
    expect([200, 202]).toContain(started.status);
    const view = await waitUntil(
      async () =>
        (await client.get(`/api/match/${(started.body as MatchSetView).matchSetId}`)).body as MatchSetView,
      (current) => current.status !== 'matching',
      60_000,
    );
    expect(view.status, view.error ?? '').toBe('ready');
    expect(view.playlistName).toBe(CLEAN_NAME);

    const transferStarted = await client.post('/api/transfer', {
      sourceService: 'spotify',
      destinationService: 'apple',
      playlistId: created.id,
      matchSetId: view.matchSetId,
      createPlaylist: true,
    });
    expect([200, 202]).toContain(transferStarted.status);
    const transfer = await waitUntil(
      async () =>
        (await client.get(`/api/transfers/${(transferStarted.body as TransferResult).transferId}`))
          .body as TransferResult,
      (current) => current.status === 'succeeded' || current.status === 'failed',
      60_000,
    );
    expect(transfer.status, transfer.error ?? '').toBe('succeeded');
    expect(transfer.name).toBe(CLEAN_NAME);

    const csv = await client.get(`/api/export/csv/${transfer.transferId}`);
    expect(csv.status).toBe(200);
    expect(csv.text).not.toContain('\u0000');
  }, 120_000);
});
