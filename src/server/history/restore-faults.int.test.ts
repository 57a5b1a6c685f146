import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryPage, RestoreStarted, RestoreStatus } from '../../shared/api/history';
import type { MatchSetView, TransferResult } from '../../shared/api/transfer';
import type { ServiceId } from '../../shared/services';
import { users } from '../db/schema';
import type { NormalizedTrack } from '../providers/types';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';

/**
 * Restore and undo when the services misbehave (issue 21 item 3, decision 0030): the emulators fail calls,
 * apply writes and still answer 5xx, and Apple Music shows writes late (`SANDBOX_FAULTS`, seeded so a
 * failure runs again into the same faults). A restore gives exactly the version back (Spotify in place,
 * order included; Apple Music as one new playlist) and an undo takes back exactly what a transfer wrote:
 * nothing added twice, no playlist created twice, one `restore` version each.
 */
const LAG_MS = 300;
const FAULTS = `error-rate=0.05,error-after-write=0.2,apple-write-lag-ms=${LAG_MS},seed=3121`;

let server: TestServer;
let client: TestClient;
let userId: string;
let pool: NormalizedTrack[];
let applePool: NormalizedTrack[];

const provider = (service: ServiceId) => server.deps.providers.forUser(userId, service);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The person trying again after a failed answer (the faults are the service's, not Crossfade's). */
async function again<T>(action: () => Promise<T>): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await action();
    } catch (error) {
      if (tries >= 8) throw error;
    }
  }
}

async function uris(service: ServiceId, playlistId: string) {
  const contents = await again(async () => (await provider(service)).getPlaylist(playlistId));
  return contents.entries.flatMap((entry) => (entry.kind === 'track' ? [entry.track.uri] : []));
}

/** Adds as a person would: after a failed answer, look (once Apple shows writes) and add only what is missing. */
async function addAsPerson(service: ServiceId, playlistId: string, add: string[]) {
  const writer = await provider(service);
  let left = add;
  for (let tries = 0; tries < 8 && left.length > 0; tries++) {
    const ok = await writer.addTracks(playlistId, left).then(
      () => true,
      () => false,
    );
    if (ok) break;
    if (service === 'apple') await sleep(LAG_MS * 2);
    const there = new Set(await uris(service, playlistId));
    left = left.filter((uri) => !there.has(uri));
  }
  // Seen by the person before they go on (Apple shows adds late).
  await waitUntil(
    () => uris(service, playlistId),
    (list) => add.every((uri) => list.includes(uri)),
    30_000,
  );
}

async function newPlaylist(service: ServiceId, name: string, tracks: NormalizedTrack[]) {
  const created = await again(async () => (await provider(service)).createPlaylist(name));
  // Apple shows a new playlist late: the person sees it before adding to it.
  if (service === 'apple') await sleep(LAG_MS * 2);
  await addAsPerson(
    service,
    created.id,
    tracks.map((track) => track.uri),
  );
  return created.id;
}

/** Crossfade reads the playlist for a transfer (the wizard's match step): a version of its history. */
async function matched(service: ServiceId, playlistId: string) {
  const request = {
    sourceService: service,
    destinationService: service === 'spotify' ? 'apple' : 'spotify',
    playlistId,
  };
  const started = await client.post('/api/match', request);
  expect(started.status, started.text).toBeLessThan(300);
  const view = await waitUntil(
    async () =>
      (await client.get(`/api/match/${(started.body as MatchSetView).matchSetId}`)).body as MatchSetView,
    (current) => current.status !== 'matching',
    120_000,
  );
  expect(view.status).toBe('ready');
  return { request, view };
}

async function historyOf(service: ServiceId, playlistId: string) {
  const answer = await client.get(`/api/history/${service}/${playlistId}`);
  expect(answer.status, answer.text).toBe(200);
  return (answer.body as HistoryPage).versions;
}

async function finished(started: RestoreStarted) {
  const status = await waitUntil(
    async () => (await client.get(`/api/history/restores/${started.jobId}`)).body as RestoreStatus,
    (current) => ['succeeded', 'failed'].includes(current.job.status),
    180_000,
  );
  expect(status.job.status, status.job.error ?? '').toBe('succeeded');
  if (!status.result) throw new Error('a restore without a result');
  return status.result;
}

beforeAll(async () => {
  server = await startTestServer({ env: { SANDBOX_FAULTS: FAULTS } });
  client = server.newClient();
  const registered = await client.post('/api/auth/register', {
    username: 'faultyhistory',
    email: 'faultyhistory@example.com',
    password: 'secret-words',
  });
  userId = (registered.body as { user: { id: string } }).user.id;
  await server.deps.db.update(users).set({ plan: 'vault' }).where(eq(users.id, userId));
  await connectService(client, 'spotify');
  await connectService(client, 'apple');
  const spotify = await provider('spotify');
  const apple = await provider('apple');
  const roadTrip = (await again(() => spotify.listPlaylists())).find((item) => item.name === 'Road Trip');
  if (!roadTrip) throw new Error('no Road Trip playlist');
  const tracks = (await again(() => spotify.getPlaylist(roadTrip.id))).entries.flatMap((entry) =>
    entry.kind === 'track' && entry.track.isrc ? [entry.track] : [],
  );
  const onApple = await again(() =>
    apple.lookupIsrcs(tracks.map((track) => track.isrc?.toUpperCase() ?? '')),
  );
  pool = tracks.filter((track) => (onApple.get(track.isrc?.toUpperCase() ?? '')?.length ?? 0) > 0);
  applePool = pool.flatMap((track) => onApple.get(track.isrc?.toUpperCase() ?? '')?.slice(0, 1) ?? []);
  expect(pool.length).toBeGreaterThanOrEqual(10);
}, 180_000);

