import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchPlaylistTracksResponse, PlaylistSummary } from '../../shared/api/playlists';
import type { MatchSetView, TransferResult } from '../../shared/api/transfer';
import { connectService } from '../testing/connect-service';
import { type CrashPlace, createCrashPlace } from '../testing/crash-place';
import { TestClient } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';

/**
 * Kills the server with SIGKILL in the middle of a 1,220-track transfer, starts it again, and reads the
 * destination playlist back: every chosen track is there exactly once, in source order.
 */
let place: CrashPlace;

beforeAll(async () => {
  place = await createCrashPlace('crash');
});
afterAll(() => place.close());

const start = (extra: Record<string, string> = {}) => place.start(extra);

describe('a transfer survives a crash', () => {
  it('resumes after SIGKILL with no duplicate and no lost track', async () => {
    // 1. Sign up, connect both services and match the big playlist.
    let server = await start();
    const client = new TestClient(server.url);
    await client.post('/api/auth/register', {
      username: 'crashy',
      email: 'crashy@example.com',
      password: 'secret-words',
    });
    await connectService(client, 'spotify');
    await connectService(client, 'apple');
    const playlists = (await client.get('/api/playlists/spotify')).body as PlaylistSummary[];
    const big = playlists.find((playlist) => playlist.name === 'Everything I Love') as PlaylistSummary;
    expect(big.trackCount).toBeGreaterThan(1000);
    const started = (
      await client.post('/api/match', {
        sourceService: 'spotify',
        destinationService: 'apple',
        playlistId: big.id,
      })
    ).body as MatchSetView;
    const matched = await waitUntil(
      async () => (await client.get(`/api/match/${started.matchSetId}`)).body as MatchSetView,
      (view) => view.status !== 'matching',
      240_000,
    );
    expect(matched.status).toBe('ready');
    const expected = matched.results.flatMap(
      // Review-band rows nobody accepted are not written (decision 0006).
      (row) => (row.destinationTrack && row.status === 'accepted' ? [row.destinationTrack.id] : []),
    );
    expect(expected.length).toBeGreaterThan(1000);
    await server.stop();

    // 2. Transfer over a slow network, and kill the server once a few batches are in.
    // Slow enough that the transfer is still running when the request's own short wait (2.5 s) ends.
    server = await start({ SANDBOX_LATENCY_MS: '600' });
    client.baseUrl = server.url;
    const transfer = (
      await client.post('/api/transfer', {
        sourceService: 'spotify',
        destinationService: 'apple',
        playlistId: big.id,
        includeUnmatched: false,
        matchSetId: matched.matchSetId,
      })
    ).body as TransferResult;
    const midway = await waitUntil(
      async () => (await client.get(`/api/transfers/${transfer.transferId}`)).body as TransferResult,
      (current) => current.addedTracks >= 200 || current.status === 'succeeded',
      120_000,
      // Midway is a passing state: looked at every 0.1 s, never less often.
      100,
      100,
    );
    expect(midway.status).not.toBe('succeeded');
    await server.crash();

    // 3. Start again: the job's lease runs out and the transfer goes on from its checkpoint.
    server = await start();
    client.baseUrl = server.url;
    const finished = await waitUntil(
      async () => (await client.get(`/api/transfers/${transfer.transferId}`)).body as TransferResult,
      (current) => current.status === 'succeeded' || current.status === 'failed',
      180_000,
    );
    expect(finished.status, finished.error ?? '').toBe('succeeded');
    expect(finished.addedTracks).toBe(expected.length);

    // 4. Read the destination back through Crossfade's own reader of Apple library playlists.
    const readBack = await client.post('/api/fetch-playlist-tracks', {
      playlistUrl: `https://music.apple.com/library/playlist/${finished.playlistId}`,
    });
    expect(readBack.status).toBe(200);
    const ids = (readBack.body as FetchPlaylistTracksResponse).tracks.map((track) => track.id);
    expect(ids).toEqual(expected);
  }, 600_000);
});
