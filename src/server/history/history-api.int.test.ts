import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryPage, RestoreStarted, RestoreStatus } from '../../shared/api/history';
import type { Sync, SyncRun, SyncRunList } from '../../shared/api/syncs';
import type { MatchSetView, TransferResult } from '../../shared/api/transfer';
import { seededRandom } from '../../shared/seeded-random';
import type { ServiceId } from '../../shared/services';
import { playlistVersions, users } from '../db/schema';
import type { NormalizedTrack } from '../providers/types';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';

/**
 * Issue 21 items 2, 3, 5 (decision 0030) through HTTP, the job runner and the emulators: versions recorded
 * when Crossfade reads and writes, changes made in the service itself as `outside`, paging, the plan's
 * window, another person's history as 404, restores (Spotify in place, Apple into a new playlist) and
 * undo of a transfer and of a one-way sync run, each verified and recorded as a version.
 */
let server: TestServer;
let client: TestClient;
let userId: string;
/** Tracks both services carry (by ISRC); `applePool` the same recordings on Apple Music. */
let pool: NormalizedTrack[];
let applePool: NormalizedTrack[];

async function register(name: string, plan: 'free' | 'pro' | 'vault') {
  const person = server.newClient();
  const answer = await person.post('/api/auth/register', {
    username: name,
    email: `${name}@example.com`,
    password: 'secret-words',
  });
  const id = (answer.body as { user: { id: string } }).user.id;
  await server.deps.db.update(users).set({ plan }).where(eq(users.id, id));
  return { person, id };
}