afterAll(async () => {
  await server?.close();
});

describe('restore and undo under faults', () => {
  it('restores an earlier Spotify version exactly, in place, once', async () => {
    const id = await newPlaylist('spotify', 'Faulty restore', pool.slice(0, 6));
    await matched('spotify', id);
    const first = await uris('spotify', id);
    expect(first).toHaveLength(6);
    // Changed in Spotify itself: one removed, two added, then read again.
    await again(async () => (await provider('spotify')).removeTracks?.(id, [pool[1]?.uri ?? '']));
    await addAsPerson('spotify', id, [pool[6]?.uri ?? '', pool[7]?.uri ?? '']);
    await matched('spotify', id);
    const versions = await historyOf('spotify', id);
    expect(versions.map((version) => version.cause)).toEqual(['outside', 'transfer']);

    const started = await client.post(`/api/history/spotify/${id}/restore`, { versionId: versions[1]?.id });
    expect(started.status, started.text).toBe(202);
    const result = await finished(started.body as RestoreStarted);
    expect(result).toMatchObject({ playlistId: id, verified: 6, total: 6 });
    expect(await uris('spotify', id)).toEqual(first);
    const after = await historyOf('spotify', id);
    expect(after.map((version) => version.cause)).toEqual(['restore', 'outside', 'transfer']);
    expect(after[0]?.trackCount).toBe(6);
  }, 300_000);

  it('restores an earlier Apple Music version into one new playlist holding exactly it', async () => {
    const name = 'Faulty Apple restore';
    const id = await newPlaylist('apple', name, applePool.slice(0, 3));
    await matched('apple', id);
    const first = await uris('apple', id);
    await addAsPerson('apple', id, [applePool[4]?.uri ?? '']);
    await matched('apple', id);
    const versions = await historyOf('apple', id);
    expect(versions.map((version) => version.cause)).toEqual(['outside', 'transfer']);

    const started = await client.post(`/api/history/apple/${id}/restore`, { versionId: versions[1]?.id });
    expect(started.status, started.text).toBe(202);
    const body = started.body as RestoreStarted;
    const result = await finished(body);
    expect(result.playlistId).not.toBe(id);
    expect(result).toMatchObject({ verified: 3, total: 3 });
    expect(await uris('apple', result.playlistId)).toEqual(first);
    // One new playlist, however many of its writes were answered 5xx; the original as it was.
    const restoredName = body.plan.newPlaylistName ?? '';
    expect(restoredName).toContain(`${name} (restored `);
    const named = (await again(async () => (await provider('apple')).listPlaylists())).filter(
      (item) => item.name === restoredName,
    );
    expect(named).toHaveLength(1);
    expect(await uris('apple', id)).toHaveLength(4);
    expect((await historyOf('apple', result.playlistId)).map((version) => version.cause)).toEqual([
      'restore',
    ]);
  }, 300_000);

  it("undoes a transfer: exactly what it wrote goes, the person's own add stays", async () => {
    const source = await newPlaylist('apple', 'Faulty undo', applePool.slice(0, 3));
    const { request, view } = await matched('apple', source);
    const begun = await client.post('/api/transfer', { ...request, matchSetId: view.matchSetId });
    expect([200, 202]).toContain(begun.status);
    const { transferId } = begun.body as TransferResult;
    const done = await waitUntil(
      async () => (await client.get(`/api/transfers/${transferId}`)).body as TransferResult,
      (current) => current.status === 'succeeded' || current.status === 'failed',
      180_000,
    );
    expect(done.status).toBe('succeeded');
    const destination = done.playlistId;
    const written = await uris('spotify', destination);
    expect(written).toHaveLength(3);
    // The person adds one of their own in Spotify afterwards.
    const own = pool[8]?.uri ?? '';
    await addAsPerson('spotify', destination, [own]);

    const undo = await client.post(`/api/transfers/${transferId}/undo`, {});
    expect(undo.status, undo.text).toBe(202);
    const body = undo.body as RestoreStarted;
    expect(body.plan.removed.map((track) => track.uri).sort()).toEqual([...written].sort());
    const result = await finished(body);
    expect(result).toMatchObject({ playlistId: destination, verified: 1, total: 1 });
    expect(await uris('spotify', destination)).toEqual([own]);
    const causes = (await historyOf('spotify', destination)).map((version) => version.cause);
    expect(causes.filter((cause) => cause === 'restore')).toHaveLength(1);
    expect(causes[0]).toBe('restore');
  }, 300_000);
});
