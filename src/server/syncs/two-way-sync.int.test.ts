import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryPage, RestoreStarted, RestoreStatus } from '../../shared/api/history';
import type { Sync, SyncRun } from '../../shared/api/syncs';
import type { ServiceId } from '../../shared/services';
import { syncRuns, users } from '../db/schema';
import type { NormalizedTrack } from '../providers/types';
import { connectService } from '../testing/connect-service';
import { removeOnPage } from '../testing/sandbox-page-edits';
import { findSync, settledRun } from '../testing/sync-runs';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { sureSongs } from '../testing/two-way-pool';
import { waitUntil } from '../testing/wait-until';
import { rememberRule } from '../transfers/match-rules';

/**
 * Two-way sync (issue 21 item 1, decision 0024) through real HTTP against the emulators: the person's
 * edits are made as in the services' apps (Spotify's Web API, Apple Music's library API for adds and the
 * Apple playlist page for removals, which its API cannot do), the runs on the real job runner, both
 * playlists read back through the providers.
 */
let server: TestServer;
let client: TestClient;
let userId: string;
/** Songs both services carry (one Spotify track and one Apple track per ISRC). */
let pool: { spotify: NormalizedTrack; apple: NormalizedTrack }[];

beforeAll(async () => {
  server = await startTestServer();
  client = server.newClient();
  const registered = await client.post('/api/auth/register', {
    username: 'twoway',
    email: 'twoway@example.com',
    password: 'secret-words',
  });
  userId = (registered.body as { user: { id: string } }).user.id;
  await server.deps.db.update(users).set({ plan: 'pro' }).where(eq(users.id, userId));
  for (const service of ['spotify', 'apple'] as const)
    await connectService(client, service, { account: 'own', scenario: 'two-way-sync' });
  pool = await sureSongs(server.deps, client, userId);
  // Each test makes its own playlists: they may share songs.
  expect(pool.length).toBeGreaterThanOrEqual(25);
}, 180_000);

afterAll(async () => {
  await server?.close();
});

const provider = (service: ServiceId) => server.deps.providers.forUser(userId, service);

async function tracksOf(service: ServiceId, playlistId: string) {
  return (await (await provider(service)).getPlaylist(playlistId)).entries.flatMap((entry) =>
    entry.kind === 'track' ? [entry.track] : [],
  );
}
const isrcs = (tracks: { isrc?: string | null | undefined }[]) =>
  tracks.map((track) => track.isrc?.toUpperCase());
const names = (tracks: { name: string }[]) => tracks.map((track) => track.name);
const sorted = <T>(items: T[]) => [...items].sort();

const syncOf = (id: string) => findSync(client, id);
const settled = (syncId: string, runId: string) => settledRun(client, syncId, runId);

async function run(syncId: string, path = '/run'): Promise<SyncRun> {
  const started = await client.post(`/api/syncs/${syncId}${path}`, {});
  expect(started.status, started.text).toBe(202);
  return settled(syncId, (started.body as SyncRun).id);
}

async function succeeded(syncId: string, path = '/run') {
  const done = await run(syncId, path);
  expect(done.error ?? null).toBeNull();
  expect(done.status).toBe('succeeded');
  return done;
}

async function spotifyPlaylist(name: string, tracks: NormalizedTrack[]) {
  const spotify = await provider('spotify');
  const created = await spotify.createPlaylist(name);
  if (tracks.length > 0)
    await spotify.addTracks(
      created.id,
      tracks.map((track) => track.uri),
    );
  return created.id;
}

/** A two-way sync of a new Spotify playlist, its Apple side created by the first real run. */
async function twoWay(name: string, tracks: NormalizedTrack[], removals = true) {
  const sourceId = await spotifyPlaylist(name, tracks);
  const created = await client.post('/api/syncs', {
    sourceService: 'spotify',
    sourcePlaylistId: sourceId,
    destinationService: 'apple',
    schedule: 'manual',
    removals,
    direction: 'two-way',
  });
  expect(created.status, created.text).toBe(201);
  const { sync, run: preview } = created.body as { sync: Sync; run: SyncRun };
  expect(sync.direction).toBe('two-way');
  const previewed = await settled(sync.id, preview.id);
  expect(previewed).toMatchObject({ dryRun: true, status: 'succeeded' });
  expect(names(previewed.added)).toEqual(names(tracks));
  expect((await syncOf(sync.id)).destinationPlaylistId).toBeNull();
  const first = await succeeded(sync.id);
  expect(first.verifiedTracks).toBe(tracks.length);
  const appleId = (await syncOf(sync.id)).destinationPlaylistId ?? '';
  expect(isrcs(await tracksOf('apple', appleId))).toEqual(isrcs(tracks));
  return { syncId: sync.id, spotifyId: sourceId, appleId };
}