beforeAll(async () => {
  server = await startTestServer();
  ({ person: client, id: userId } = await register('historian', 'vault'));
  await connectService(client, 'spotify');
  await connectService(client, 'apple');
  const spotify = await server.deps.providers.forUser(userId, 'spotify');
  const apple = await server.deps.providers.forUser(userId, 'apple');
  const roadTrip = (await spotify.listPlaylists()).find((playlist) => playlist.name === 'Road Trip');
  if (!roadTrip) throw new Error('no Road Trip playlist');
  const tracks = (await spotify.getPlaylist(roadTrip.id)).entries.flatMap((entry) =>
    entry.kind === 'track' && entry.track.isrc ? [entry.track] : [],
  );
  const onApple = await apple.lookupIsrcs(tracks.map((track) => track.isrc?.toUpperCase() ?? ''));
  pool = tracks.filter((track) => (onApple.get(track.isrc?.toUpperCase() ?? '')?.length ?? 0) > 0);
  applePool = pool.flatMap((track) => onApple.get(track.isrc?.toUpperCase() ?? '')?.slice(0, 1) ?? []);
  expect(pool.length).toBeGreaterThanOrEqual(12);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

const provider = (service: ServiceId) => server.deps.providers.forUser(userId, service);

async function newPlaylist(service: ServiceId, name: string, tracks: NormalizedTrack[]) {
  const client = await provider(service);
  const created = await client.createPlaylist(name);
  await client.addTracks(
    created.id,
    tracks.map((track) => track.uri),
  );
  return created.id;
}

async function uris(service: ServiceId, playlistId: string) {
  const contents = await (await provider(service)).getPlaylist(playlistId);
  return contents.entries.flatMap((entry) => (entry.kind === 'track' ? [entry.track.uri] : []));
}

/** Crossfade reads the playlist for a transfer (a match run), as the wizard's first step does. */
async function matched(service: ServiceId, playlistId: string) {
  const started = await client.post('/api/match', {
    sourceService: service,
    destinationService: service === 'spotify' ? 'apple' : 'spotify',
    playlistId,
  });
  expect(started.status, started.text).toBeLessThan(300);
  return waitUntil(
    async () =>
      (await client.get(`/api/match/${(started.body as MatchSetView).matchSetId}`)).body as MatchSetView,
    (view) => view.status !== 'matching',
  );
}

async function historyOf(service: ServiceId, playlistId: string, query = '') {
  const answer = await client.get(`/api/history/${service}/${playlistId}${query}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body as HistoryPage;
}

async function finishedRestore(started: RestoreStarted) {
  expect(started.jobId).not.toBeNull();
  const status = await waitUntil(
    async () => (await client.get(`/api/history/restores/${started.jobId}`)).body as RestoreStatus,
    (current) => ['succeeded', 'failed'].includes(current.job.status),
    120_000,
  );
  expect(status.job.error).toBeNull();
  expect(status.job.status).toBe('succeeded');
  if (!status.result) throw new Error('no result');
  return status.result;
}

describe('playlist history', () => {
  it('records reads, outside changes and writes; pages newest first; keeps to the plan and the person', async () => {
    const id = await newPlaylist('spotify', 'History one', pool.slice(0, 5));
    await matched('spotify', id);
    // Changed in Spotify itself: one removed, one added.
    const spotify = await provider('spotify');
    await spotify.removeTracks?.(id, [pool[1]?.uri ?? '']);
    await spotify.addTracks(id, [pool[6]?.uri ?? '']);
    await matched('spotify', id);
    // Read again without a change: no new version.
    await matched('spotify', id);

    const page = await historyOf('spotify', id);
    expect(page.versions.map((version) => version.cause)).toEqual(['outside', 'transfer']);
    const [outside, first] = page.versions;
    expect(first?.trackCount).toBe(5);
    expect(first?.added.map((track) => track.uri)).toEqual(pool.slice(0, 5).map((track) => track.uri));
    expect(outside).toMatchObject({ trackCount: 5, becameUnavailable: [] });
    expect(outside?.added.map((track) => track.uri)).toEqual([pool[6]?.uri]);
    expect(outside?.removed.map((track) => track.uri)).toEqual([pool[1]?.uri]);

    const one = await historyOf('spotify', id, '?limit=1');
    expect(one.versions.map((version) => version.id)).toEqual([outside?.id]);
    expect(one.nextCursor).not.toBeNull();
    const two = await historyOf('spotify', id, `?limit=1&cursor=${one.nextCursor}`);
    expect(two.versions.map((version) => version.id)).toEqual([first?.id]);
    expect(two.nextCursor).toBeNull();
    expect((await client.get(`/api/history/spotify/${id}?limit=0`)).status).toBe(400);

    // Another person sees nothing of it.
    const { person: other } = await register('stranger', 'vault');
    expect((await other.get(`/api/history/spotify/${id}`)).status).toBe(404);
    expect(
      (await other.post(`/api/history/spotify/${id}/restore`, { versionId: first?.id, dryRun: true })).status,
    ).toBe(404);

    // Older than 7 days: shown with Vault+ only.
    await server.deps.db
      .update(playlistVersions)
      .set({ createdAt: new Date(Date.now() - 10 * 24 * 60 * 60_000) })
      .where(eq(playlistVersions.id, first?.id ?? ''));
    expect((await historyOf('spotify', id)).versions).toHaveLength(2);
    await server.deps.db.update(users).set({ plan: 'pro' }).where(eq(users.id, userId));
    try {
      const windowed = await historyOf('spotify', id);
      expect(windowed.versions.map((version) => version.id)).toEqual([outside?.id]);
      expect(windowed.olderHidden).toBe(true);
      // Restore is Vault+.
      const refused = await client.post(`/api/history/spotify/${id}/restore`, { versionId: outside?.id });
      expect(refused.status).toBe(402);
    } finally {
      await server.deps.db.update(users).set({ plan: 'vault' }).where(eq(users.id, userId));
    }

    const gone = (await client.get('/api/history/disappeared')).body as {
      items: { track: { uri: string } }[];
    };
    expect(gone.items.map((item) => item.track.uri)).toContain(pool[1]?.uri);
  }, 180_000);

  it('restores a random earlier version of a Spotify playlist in place, order included', async () => {
    const random = seededRandom(2121);
    const id = await newPlaylist('spotify', 'History restore', pool.slice(0, 6));
    const truth: string[][] = [];
    const spotify = await provider('spotify');
    for (let step = 0; step < 4; step++) {
      await matched('spotify', id);
      truth.push(await uris('spotify', id));
      const there = await uris('spotify', id);
      await spotify.removeTracks?.(id, [there[Math.floor(random() * there.length)] ?? '']);
      await spotify.addTracks(id, [pool[6 + step]?.uri ?? '']);
    }
    const versions = (await historyOf('spotify', id)).versions.reverse();
    expect(versions).toHaveLength(truth.length);
    const pick = Math.floor(random() * (versions.length - 1));
    const version = versions[pick];

    const preview = await client.post(`/api/history/spotify/${id}/restore`, {
      versionId: version?.id,
      dryRun: true,
    });
    expect(preview.status, preview.text).toBe(200);
    expect((preview.body as RestoreStarted).plan).toMatchObject({
      trackCount: truth[pick]?.length,
      newPlaylistName: null,
    });

    const started = await client.post(`/api/history/spotify/${id}/restore`, { versionId: version?.id });
    expect(started.status, started.text).toBe(202);
    const result = await finishedRestore(started.body as RestoreStarted);
    expect(result).toMatchObject({
      playlistId: id,
      verified: truth[pick]?.length,
      total: truth[pick]?.length,
    });
    expect(await uris('spotify', id)).toEqual(truth[pick]);
    expect((await historyOf('spotify', id)).versions[0]?.cause).toBe('restore');
  }, 240_000);

  it('restores an Apple Music playlist into a new playlist named as restored', async () => {
    const id = await newPlaylist('apple', 'Apple history', applePool.slice(0, 3));
    await matched('apple', id);
    const first = await uris('apple', id);
    const apple = await provider('apple');
    await apple.addTracks(id, [applePool[4]?.uri ?? '']);
    const grown = await waitUntil(
      () => uris('apple', id),
      (list) => list.length === 4,
    );
    expect(grown).toHaveLength(4);
    await matched('apple', id);
    const versions = (await historyOf('apple', id)).versions;
    expect(versions.map((version) => version.cause)).toEqual(['outside', 'transfer']);

    const started = await client.post(`/api/history/apple/${id}/restore`, { versionId: versions[1]?.id });
    expect(started.status, started.text).toBe(202);
    const body = started.body as RestoreStarted;
    expect(body.plan.newPlaylistName).toMatch(/^Apple history \(restored \d{4}-\d{2}-\d{2}\)$/);
    expect(body.plan.why).toContain('cannot');
    const result = await finishedRestore(body);
    expect(result.playlistId).not.toBe(id);
    expect(result).toMatchObject({ verified: 3, total: 3 });
    const restored = await waitUntil(
      () => uris('apple', result.playlistId),
      (list) => list.length === 3,
    );
    expect(restored).toEqual(first);
    expect(await uris('apple', id)).toHaveLength(4);
    expect((await historyOf('apple', result.playlistId)).versions[0]?.cause).toBe('restore');
  }, 240_000);

  it('undoes a transfer: what it wrote is taken back, verified', async () => {
    const source = await newPlaylist('apple', 'Undo me', applePool.slice(0, 3));
    const view = await matched('apple', source);
    const started = await client.post('/api/transfer', {
      sourceService: 'apple',
      destinationService: 'spotify',
      playlistId: source,
      matchSetId: view.matchSetId,
    });
    const { transferId } = started.body as TransferResult;
    const done = await waitUntil(
      async () => (await client.get(`/api/transfers/${transferId}`)).body as TransferResult,
      (current) => current.status === 'succeeded' || current.status === 'failed',
    );
    expect(done.status).toBe('succeeded');
    const destination = done.playlistId;
    expect(await uris('spotify', destination)).toHaveLength(3);
    const written = await historyOf('spotify', destination);
    expect(written.versions.map((version) => version.cause)).toEqual(['transfer']);

    const undo = await client.post(`/api/transfers/${transferId}/undo`, {});
    expect(undo.status, undo.text).toBe(202);
    expect((undo.body as RestoreStarted).plan.removed).toHaveLength(3);
    const result = await finishedRestore(undo.body as RestoreStarted);
    expect(result).toMatchObject({ playlistId: destination, verified: 0, total: 0 });
    expect(await uris('spotify', destination)).toEqual([]);
    expect((await historyOf('spotify', destination)).versions[0]?.cause).toBe('restore');
    expect((await client.post(`/api/transfers/00000000-0000-4000-8000-000000000000/undo`, {})).status).toBe(
      404,
    );
  }, 240_000);

  it("undoes one run of a one-way sync: that run's adds go, the first run's stay", async () => {
    const source = await newPlaylist('apple', 'Synced source', applePool.slice(0, 3));
    const created = await client.post('/api/syncs', {
      sourceService: 'apple',
      sourcePlaylistId: source,
      destinationService: 'spotify',
      schedule: 'manual',
      removals: false,
    });
    expect(created.status, created.text).toBe(201);
    const { sync } = created.body as { sync: Sync; run: SyncRun };
    const runOnce = async () => {
      await waitUntil(
        async () => (await client.get(`/api/syncs/${sync.id}/runs`)).body as SyncRunList,
        ({ runs }) => runs.every((run) => run.status !== 'queued' && run.status !== 'running'),
      );
      const started = await client.post(`/api/syncs/${sync.id}/run`, {});
      expect(started.status, started.text).toBe(202);
      const list = await waitUntil(
        async () => (await client.get(`/api/syncs/${sync.id}/runs`)).body as SyncRunList,
        ({ runs }) => runs.every((run) => run.status !== 'queued' && run.status !== 'running'),
      );
      const run = list.runs.find((candidate) => !candidate.dryRun);
      expect(run?.status).toBe('succeeded');
      return run?.id ?? '';
    };
    await runOnce();
    const destination = ((await client.get('/api/syncs')).body as { syncs: Sync[] }).syncs.find(
      (item) => item.id === sync.id,
    )?.destinationPlaylistId;
    if (!destination) throw new Error('no destination');
    const afterFirst = await uris('spotify', destination);
    expect(afterFirst).toHaveLength(3);

    const apple = await provider('apple');
    await apple.addTracks(source, [applePool[5]?.uri ?? '', applePool[6]?.uri ?? '']);
    await waitUntil(
      () => uris('apple', source),
      (list) => list.length === 5,
    );
    const second = await runOnce();
    expect(await uris('spotify', destination)).toHaveLength(5);

    const undo = await client.post(`/api/syncs/${sync.id}/runs/${second}/undo`, {});
    expect(undo.status, undo.text).toBe(202);
    expect((undo.body as RestoreStarted).plan.removed).toHaveLength(2);
    const result = await finishedRestore(undo.body as RestoreStarted);
    expect(result).toMatchObject({ verified: 3, total: 3 });
    expect(await uris('spotify', destination)).toEqual(afterFirst);
  }, 300_000);
});
