import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchPlaylistTracksResponse, PlaylistSummary } from '../../shared/api/playlists';
import type { MatchSetView, TransferResult } from '../../shared/api/transfer';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';

/**
 * Both directions through the real pipeline while the emulators answer 429 often (a small budget in a
 * short rolling window), and a 1,000+-track playlist from Apple Music to Spotify.
 */

async function moveOnce(
  client: TestClient,
  from: 'spotify' | 'apple',
  to: 'spotify' | 'apple',
  name: string,
) {
  const playlists = (await client.get(`/api/playlists/${from}`)).body as PlaylistSummary[];
  const source = playlists.find((playlist) => playlist.name === name) as PlaylistSummary;
  const started = (
    await client.post('/api/match', { sourceService: from, destinationService: to, playlistId: source.id })
  ).body as MatchSetView;
  const matched = await waitUntil(
    async () => (await client.get(`/api/match/${started.matchSetId}`)).body as MatchSetView,
    (view) => view.status !== 'matching',
    300_000,
  );
  expect(matched.status).toBe('ready');
  const expected = matched.results.flatMap(
    // Review-band rows nobody accepted are not written (decision 0006).
    (row) => (row.destinationTrack && row.status === 'accepted' ? [row.destinationTrack.id] : []),
  );
  const transfer = (
    await client.post('/api/transfer', {
      sourceService: from,
      destinationService: to,
      playlistId: source.id,
      includeUnmatched: false,
      matchSetId: matched.matchSetId,
    })
  ).body as TransferResult;
  const finished = await waitUntil(
    async () => (await client.get(`/api/transfers/${transfer.transferId}`)).body as TransferResult,
    (current) => current.status === 'succeeded' || current.status === 'failed',
    300_000,
  );
  return { source, matched, expected, finished };
}

describe('transfers under a 429 storm', () => {
  let server: TestServer;
  let client: TestClient;

  beforeAll(async () => {
    // 15 calls per rolling 2 s: every step of the pipeline runs into the limit many times.
    server = await startTestServer({ env: { SANDBOX_RATE_LIMIT: '15', SANDBOX_RATE_WINDOW_SECONDS: '2' } });
    client = server.newClient();
    await client.post('/api/auth/register', {
      username: 'stormy',
      email: 'stormy@example.com',
      password: 'secret-words',
    });
    await server.deps.db.execute((await import('drizzle-orm')).sql`update users set plan = 'pro'`);
    await connectService(client, 'spotify');
    await connectService(client, 'apple');
  }, 120_000);
  afterAll(() => server.close());

  it.each([
    ['spotify', 'apple'],
    ['apple', 'spotify'],
  ] as const)(
    'moves Road Trip from %s to %s, riding out the 429s',
    async (from, to) => {
      const { expected, finished } = await moveOnce(client, from, to, 'Road Trip');
      expect(finished.status, finished.error ?? '').toBe('succeeded');
      expect(finished.addedTracks).toBe(expected.length);
      expect(expected.length).toBeGreaterThan(30);
    },
    400_000,
  );
});

describe('a 1,000-track playlist from Apple Music to Spotify', () => {
  let server: TestServer;
  let client: TestClient;

  beforeAll(async () => {
    server = await startTestServer();
    client = server.newClient();
    await client.post('/api/auth/register', {
      username: 'bigmover',
      email: 'big@example.com',
      password: 'secret-words',
    });
    await connectService(client, 'spotify');
    await connectService(client, 'apple');
  }, 120_000);
  afterAll(() => server.close());

  it('arrives whole and in order', async () => {
    const { source, expected, finished } = await moveOnce(client, 'apple', 'spotify', 'Everything I Love');
    expect(source.trackCount).toBeGreaterThan(1000);
    expect(finished.status, finished.error ?? '').toBe('succeeded');
    expect(expected.length / source.trackCount).toBeGreaterThan(0.9);
    const readBack = await client.post('/api/fetch-playlist-tracks', {
      playlistUrl: `https://open.spotify.com/playlist/${finished.playlistId}`,
    });
    expect(readBack.status).toBe(200);
    expect((readBack.body as FetchPlaylistTracksResponse).tracks.map((track) => track.id)).toEqual(expected);
  }, 400_000);
});