/** Both sides hold the same recordings, each once. */
async function expectSame(spotifyId: string, appleId: string, except: string[] = []) {
  const onSpotify = isrcs(await tracksOf('spotify', spotifyId));
  const onApple = isrcs(await tracksOf('apple', appleId)).filter((isrc) => !except.includes(isrc ?? ''));
  expect(new Set(onSpotify).size).toBe(onSpotify.length);
  expect(new Set(onApple).size).toBe(onApple.length);
  expect(sorted(onApple)).toEqual(sorted(onSpotify));
  return onSpotify;
}

describe('two-way sync', () => {
  it('adds both ways, applies an Apple removal to Spotify, lists a Spotify removal, rebuilds the Apple playlist', async () => {
    const start = pool.slice(0, 12);
    const { syncId, spotifyId, appleId } = await twoWay(
      'Both ways',
      start.map((item) => item.spotify),
    );
    // Nothing changed on either side: nothing written.
    const idle = await succeeded(syncId);
    expect([idle.added, idle.addedToSource, idle.removed, idle.removedFromSource]).toEqual([[], [], [], []]);
    expect(idle.unchanged).toBe(12);

    // On Apple Music: two songs added, one removed (on its page); on Spotify: one added.
    const apple = await provider('apple');
    const spotify = await provider('spotify');
    const [a1, a2, s1] = pool.slice(12, 15);
    if (!a1 || !a2 || !s1) throw new Error('pool too small');
    await apple.addTracks(appleId, [a1.apple.uri, a2.apple.uri]);
    await removeOnPage(client, 'apple', appleId, start[0]?.apple.name ?? '');
    await spotify.addTracks(spotifyId, [s1.spotify.uri]);

    const merged = await succeeded(syncId);
    expect(names(merged.addedToSource)).toEqual([a1.apple.name, a2.apple.name]);
    expect(names(merged.added)).toEqual([s1.spotify.name]);
    expect(names(merged.removedFromSource)).toEqual([start[0]?.apple.name]);
    expect(merged.removed).toEqual([]);
    expect(merged.verifiedTracks).toBe(3);
    const both = await expectSame(spotifyId, appleId);
    expect(sorted(both)).toEqual(sorted(isrcs([...start.slice(1), a1, a2, s1].map((item) => item.spotify))));
    // What the run wrote on each side, for an undo.
    const [stored] = await server.deps.db.select().from(syncRuns).where(eq(syncRuns.id, merged.id));
    expect(stored?.writes?.source).toMatchObject({ service: 'spotify', playlistId: spotifyId });
    expect(isrcs(stored?.writes?.source.added ?? [])).toEqual(isrcs([a1.spotify, a2.spotify]));
    expect(names(stored?.writes?.source.removed ?? [])).toEqual([start[0]?.spotify.name]);
    expect(isrcs(stored?.writes?.destination.added ?? [])).toEqual(isrcs([s1.apple]));

    // Removed on Spotify: Apple Music playlists cannot lose tracks, so it is listed, run after run.
    const gone = start[1];
    if (!gone) throw new Error('pool too small');
    await spotify.removeTracks?.(spotifyId, [gone.spotify.uri]);
    const listed = await succeeded(syncId);
    expect(names(listed.listedRemovals)).toEqual([gone.apple.name]);
    expect(listed.listedRemovals[0]?.reason).toContain('cannot have tracks removed');
    expect(names((await succeeded(syncId)).listedRemovals)).toEqual([gone.apple.name]);
    await expectSame(spotifyId, appleId, [gone.spotify.isrc?.toUpperCase() ?? '']);

    // The offer: a new Apple Music playlist holding exactly the merged state, kept in step from now on.
    const rebuilt = await succeeded(syncId, '/rebuild');
    expect(rebuilt.rebuild).toBe(true);
    const newAppleId = (await syncOf(syncId)).destinationPlaylistId ?? '';
    expect(newAppleId).not.toBe(appleId);
    const onSpotify = await tracksOf('spotify', spotifyId);
    expect(isrcs(await tracksOf('apple', newAppleId))).toEqual(isrcs(onSpotify));
    const after = await succeeded(syncId);
    expect(after.listedRemovals).toEqual([]);
    expect([after.added, after.addedToSource]).toEqual([[], []]);
  }, 240_000);

  it("a run's changes are in both playlists' history with their cause, and undoing it takes back both sides", async () => {
    // Twelve songs: removing one stays under the 10 % that waits for the person.
    const start = pool.slice(0, 12);
    const { syncId, spotifyId, appleId } = await twoWay(
      'Undo both ways',
      start.map((item) => item.spotify),
    );
    const apple = await provider('apple');
    const [a1, a2, s1] = pool.slice(12, 15);
    if (!a1 || !a2 || !s1) throw new Error('pool too small');
    // In the Apple Music app: two songs added, one removed. On Spotify: one song added.
    await apple.addTracks(appleId, [a1.apple.uri, a2.apple.uri]);
    await removeOnPage(client, 'apple', appleId, start[0]?.apple.name ?? '');
    await (await provider('spotify')).addTracks(spotifyId, [s1.spotify.uri]);
    const spotifyBefore = isrcs(await tracksOf('spotify', spotifyId));
    const appleBefore = isrcs(await tracksOf('apple', appleId));
    const merged = await succeeded(syncId);
    expect(names(merged.addedToSource)).toEqual([a1.apple.name, a2.apple.name]);
    expect(names(merged.removedFromSource)).toEqual([start[0]?.apple.name]);
    expect(names(merged.added)).toEqual([s1.apple.name]);

    // Spotify's history: the person's add seen by the run's read (outside), then the run's writes (sync).
    const spotifyHistory = (await client.get(`/api/history/spotify/${spotifyId}`)).body as HistoryPage;
    const written = spotifyHistory.versions[0];
    expect(written?.cause).toBe('sync');
    expect(names(written?.added ?? [])).toEqual([a1.spotify.name, a2.spotify.name]);
    expect(names(written?.removed ?? [])).toEqual([start[0]?.spotify.name]);
    expect(spotifyHistory.versions[1]).toMatchObject({ cause: 'outside', removed: [] });
    expect(names(spotifyHistory.versions[1]?.added ?? [])).toEqual([s1.spotify.name]);
    // Apple's: the person's own edits (outside), then the run's add (sync).
    const appleHistory = (await client.get(`/api/history/apple/${appleId}`)).body as HistoryPage;
    expect(appleHistory.versions[0]).toMatchObject({ cause: 'sync', removed: [] });
    expect(names(appleHistory.versions[0]?.added ?? [])).toEqual([s1.apple.name]);
    const outside = appleHistory.versions[1];
    expect(outside?.cause).toBe('outside');
    expect(names(outside?.added ?? [])).toEqual([a1.apple.name, a2.apple.name]);
    expect(names(outside?.removed ?? [])).toEqual([start[0]?.apple.name]);

    // A dry run says what each side gets back, and that the Apple side goes into a new playlist.
    const preview = await client.post(`/api/syncs/${syncId}/runs/${merged.id}/undo`, { dryRun: true });
    expect(preview.status, preview.text).toBe(200);
    const planned = preview.body as RestoreStarted;
    expect(planned.plan).toMatchObject({ service: 'spotify', playlistId: spotifyId, newPlaylistName: null });
    expect(names(planned.plan.removed)).toEqual([a1.spotify.name, a2.spotify.name]);
    expect(names(planned.plan.added)).toEqual([start[0]?.spotify.name]);
    expect(planned.otherSides).toHaveLength(1);
    const appleSide = planned.otherSides[0]?.plan;
    expect(appleSide).toMatchObject({
      service: 'apple',
      playlistId: appleId,
      trackCount: appleBefore.length,
    });
    expect(appleSide?.newPlaylistName).toMatch(/^Undo both ways \(restored \d{4}-\d{2}-\d{2}\)$/);
    expect(appleSide?.why).toContain('new one');

    const undo = await client.post(`/api/syncs/${syncId}/runs/${merged.id}/undo`, {});
    expect(undo.status, undo.text).toBe(202);
    const started = undo.body as RestoreStarted;
    const finished = async (jobId: string | null) => {
      const status = await waitUntil(
        async () => (await client.get(`/api/history/restores/${jobId}`)).body as RestoreStatus,
        (current) => ['succeeded', 'failed'].includes(current.job.status),
        120_000,
      );
      expect(status.job.status, status.job.error ?? '').toBe('succeeded');
      if (!status.result) throw new Error('a restore without a result');
      return status.result;
    };
    // Spotify in place, exactly as before the run; verified and recorded as a version.
    const spotifyDone = await finished(started.jobId);
    expect(isrcs(await tracksOf('spotify', spotifyId))).toEqual(spotifyBefore);
    expect(spotifyDone).toMatchObject({
      playlistId: spotifyId,
      verified: spotifyBefore.length,
      total: spotifyBefore.length,
    });
    // Apple: a new playlist holding the Apple side as it was before the run; the original is left as is.
    const appleDone = await finished(started.otherSides[0]?.jobId ?? null);
    expect(appleDone.playlistId).not.toBe(appleId);
    expect(isrcs(await tracksOf('apple', appleDone.playlistId))).toEqual(appleBefore);
    expect(appleDone).toMatchObject({ verified: appleBefore.length, total: appleBefore.length });
    const newApple = (await (await provider('apple')).getPlaylist(appleDone.playlistId)).playlist;
    expect(newApple.name).toBe(appleSide?.newPlaylistName);
    for (const [service, id] of [
      ['spotify', spotifyId],
      ['apple', appleDone.playlistId],
    ] as const) {
      const page = (await client.get(`/api/history/${service}/${id}`)).body as HistoryPage;
      expect(page.versions[0]?.cause).toBe('restore');
    }
  }, 240_000);

  it('a conflict follows the rule: removed on Apple Music, added again on Spotify, the add wins', async () => {
    const start = pool.slice(0, 12);
    const { syncId, spotifyId, appleId } = await twoWay(
      'Conflicts',
      start.map((item) => item.spotify),
    );
    const song = start[3];
    if (!song) throw new Error('pool too small');
    await removeOnPage(client, 'apple', appleId, song.apple.name);
    // The person adds it again on Spotify (it is there twice now).
    await (await provider('spotify')).addTracks(spotifyId, [song.spotify.uri]);
    const done = await succeeded(syncId);
    expect(names(done.conflicts)).toEqual([song.apple.name]);
    expect(done.conflicts[0]?.reason).toContain('the add wins');
    expect(done.removedFromSource).toEqual([]);
    expect(names(done.added)).toEqual([song.apple.name]);
    const onApple = isrcs(await tracksOf('apple', appleId));
    expect(onApple.filter((isrc) => isrc === song.spotify.isrc?.toUpperCase())).toHaveLength(1);
    expect(sorted(onApple)).toEqual(sorted(isrcs(start.map((item) => item.spotify))));
  }, 180_000);

  it('stops for the person on a collapsed read and on removing more than 10 %, and goes on once confirmed', async () => {
    const start = pool.slice(10, 20);
    const { syncId, spotifyId, appleId } = await twoWay(
      'Guarded',
      start.map((item) => item.spotify),
    );
    // Two of ten removed on Apple Music: 20 % of Spotify's tracks would go.
    for (const item of start.slice(0, 2)) await removeOnPage(client, 'apple', appleId, item.apple.name);
    const stopped = await run(syncId);
    expect(stopped.status).toBe('needs_confirmation');
    expect(stopped.error).toContain('remove 2 of the 10 tracks');
    expect(names(stopped.removedFromSource)).toEqual(names(start.slice(0, 2).map((item) => item.apple)));
    expect(await tracksOf('spotify', spotifyId)).toHaveLength(10);
    expect((await client.post(`/api/syncs/${syncId}/runs/${stopped.id}/confirm`)).status).toBe(202);
    const confirmed = await settled(syncId, stopped.id);
    expect(confirmed.status).toBe('succeeded');
    expect(await expectSame(spotifyId, appleId)).toHaveLength(8);

    // The Spotify playlist suddenly reads 3 of 8 tracks: the run stops before doing anything.
    const spotify = await provider('spotify');
    await spotify.removeTracks?.(
      spotifyId,
      start.slice(2, 7).map((item) => item.spotify.uri),
    );
    const collapsed = await run(syncId);
    expect(collapsed.status).toBe('needs_confirmation');
    expect(collapsed.error).toContain('less than half');
    expect(await tracksOf('apple', appleId)).toHaveLength(8);
    expect((await client.post(`/api/syncs/${syncId}/runs/${collapsed.id}/confirm`)).status).toBe(202);
    const goneOn = await settled(syncId, collapsed.id);
    expect(goneOn.status).toBe('succeeded');
    expect(names(goneOn.listedRemovals)).toEqual(names(start.slice(2, 7).map((item) => item.apple)));
  }, 180_000);

  it('uses the person’s rules both ways, and a song not on the other service waits, listed', async () => {
    const start = pool.slice(20, 23);
    const { syncId, spotifyId, appleId } = await twoWay(
      'Ruled',
      start.map((item) => item.spotify),
    );
    const [toApple, toSpotify] = pool.slice(23, 25);
    if (!toApple || !toSpotify) throw new Error('pool too small');
    await rememberRule(
      server.deps.db,
      { userId, sourceService: 'spotify', destinationService: 'apple' },
      toApple.spotify,
      null,
    );
    await rememberRule(
      server.deps.db,
      { userId, sourceService: 'apple', destinationService: 'spotify' },
      toSpotify.apple,
      null,
    );
    await (await provider('spotify')).addTracks(spotifyId, [toApple.spotify.uri]);
    await (await provider('apple')).addTracks(appleId, [toSpotify.apple.uri]);
    const done = await succeeded(syncId);
    expect([done.added, done.addedToSource]).toEqual([[], []]);
    expect(sorted(done.notAdded.map((track) => track.reason))).toEqual([
      'Your rule: not on Apple Music',
      'Your rule: not on Spotify',
    ]);
  }, 120_000);

  it('is Pro: a Free account is refused with the plan message; bad directions are a 400', async () => {
    const free = server.newClient();
    await free.post('/api/auth/register', {
      username: 'twowayfree',
      email: 'twowayfree@example.com',
      password: 'secret-words',
    });
    const refused = await free.post('/api/syncs', {
      sourceService: 'spotify',
      sourcePlaylistId: 'x',
      destinationService: 'apple',
      schedule: 'manual',
      removals: false,
      direction: 'two-way',
    });
    expect(refused.status).toBe(402);
    expect((refused.body as { message: string }).message).toContain('Pro feature');
    const bad = await client.post('/api/syncs', {
      sourceService: 'spotify',
      sourcePlaylistId: 'x',
      destinationService: 'apple',
      schedule: 'manual',
      removals: false,
      direction: 'sideways',
    });
    expect(bad.status).toBe(400);
    // One two-way sync per playlist: its runs are then one at a time for the pair.
    const taken = ((await client.get('/api/syncs')).body as { syncs: Sync[] }).syncs[0];
    const again = await client.post('/api/syncs', {
      sourceService: 'spotify',
      sourcePlaylistId: taken?.sourcePlaylistId ?? '',
      destinationService: 'apple',
      schedule: 'manual',
      removals: false,
      direction: 'two-way',
    });
    expect(again.status).toBe(409);
    expect((again.body as { message: string }).message).toContain('already in a two-way sync');
    const oneWay = (await client.get('/api/syncs')).body as { syncs: Sync[] };
    expect(oneWay.syncs.length).toBeGreaterThan(0);
    expect(oneWay.syncs.every((sync) => sync.direction === 'two-way')).toBe(true);
  }, 60_000);

  it('keeps a playlist in one two-way sync when several are created at once', async () => {
    const source = await spotifyPlaylist(
      'Created at once',
      pool.slice(0, 3).map((item) => item.spotify),
    );
    const other = await spotifyPlaylist(
      'Created at once, the other side',
      pool.slice(3, 5).map((item) => item.spotify),
    );
    const body = (sourcePlaylistId: string, destinationPlaylistId?: string) => ({
      sourceService: 'spotify',
      sourcePlaylistId,
      destinationService: 'spotify',
      ...(destinationPlaylistId ? { destinationPlaylistId } : {}),
      schedule: 'manual',
      removals: false,
      direction: 'two-way',
    });
    // Twelve requests in parallel over the same playlist: as its source, or as the destination of another.
    const bodies = [body(source), body(other, source), body(source, other)];
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        client.post('/api/syncs', bodies[index % bodies.length] as Record<string, unknown>),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(
      statuses.filter((status) => status === 201),
      answers.map((answer) => answer.text).join('\n'),
    ).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(11);
    for (const answer of answers.filter((item) => item.status === 409))
      expect((answer.body as { message: string }).message).toContain('already in a two-way sync');
    const holding = ((await client.get('/api/syncs')).body as { syncs: Sync[] }).syncs.filter(
      (sync) =>
        sync.direction === 'two-way' &&
        (sync.sourcePlaylistId === source || sync.destinationPlaylistId === source),
    );
    expect(holding).toHaveLength(1);
  }, 120_000);
});
