import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchView } from '../../shared/api/batches';
import type { FetchPlaylistTracksResponse, PlaylistSummary } from '../../shared/api/playlists';
import type { MatchSetView, TransferResult } from '../../shared/api/transfer';
import { openDatabase } from '../db/open';
import { users } from '../db/schema';
import { connectService } from '../testing/connect-service';
import { type CrashPlace, createCrashPlace } from '../testing/crash-place';
import { TestClient } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';

/**
 * A batch survives SIGKILL (issue 14 items 2 and 6): the process running the batch's job is killed once
 * in the middle of the matching phase and once in the middle of the transfer phase, and started again
 * each time. Every playlist ends matched once and moved once: each destination holds exactly its accepted
 * tracks, in order, and no playlist was created twice.
 */
let place: CrashPlace;

beforeAll(async () => {
  place = await createCrashPlace('batch-crash');
});
afterAll(() => place.close());

const start = (extra: Record<string, string> = {}) => place.start(extra);

/** Batch is Pro: the plan is set in the database while no server holds it (PGlite allows one process). */
async function makePro(username: string) {
  const handle = place.database ?? (await openDatabase({ dataDir: place.dataDir }));
  try {
    await handle.db.update(users).set({ plan: 'pro' }).where(eq(users.username, username));
  } finally {
    if (!place.database) await handle.close();
  }
}

// Slow enough that each phase is still under way when the process is killed.
const SLOW = { SANDBOX_LATENCY_MS: '300' };

describe('a batch survives a crash', () => {
  it('resumes after SIGKILL in matching and in transferring with nothing lost or duplicated', async () => {
    let server = await start();
    const client = new TestClient(server.url);
    await client.post('/api/auth/register', {
      username: 'batchcrash',
      email: 'batchcrash@example.com',
      password: 'secret-words',
    });
    await connectService(client, 'spotify');
    await connectService(client, 'apple');
    const playlists = (await client.get('/api/playlists/spotify')).body as PlaylistSummary[];
    const picked = playlists
      .filter(
        (item) =>
          item.kind === 'playlist' &&
          !item.id.startsWith('import:') &&
          !item.unreadableReason &&
          item.trackCount > 0,
      )
      .sort((a, b) => a.trackCount - b.trackCount)
      .slice(0, 3);
    expect(picked).toHaveLength(3);
    const appleNames = async () =>
      ((await client.get('/api/playlists/apple')).body as PlaylistSummary[]).map((item) => item.name);
    const namesBefore = await appleNames();
    await server.stop();
    await makePro('batchcrash');

    // 1. Matching: killed once the first playlist is matched and the batch is still matching.
    server = await start(SLOW);
    client.baseUrl = server.url;
    const created = await client.post('/api/batches', {
      sourceService: 'spotify',
      destinationService: 'apple',
      playlistIds: picked.map((item) => item.id),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { batchId } = created.body as { batchId: string };
    const view = async () => (await client.get(`/api/batches/${batchId}`)).body as BatchView;
    const midMatch = await waitUntil(
      view,
      (current) => current.status !== 'matching' || current.playlists[0]?.status === 'matched',
      120_000,
      // A state that lasts only as long as the other playlists take: looked at every 0.1 s, never less often.
      100,
      100,
    );
    expect(midMatch.status).toBe('matching');
    await server.crash();

    server = await start();
    client.baseUrl = server.url;
    const matched = await waitUntil(view, (current) => current.status !== 'matching', 180_000);
    expect(matched.status, matched.error ?? '').toBe('review');
    const expected = new Map<string, string[]>();
    for (const [index, item] of matched.playlists.entries()) {
      const set = (await client.get(`/api/match/${item.matchSetId}`)).body as MatchSetView;
      // Every source entry has one row: none lost, none twice.
      expect(set.results.map((row) => row.position)).toEqual(
        Array.from({ length: picked[index]?.trackCount ?? 0 }, (_, position) => position),
      );
      expected.set(
        item.matchSetId,
        set.results.flatMap((row) =>
          row.status === 'accepted' && row.destinationTrack ? [row.destinationTrack.id] : [],
        ),
      );
    }
    await server.stop();

    // 2. Transferring: killed once the first playlist has gone and the batch is still transferring.
    server = await start(SLOW);
    client.baseUrl = server.url;
    expect((await client.post(`/api/batches/${batchId}/transfer`, {})).status).toBe(202);
    const midTransfer = await waitUntil(
      view,
      (current) => current.status !== 'transferring' || current.playlists[0]?.status === 'done',
      120_000,
      // A state that lasts only as long as the other playlists take: looked at every 0.1 s, never less often.
      100,
      100,
    );
    expect(midTransfer.status).toBe('transferring');
    await server.crash();

    server = await start();
    client.baseUrl = server.url;
    const moved = await waitUntil(view, (current) => current.status !== 'transferring', 180_000);
    expect(moved.status, moved.error ?? '').toBe('done');
    const namesAfter = await appleNames();
    for (const item of moved.playlists) {
      const want = expected.get(item.matchSetId) ?? [];
      expect(item.status, item.error ?? '').toBe('done');
      expect(item.counts.verified).toBe(want.length);
      const transfer = (await client.get(`/api/transfers/${item.transferId}`)).body as TransferResult;
      const readBack = await client.post('/api/fetch-playlist-tracks', {
        playlistUrl: `https://music.apple.com/library/playlist/${transfer.playlistId}`,
      });
      expect(readBack.status).toBe(200);
      const ids = (readBack.body as FetchPlaylistTracksResponse).tracks.map((track) => track.id);
      expect(ids).toEqual(want);
      // One new playlist per source playlist: none created twice across the crash.
      const named = (names: string[]) => names.filter((name) => name === item.name).length;
      expect(named(namesAfter)).toBe(named(namesBefore) + 1);
    }
  }, 600_000);
});
