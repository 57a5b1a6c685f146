import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sync, SyncRun, SyncRunList } from '../../shared/api/syncs';
import type { ServiceId } from '../../shared/services';
import { providerConnections, syncs, users } from '../db/schema';
import { getJob, requeueFinishedJob } from '../jobs/job-store';
import type { NormalizedTrack } from '../providers/types';
import { connectService } from '../testing/connect-service';
import { findSync, settledRun } from '../testing/sync-runs';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';
import { rememberRule } from '../transfers/match-rules';
import { REPEATED_IN_SOURCE } from './sync-run-job';
import { scheduleDueSyncs } from './sync-schedule';

/**
 * Sync (issue 14, item 4) through real HTTP against the emulators: small source playlists made for each
 * test on the emulated Spotify (through the provider client, as the person would in the Spotify app),
 * the run jobs on the real runner, the destination read back through the provider.
 */
let server: TestServer;
let client: TestClient;
let userId: string;
/** Tracks of the demo library that both services carry (by ISRC), to build small source playlists from. */
let pool: NormalizedTrack[];

beforeAll(async () => {
  server = await startTestServer();
  client = server.newClient();
  const registered = await client.post('/api/auth/register', {
    username: 'syncer',
    email: 'syncer@example.com',
    password: 'secret-words',
  });
  userId = (registered.body as { user: { id: string } }).user.id;
  await server.deps.db.update(users).set({ plan: 'pro' }).where(eq(users.id, userId));
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
  expect(pool.length).toBeGreaterThanOrEqual(26);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

async function sourcePlaylist(name: string, tracks: NormalizedTrack[]) {
  const spotify = await server.deps.providers.forUser(userId, 'spotify');
  const created = await spotify.createPlaylist(name);
  await spotify.addTracks(
    created.id,
    tracks.map((track) => track.uri),
  );
  return created.id;
}

async function destinationTracks(service: ServiceId, playlistId: string) {
  const provider = await server.deps.providers.forUser(userId, service);
  return (await provider.getPlaylist(playlistId)).entries.flatMap((entry) =>
    entry.kind === 'track' ? [entry.track] : [],
  );
}

const syncOf = (id: string) => findSync(client, id);
const settled = (syncId: string, runId: string) => settledRun(client, syncId, runId);

async function run(syncId: string, body?: { dryRun?: boolean }): Promise<SyncRun> {
  const started = await client.post(`/api/syncs/${syncId}/run`, body);
  expect(started.status, started.text).toBe(202);
  const finished = await settled(syncId, (started.body as SyncRun).id);
  expect(finished.error ?? null).toBeNull();
  return finished;
}

const names = (tracks: { name: string }[]) => tracks.map((track) => track.name);

describe('sync', () => {
  it('previews first, adds what is new in source order, verified, and nothing the second time (Spotify to Apple Music)', async () => {
    const first = pool.slice(0, 8);
    const later = pool.slice(8, 11);
    const sourceId = await sourcePlaylist('Sync me to Apple', first);
    const created = await client.post('/api/syncs', {
      sourceService: 'spotify',
      sourcePlaylistId: sourceId,
      destinationService: 'apple',
      schedule: 'daily',
      removals: true,
    });
    expect(created.status, created.text).toBe(201);
    const { sync, run: firstRun } = created.body as { sync: Sync; run: SyncRun };
    expect(sync.sourcePlaylistName).toBe('Sync me to Apple');
    expect(sync.nextRunAt).not.toBeNull();

    // The first run is a preview: what it would add, and nothing created or written.
    expect(firstRun.dryRun).toBe(true);
    const preview = await settled(sync.id, firstRun.id);
    expect(preview.status).toBe('succeeded');
    expect(names(preview.added)).toEqual(names(first));
    expect((await syncOf(sync.id)).destinationPlaylistId).toBeNull();

    // The real run creates the playlist, adds in source order and reads it back.
    const real = await run(sync.id);
    expect(real.dryRun).toBe(false);
    expect(names(real.added)).toEqual(names(first));
    expect(real.verifiedTracks).toBe(first.length);
    const destinationId = (await syncOf(sync.id)).destinationPlaylistId;
    if (!destinationId) throw new Error('no destination playlist');
    expect((await destinationTracks('apple', destinationId)).map((track) => track.isrc)).toEqual(
      first.map((track) => track.isrc),
    );

    // Run twice: nothing added the second time.
    const again = await run(sync.id);
    expect(again.added).toEqual([]);
    expect(again.unchanged).toBe(first.length);
    expect(await destinationTracks('apple', destinationId)).toHaveLength(first.length);

    // Three tracks added to the source: exactly those three added, and verified.
    const spotify = await server.deps.providers.forUser(userId, 'spotify');
    await spotify.addTracks(
      sourceId,
      later.map((track) => track.uri),
    );
    const three = await run(sync.id);
    expect(names(three.added)).toEqual(names(later));
    expect(three.verifiedTracks).toBe(3);
    expect(three.verificationMissing).toEqual([]);
    const after = await destinationTracks('apple', destinationId);
    expect(after.map((track) => track.isrc)).toEqual([...first, ...later].map((track) => track.isrc));
    expect((await run(sync.id)).added).toEqual([]);

    // Removed from the source: Apple Music playlists cannot lose tracks, so the run lists them.
    await spotify.removeTracks?.(sourceId, [first[0]?.uri ?? '', first[1]?.uri ?? '']);
    const removals = await run(sync.id);
    expect(removals.removed).toEqual([]);
    expect(names(removals.listedRemovals)).toEqual(names(first.slice(0, 2)));
    expect(removals.listedRemovals[0]?.reason).toContain('cannot have tracks removed');
    expect(await destinationTracks('apple', destinationId)).toHaveLength(11);

    // The history shows every run, newest first.
    const history = ((await client.get(`/api/syncs/${sync.id}/runs`)).body as SyncRunList).runs;
    expect(history.map((item) => item.added.length)).toEqual([0, 0, 3, 0, 8, 8]);
    expect(history.at(-1)?.dryRun).toBe(true);
  }, 120_000);

  it('stops for confirmation when a run would remove more than 10 % (Spotify destination, removals on)', async () => {
    const tracks = pool.slice(11, 21);
    const sourceId = await sourcePlaylist('Sync source', tracks);
    const destinationId = await sourcePlaylist('Sync destination', []);
    const created = await client.post('/api/syncs', {
      sourceService: 'spotify',
      sourcePlaylistId: sourceId,
      destinationService: 'spotify',
      destinationPlaylistId: destinationId,
      schedule: 'manual',
      removals: true,
    });
    expect(created.status, created.text).toBe(201);
    const { sync, run: preview } = created.body as { sync: Sync; run: SyncRun };
    expect(sync.nextRunAt).toBeNull();
    // Never two runs at once for one sync.
    const second = await client.post(`/api/syncs/${sync.id}/run`);
    expect([202, 409]).toContain(second.status);
    if (second.status === 409)
      expect(second.body).toEqual({ message: expect.stringContaining('already running') });
    await settled(sync.id, preview.id);
    if (second.status === 202) await settled(sync.id, (second.body as SyncRun).id);

    const filled = await run(sync.id);
    expect(filled.added).toHaveLength(10);
    expect(await destinationTracks('spotify', destinationId)).toHaveLength(10);

    // The source loses 20 % of its tracks: a preview shows it, a real run stops for confirmation.
    const spotify = await server.deps.providers.forUser(userId, 'spotify');
    const lost = tracks.slice(3, 5);
    await spotify.removeTracks?.(
      sourceId,
      lost.map((track) => track.uri),
    );
    const previewed = await run(sync.id, { dryRun: true });
    expect(previewed.dryRun).toBe(true);
    expect(names(previewed.removed)).toEqual(names(lost));

    const started = await client.post(`/api/syncs/${sync.id}/run`, {});
    const stopped = await settled(sync.id, (started.body as SyncRun).id);
    expect(stopped.status).toBe('needs_confirmation');
    expect(stopped.error).toContain('remove 2 of the 10 tracks');
    expect(await destinationTracks('spotify', destinationId)).toHaveLength(10);

    const confirmed = await client.post(`/api/syncs/${sync.id}/runs/${stopped.id}/confirm`);
    expect(confirmed.status, confirmed.text).toBe(202);
    const done = await settled(sync.id, stopped.id);
    expect(done.status).toBe('succeeded');
    expect(names(done.removed)).toEqual(names(lost));
    const left = await destinationTracks('spotify', destinationId);
    // Compared by recording: the match may be another id (another release) of the same ISRC.
    expect(left.map((track) => track.isrc)).toEqual(
      tracks.filter((track) => !lost.includes(track)).map((track) => track.isrc),
    );
    // A confirmation is used once.
    expect((await client.post(`/api/syncs/${sync.id}/runs/${stopped.id}/confirm`)).status).toBe(409);

    // Pause stops runs and the schedule; resume brings them back; delete removes the sync.
    expect((await client.post(`/api/syncs/${sync.id}/pause`)).status).toBe(200);
    expect((await client.post(`/api/syncs/${sync.id}/run`)).status).toBe(409);
    expect(((await client.post(`/api/syncs/${sync.id}/resume`)).body as Sync).paused).toBe(false);
    expect((await client.send('DELETE', `/api/syncs/${sync.id}`)).status).toBe(204);
    expect((await client.get(`/api/syncs/${sync.id}/runs`)).status).toBe(404);
  }, 120_000);

  it('syncs an Apple Music playlist into Spotify: the second run adds nothing', async () => {
    const apple = await server.deps.providers.forUser(userId, 'apple');
    const spotifyTracks = pool.slice(24, 26);
    const found = await apple.lookupIsrcs(spotifyTracks.map((track) => track.isrc?.toUpperCase() ?? ''));
    const appleTracks = spotifyTracks.flatMap(
      (track) => found.get(track.isrc?.toUpperCase() ?? '')?.slice(0, 1) ?? [],
    );
    expect(appleTracks).toHaveLength(2);
    const created = await apple.createPlaylist('Apple source');
    await apple.addTracks(
      created.id,
      appleTracks.map((track) => track.uri),
    );
    const answer = await client.post('/api/syncs', {
      sourceService: 'apple',
      sourcePlaylistId: created.id,
      destinationService: 'spotify',
      schedule: 'weekly',
      removals: false,
    });
    expect(answer.status, answer.text).toBe(201);
    const { sync, run: preview } = answer.body as { sync: Sync; run: SyncRun };
    expect((await settled(sync.id, preview.id)).added).toHaveLength(2);
    const first = await run(sync.id);
    expect(first.added).toHaveLength(2);
    expect(first.verifiedTracks).toBe(2);
    const second = await run(sync.id);
    expect(second.added).toEqual([]);
    expect(second.unchanged).toBe(2);
    const destinationId = (await syncOf(sync.id)).destinationPlaylistId ?? '';
    expect((await destinationTracks('spotify', destinationId)).map((track) => track.isrc)).toEqual(
      spotifyTracks.map((track) => track.isrc),
    );
  }, 60_000);

  it('never matches for a silent US: a destination whose country is unknown fails the run, saying so', async () => {
    const apple = await server.deps.providers.forUser(userId, 'apple');
    const created = await apple.createPlaylist('Apple source, country unknown');
    const [first] = await apple
      .lookupIsrcs([pool[0]?.isrc?.toUpperCase() ?? ''])
      .then((found) => [...found.values()]);
    await apple.addTracks(
      created.id,
      (first ?? []).slice(0, 1).map((track) => track.uri),
    );
    const spotifyConnection = and(
      eq(providerConnections.userId, userId),
      eq(providerConnections.service, 'spotify'),
    );
    const known = (await server.deps.providers.connections.get(userId, 'spotify'))?.region ?? null;
    expect(known).not.toBeNull();
    // As if Spotify had given nothing away and the person had not yet said.
    await server.deps.db.update(providerConnections).set({ region: null }).where(spotifyConnection);
    try {
      const answer = await client.post('/api/syncs', {
        sourceService: 'apple',
        sourcePlaylistId: created.id,
        destinationService: 'spotify',
        schedule: 'manual',
        removals: false,
      });
      expect(answer.status, answer.text).toBe(201);
      const { sync, run: preview } = answer.body as { sync: Sync; run: SyncRun };
      const failed = await settled(sync.id, preview.id);
      expect(failed.status).toBe('failed');
      expect(failed.error).toMatch(/did not tell us which country your account is in/);
      expect((await syncOf(sync.id)).destinationPlaylistId).toBeNull();
    } finally {
      await server.deps.db.update(providerConnections).set({ region: known }).where(spotifyConnection);
    }
  }, 60_000);

  it('the scheduler starts one run of a due sync, however many schedulers run at once', async () => {
    const sourceId = await sourcePlaylist('Scheduled source', pool.slice(21, 24));
    const created = await client.post('/api/syncs', {
      sourceService: 'spotify',
      sourcePlaylistId: sourceId,
      destinationService: 'apple',
      schedule: 'hourly',
      removals: false,
    });
    const { sync, run: preview } = created.body as { sync: Sync; run: SyncRun };
    await settled(sync.id, preview.id);
    // Due now; three schedulers (as from three processes) look at once.
    await server.deps.db
      .update(syncs)
      .set({ nextRunAt: new Date(Date.now() - 1_000) })
      .where(eq(syncs.id, sync.id));
    const started = await Promise.all([1, 2, 3].map(() => scheduleDueSyncs(server.deps)));
    expect(started.reduce((a, b) => a + b, 0)).toBe(1);
    const runs = ((await client.get(`/api/syncs/${sync.id}/runs`)).body as SyncRunList).runs;
    expect(runs).toHaveLength(2);
    const scheduled = await settled(sync.id, runs[0]?.id ?? '');
    expect(scheduled).toMatchObject({ trigger: 'scheduled', dryRun: false, status: 'succeeded' });
    expect(names(scheduled.added)).toEqual(names(pool.slice(21, 24)));
    // Its next run moved an hour on; not due, so nothing more is started.
    expect(new Date((await syncOf(sync.id)).nextRunAt ?? 0).getTime()).toBeGreaterThan(
      Date.now() + 50 * 60_000,
    );
    expect(await scheduleDueSyncs(server.deps)).toBe(0);
  }, 60_000);

  it('applies the person’s match rules (a song they marked "not on this service" is not added)', async () => {
    const [kept, skipped] = pool.slice(0, 2);
    if (!kept || !skipped) throw new Error('pool too small');
    const scope = { userId, sourceService: 'spotify', destinationService: 'apple' } as const;
    await rememberRule(server.deps.db, scope, skipped, null);
    const sourceId = await sourcePlaylist('Ruled source', [kept, skipped]);
    const created = await client.post('/api/syncs', {
      sourceService: 'spotify',
      sourcePlaylistId: sourceId,
      destinationService: 'apple',
      schedule: 'manual',
      removals: false,
    });
    const { sync, run: preview } = created.body as { sync: Sync; run: SyncRun };
    const previewed = await settled(sync.id, preview.id);
    expect(names(previewed.added)).toEqual([kept.name]);
    expect(previewed.notAdded).toEqual([
      { name: skipped.name, artists: skipped.artists, reason: 'Your rule: not on this service' },
    ]);
  }, 60_000);

  it('a recording twice in the source is added once and the second copy is listed, so the figures add up', async () => {
    const [first, second] = pool.slice(20, 22);
    if (!first || !second) throw new Error('pool too small');
    const sourceId = await sourcePlaylist('Twice in the source', [first, second, first]);
    const created = await client.post('/api/syncs', {
      sourceService: 'spotify',
      sourcePlaylistId: sourceId,
      destinationService: 'apple',
      schedule: 'manual',
      removals: false,
    });
    const { sync, run: preview } = created.body as { sync: Sync; run: SyncRun };
    const previewed = await settled(sync.id, preview.id);
    expect(names(previewed.added)).toEqual([first.name, second.name]);
    expect(previewed.notAdded).toEqual([
      { name: first.name, artists: first.artists, reason: REPEATED_IN_SOURCE },
    ]);
    expect(previewed.added.length + previewed.unchanged + previewed.notAdded.length).toBe(3);
  }, 60_000);

  it('lists the source entries that are not songs (local files, episodes) as not added, with why', async () => {
    const spotify = await server.deps.providers.forUser(userId, 'spotify');
    const imports = (await spotify.listPlaylists()).find((playlist) => playlist.name === 'Old Phone Imports');
    const created = await client.post('/api/syncs', {
      sourceService: 'spotify',
      sourcePlaylistId: imports?.id ?? '',
      destinationService: 'apple',
      schedule: 'manual',
      removals: false,
    });
    expect(created.status, created.text).toBe(201);
    const { sync, run: preview } = created.body as { sync: Sync; run: SyncRun };
    const previewed = await settled(sync.id, preview.id);
    expect(previewed.notAdded.map((track) => track.reason)).toContainEqual(
      expect.stringContaining('local file'),
    );
  }, 60_000);

  it('a run whose job runs again after its writes (as after a crash) adds nothing twice and keeps its history', async () => {
    const tracks = pool.slice(3, 6);
    const sourceId = await sourcePlaylist('Crash source', tracks);
    const destinationId = await sourcePlaylist('Crash destination', []);
    const created = await client.post('/api/syncs', {
      sourceService: 'spotify',
      sourcePlaylistId: sourceId,
      destinationService: 'spotify',
      destinationPlaylistId: destinationId,
      schedule: 'manual',
      removals: false,
    });
    const { sync, run: preview } = created.body as { sync: Sync; run: SyncRun };
    await settled(sync.id, preview.id);
    const done = await run(sync.id);
    expect(done.added).toHaveLength(3);
    // The same job again, from its checkpoint: the writes are already in the destination.
    const jobId = done.jobId ?? '';
    const before = (await getJob(server.deps.db, jobId))?.finishedAt?.getTime() ?? 0;
    await requeueFinishedJob(server.deps.db, jobId);
    server.deps.jobs.poke();
    await waitUntil(
      () => getJob(server.deps.db, jobId),
      (job) => job?.status === 'succeeded' && (job.finishedAt?.getTime() ?? 0) > before,
      30_000,
      50,
    );
    const again = await settled(sync.id, done.id);
    expect(again).toMatchObject({ status: 'succeeded', unchanged: 0, verifiedTracks: 3 });
    expect(names(again.added)).toEqual(names(tracks));
    expect((await destinationTracks('spotify', destinationId)).map((track) => track.isrc)).toEqual(
      tracks.map((track) => track.isrc),
    );
  }, 60_000);

  it('refuses bad input with a clear 4xx, and free accounts with the plan message', async () => {
    const bad = await client.post('/api/syncs', { sourceService: 'spotify', schedule: 'sometimes' });
    expect(bad.status).toBe(400);
    const missing = await client.post('/api/syncs', {
      sourceService: 'spotify',
      sourcePlaylistId: 'nope',
      destinationService: 'apple',
      schedule: 'manual',
      removals: false,
    });
    expect(missing.status).toBe(404);
    expect((await client.get('/api/syncs/not-a-uuid/runs')).status).toBe(404);

    const free = server.newClient();
    await free.post('/api/auth/register', {
      username: 'freebie',
      email: 'freebie@example.com',
      password: 'secret-words',
    });
    const refused = await free.get('/api/syncs');
    expect(refused.status).toBe(402);
    expect((refused.body as { message: string }).message).toContain('Sync is a Pro feature');
  }, 60_000);
});

describe('sync into Apple Music with its write delay', () => {
  it('a run right after another adds nothing twice, though Apple shows writes late', async () => {
    const lagging = await startTestServer({ env: { SANDBOX_FAULTS: 'apple-write-lag-ms=500' } });
    try {
      const person = lagging.newClient();
      const answer = await person.post('/api/auth/register', {
        username: 'lagged',
        email: 'lagged@example.com',
        password: 'secret-words',
      });
      const id = (answer.body as { user: { id: string } }).user.id;
      await lagging.deps.db.update(users).set({ plan: 'pro' }).where(eq(users.id, id));
      await connectService(person, 'spotify');
      await connectService(person, 'apple');
      const spotify = await lagging.deps.providers.forUser(id, 'spotify');
      const source = await spotify.createPlaylist('Lagged source');
      await spotify.addTracks(
        source.id,
        pool.slice(0, 4).map((track) => track.uri),
      );
      const created = await person.post('/api/syncs', {
        sourceService: 'spotify',
        sourcePlaylistId: source.id,
        destinationService: 'apple',
        schedule: 'manual',
        removals: false,
      });
      const { sync, run: preview } = created.body as { sync: Sync; run: SyncRun };
      const runOnce = async (runId: string) =>
        waitUntil(
          async () =>
            ((await person.get(`/api/syncs/${sync.id}/runs`)).body as SyncRunList).runs.find(
              (item) => item.id === runId,
            ),
          (run) => run !== undefined && !['queued', 'running'].includes(run.status),
          60_000,
          50,
        );
      await runOnce(preview.id);
      const first = await runOnce(((await person.post(`/api/syncs/${sync.id}/run`)).body as SyncRun).id);
      expect(first?.added).toHaveLength(4);
      expect(first?.verifiedTracks).toBe(4);
      const second = await runOnce(((await person.post(`/api/syncs/${sync.id}/run`)).body as SyncRun).id);
      expect(second?.added).toEqual([]);
      const apple = await lagging.deps.providers.forUser(id, 'apple');
      await new Promise((resolve) => setTimeout(resolve, 600));
      const [destination] = (await lagging.deps.db.select().from(syncs).where(eq(syncs.id, sync.id))) ?? [];
      const entries = (await apple.getPlaylist(destination?.destinationPlaylistId ?? '')).entries;
      expect(entries).toHaveLength(4);
    } finally {
      await lagging.close();
    }
  }, 90_000);
});
