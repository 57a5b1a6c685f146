import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../sandbox/catalog/types';
import type { PlaylistSummary } from '../../shared/api/playlists';
import {
  BACKUPS_KEPT_PER_SERVICE,
  type BackupDetail,
  type BackupSummary,
  type RestoreResponse,
} from '../../shared/api/vault';
import { jobs, playlistHistories, playlistVersions, users } from '../db/schema';
import { recordBackupVersion } from '../history/playlist-history';
import { jobRegistry } from '../jobs/define-job';
import { JobRunner } from '../jobs/job-runner';
import { enqueueJob, getJob, type JobRow } from '../jobs/job-store';
import { saveTestBackup } from '../testing/backups';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer, testCatalog } from '../testing/test-server';
import { BACKUP_JOB, backupJob } from './backup-job';
import { dailyBackupKey, scheduleDailyBackups } from './backup-scheduler';

let server: TestServer;
let runner: JobRunner;
let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${counter++}`;
const message = (body: unknown) => (body as { message?: string }).message;

beforeAll(async () => {
  server = await startTestServer();
  runner = new JobRunner({
    db: server.deps.db,
    logger: server.deps.logger,
    handlers: jobRegistry([backupJob], server.deps),
    concurrency: 1,
    pollIntervalMs: 50,
  });
  runner.start();
});
afterAll(async () => {
  await runner.stop();
  await server.close();
});

async function member(plan: 'free' | 'pro' | 'vault', connect: ('spotify' | 'apple')[] = []) {
  const client: TestClient = server.newClient();
  const username = unique('vault');
  const response = await client.post('/api/auth/register', {
    username,
    email: `${username}@example.com`,
    password: 'correct horse',
  });
  expect(response.status).toBe(201);
  await server.deps.db.update(users).set({ plan }).where(eq(users.username, username));
  for (const service of connect) await connectService(client, service);
  const [row] = await server.deps.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  if (!row) throw new Error('no user');
  return { client, username, userId: row.id };
}

async function finished(jobId: string): Promise<JobRow> {
  for (;;) {
    runner.poke();
    const job = await getJob(server.deps.db, jobId);
    if (job && (job.status === 'succeeded' || job.status === 'failed')) return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What a playlist of the demo library holds, as the emulator serves it on Spotify. */
function demoPlaylist(catalog: Catalog, service: 'spotify' | 'apple', name: string) {
  const playlist = catalog.demoLibraries[service].find((candidate) => candidate.name === name);
  if (!playlist) throw new Error(`no demo playlist ${name}`);
  const byKey = new Map(catalog.tracks.map((track) => [track.key, track]));
  const trackIds = playlist.entries.flatMap((entry) => {
    if (entry.kind !== 'track') return [];
    const track = byKey.get(entry.trackKey);
    const id = service === 'spotify' ? track?.spotify?.id : track?.apple?.id;
    return id ? [id] : [];
  });
  return { playlist, trackIds };
}

describe('plan enforcement', () => {
  it.each(['free', 'pro'] as const)(
    'answers 402 pointing to /pricing on every backup call for %s',
    async (plan) => {
      const { client, userId } = await member(plan, ['spotify']);
      const id = randomUUID();
      const calls = [
        () => client.post('/api/vault/backups'),
        () => client.get('/api/vault/backups'),
        () => client.get(`/api/vault/backups/${id}`),
        () =>
          client.post(`/api/vault/backups/${id}/restore`, { playlistId: 'x', destinationService: 'apple' }),
      ];
      for (const call of calls) {
        const response = await call();
        expect(response.status).toBe(402);
        expect(message(response.body)).toBe(
          'Backups is a Vault+ feature. A Vault+ subscription is required: see /pricing.',
        );
      }
      expect(await server.deps.db.select().from(jobs).where(eq(jobs.userId, userId))).toEqual([]);
    },
  );

  it('needs a signed-in person', async () => {
    expect((await server.newClient().get('/api/vault/backups')).status).toBe(401);
  });
});

describe('backing up and restoring', () => {
  it('backs up every connected service with the demo library, then restores a playlist as an import', async () => {
    const { client } = await member('vault', ['spotify', 'apple']);
    const started = await client.post('/api/vault/backups');
    expect(started.status).toBe(202);
    const { jobId } = started.body as { jobId: string };
    const job = await finished(jobId);
    expect(job.error).toBeNull();
    expect(job.status).toBe('succeeded');

    const list = (await client.get('/api/vault/backups')).body as BackupSummary[];
    expect(list.map((backup) => backup.service).sort()).toEqual(['apple', 'spotify']);
    expect(list.every((backup) => backup.trigger === 'manual')).toBe(true);

    const catalog = testCatalog();
    const spotifySummary = list.find((backup) => backup.service === 'spotify');
    if (!spotifySummary) throw new Error('no spotify backup');
    const detail = (await client.get(`/api/vault/backups/${spotifySummary.id}`)).body as BackupDetail;

    // Every demo playlist is in the backup, or listed as one the service would not let us read.
    const names = [...detail.playlists.map((p) => p.name), ...detail.unreadable.map((p) => p.name)].sort();
    expect(names).toEqual(catalog.demoLibraries.spotify.map((playlist) => playlist.name).sort());
    expect(detail.playlistCount).toBe(detail.playlists.length);
    expect(detail.trackCount).toBe(detail.playlists.reduce((sum, p) => sum + p.tracks.length, 0));

    const roadTrip = detail.playlists.find((playlist) => playlist.name === 'Road Trip');
    if (!roadTrip) throw new Error('Road Trip missing from the backup');
    const expected = demoPlaylist(catalog, 'spotify', 'Road Trip');
    expect(roadTrip.tracks.map((track) => track.id)).toEqual(expected.trackIds);
    expect(roadTrip.tracks.length + roadTrip.skippedEntries).toBe(expected.playlist.entries.length);
    expect(roadTrip.tracks[0]?.name).toBeTruthy();

    const appleSummary = list.find((backup) => backup.service === 'apple');
    if (!appleSummary) throw new Error('no apple backup');
    const apple = (await client.get(`/api/vault/backups/${appleSummary.id}`)).body as BackupDetail;
    expect(apple.playlists.map((p) => p.name)).toEqual(
      expect.arrayContaining(catalog.demoLibraries.apple.map((playlist) => playlist.name)),
    );

    const restore = await client.post(`/api/vault/backups/${spotifySummary.id}/restore`, {
      playlistId: roadTrip.id,
      destinationService: 'apple',
    });
    expect(restore.status).toBe(200);
    const restored = restore.body as RestoreResponse;
    expect(restored.sourceService).toBe('spotify');
    expect(restored.destinationService).toBe('apple');
    expect(restored.playlist.id).toMatch(/^import:/);
    expect(restored.playlist.name).toMatch(/^Road Trip \(Spotify backup \d{4}-\d{2}-\d{2}\)$/);
    expect(restored.playlist.trackCount).toBe(roadTrip.tracks.length);

    // The restored playlist is now a transfer source like any import.
    const sources = (await client.get('/api/playlists/spotify')).body as PlaylistSummary[];
    expect(sources).toContainEqual(
      expect.objectContaining({ id: restored.playlist.id, trackCount: roadTrip.tracks.length }),
    );
  });

  it('says which playlist or backup is missing', async () => {
    const { client, userId } = await member('vault', ['spotify']);
    expect((await client.get(`/api/vault/backups/${randomUUID()}`)).status).toBe(404);
    const backupId = await saveTestBackup(server.deps.db, userId);
    const response = await client.post(`/api/vault/backups/${backupId}/restore`, {
      playlistId: 'nope',
      destinationService: 'apple',
    });
    expect(response.status).toBe(404);
    expect(message(response.body)).toBe('That playlist is not in this backup.');
  });

  it('does not show one person another person’s backup', async () => {
    const owner = await member('vault', ['spotify']);
    const backupId = await saveTestBackup(server.deps.db, owner.userId);
    const stranger = await member('vault', ['spotify']);
    expect((await stranger.client.get(`/api/vault/backups/${backupId}`)).status).toBe(404);
    expect((await stranger.client.get('/api/vault/backups')).body).toEqual([]);
  });

  it('resumes from its checkpoint instead of reading finished playlists again, recording each version once', async () => {
    const { client, userId } = await member('vault', ['spotify']);
    const provider = await server.deps.providers.forUser(userId, 'spotify');
    const listed = (await provider.listPlaylists()).map((playlist) => ({
      id: playlist.id,
      name: playlist.name,
    }));
    const [first, second] = listed;
    if (!first || !second) throw new Error('the demo library has fewer than two playlists');
    const backupId = randomUUID();
    const origin = `backup:${backupId}`;
    // Queued for later, so the server's runner cannot take it before it holds the checkpoint below.
    const job = await enqueueJob(server.deps.db, {
      kind: BACKUP_JOB,
      userId,
      payload: { userId, trigger: 'manual' },
      runAfter: new Date(Date.now() + 60 * 60_000),
    });
    // As a run that died after saving its first playlist, and after recording the second one's version
    // but before its checkpoint, would have left it; then it is due.
    const recorded = async (playlistId: string) => {
      const contents = await provider.getPlaylist(playlistId);
      return recordBackupVersion(server.deps.db, {
        userId,
        service: 'spotify',
        playlistId,
        name: contents.playlist.name,
        entries: contents.entries,
        mode: 'read',
        cause: 'backup',
        origin,
      });
    };
    const firstVersion = await recorded(first.id);
    await recorded(second.id);
    await server.deps.db
      .update(jobs)
      .set({
        runAfter: new Date(),
        state: {
          finished: [],
          current: {
            service: 'spotify',
            backupId,
            listed,
            read: [
              {
                id: first.id,
                name: 'Saved before the crash',
                description: null,
                skippedEntries: 0,
                trackCount: 0,
                versionId: firstVersion.id,
              },
            ],
            unreadable: [],
          },
        },
      })
      .where(eq(jobs.id, job.id));

    expect((await finished(job.id)).status).toBe('succeeded');
    const detail = (await client.get(`/api/vault/backups/${backupId}`)).body as BackupDetail;
    expect(detail.playlists.filter((playlist) => playlist.id === first.id)).toEqual([
      expect.objectContaining({ name: 'Saved before the crash' }),
    ]);
    expect(detail.playlists.filter((playlist) => playlist.id === second.id)).toHaveLength(1);
    expect(detail.playlists.length).toBeGreaterThan(2);
    // One version per playlist with the backup's origin: the resumed run found the one recorded before.
    const versions = await server.deps.db
      .select({ playlistId: playlistHistories.playlistId })
      .from(playlistVersions)
      .innerJoin(playlistHistories, eq(playlistHistories.id, playlistVersions.historyId))
      .where(and(eq(playlistVersions.userId, userId), eq(playlistVersions.origin, origin)));
    const perPlaylist = new Map<string, number>();
    for (const { playlistId } of versions)
      perPlaylist.set(playlistId, (perPlaylist.get(playlistId) ?? 0) + 1);
    expect([...perPlaylist.values()].every((count) => count === 1)).toBe(true);
    expect(perPlaylist.get(second.id)).toBe(1);
  });

  it('starts the service in progress over when its checkpoint was saved before backups were versions', async () => {
    const { client, userId } = await member('vault', ['spotify']);
    const job = await enqueueJob(server.deps.db, {
      kind: BACKUP_JOB,
      userId,
      payload: { userId, trigger: 'manual' },
      runAfter: new Date(Date.now() + 60 * 60_000),
    });
    // A checkpoint as the job wrote it with `backup_snapshots.contents`: the tracks in the checkpoint.
    const oldSnapshotId = randomUUID();
    await server.deps.db
      .update(jobs)
      .set({
        runAfter: new Date(),
        state: {
          finished: [],
          current: {
            service: 'spotify',
            snapshotId: oldSnapshotId,
            listed: [{ id: 'gone', name: 'Read before the upgrade' }],
            playlists: [
              {
                id: 'gone',
                name: 'Read before the upgrade',
                description: null,
                tracks: [],
                skippedEntries: 0,
              },
            ],
            unreadable: [],
          },
        },
      })
      .where(eq(jobs.id, job.id));

    expect((await finished(job.id)).status).toBe('succeeded');
    const list = (await client.get('/api/vault/backups')).body as BackupSummary[];
    expect(list).toHaveLength(1);
    expect(list[0]?.id).not.toBe(oldSnapshotId);
    const detail = (await client.get(`/api/vault/backups/${list[0]?.id}`)).body as BackupDetail;
    const names = [...detail.playlists, ...detail.unreadable].map((playlist) => playlist.name).sort();
    expect(names).toEqual(
      testCatalog()
        .demoLibraries.spotify.map((playlist) => playlist.name)
        .sort(),
    );
  });

  it('shows the tracks of a playlist that did not change since the last backup', async () => {
    const { client, userId } = await member('vault', ['spotify']);
    const backUp = async () => {
      const { jobId } = (await client.post('/api/vault/backups')).body as { jobId: string };
      expect((await finished(jobId)).status).toBe('succeeded');
    };
    await backUp();
    await backUp();
    const list = (await client.get('/api/vault/backups')).body as BackupSummary[];
    expect(list).toHaveLength(2);
    const [newer, older] = await Promise.all(
      list.map(
        async (summary) => (await client.get(`/api/vault/backups/${summary.id}`)).body as BackupDetail,
      ),
    );
    const roadTrip = (detail: BackupDetail | undefined) =>
      detail?.playlists.find((playlist) => playlist.name === 'Road Trip');
    const expected = demoPlaylist(testCatalog(), 'spotify', 'Road Trip');
    expect(roadTrip(newer)?.tracks.map((track) => track.id)).toEqual(expected.trackIds);
    expect(roadTrip(newer)?.tracks).toEqual(roadTrip(older)?.tracks);
    expect(newer?.trackCount).toBe(older?.trackCount);
    // Nothing changed, so the second backup recorded no version: both link the first one's.
    const history = await server.deps.db
      .select({ origin: playlistVersions.origin })
      .from(playlistVersions)
      .innerJoin(playlistHistories, eq(playlistHistories.id, playlistVersions.historyId))
      .where(and(eq(playlistVersions.userId, userId), eq(playlistHistories.name, 'Road Trip')));
    expect(history).toEqual([{ origin: `backup:${older?.id}` }]);
  });

  it('keeps the newest backups per service and removes older ones', async () => {
    const { client, userId } = await member('vault', ['spotify']);
    for (let index = 0; index < BACKUPS_KEPT_PER_SERVICE; index++) {
      await saveTestBackup(server.deps.db, userId, {
        trigger: 'scheduled',
        createdAt: new Date(Date.UTC(2026, 0, 1 + index)),
      });
    }
    const { jobId } = (await client.post('/api/vault/backups')).body as { jobId: string };
    expect((await finished(jobId)).status).toBe('succeeded');

    const list = (await client.get('/api/vault/backups')).body as BackupSummary[];
    expect(list).toHaveLength(BACKUPS_KEPT_PER_SERVICE);
    expect(list[0]?.trigger).toBe('manual');
    expect(list.some((backup) => backup.createdAt.startsWith('2026-01-01'))).toBe(false);
    expect(list.some((backup) => backup.createdAt.startsWith('2026-01-02'))).toBe(true);
  });

  it('fails with a clear message when no service is connected', async () => {
    const { client } = await member('vault');
    const { jobId } = (await client.post('/api/vault/backups')).body as { jobId: string };
    const job = await finished(jobId);
    expect(job.status).toBe('failed');
    expect(job.error).toBe('Connect Spotify or Apple Music to back up your playlists.');
  });
});

describe('daily backups', () => {
  it('enqueues one backup per Vault+ member with a connection per UTC day', async () => {
    const vault = await member('vault', ['spotify']);
    const unconnected = await member('vault');
    const pro = await member('pro', ['spotify']);
    const day = new Date('2030-01-15T03:00:00Z');
    const backupsOf = async (userId: string) =>
      (await server.deps.db.select().from(jobs).where(eq(jobs.userId, userId))).filter(
        (job) => job.dedupeKey !== null,
      );
    // Hold the jobs back so the runner does not run them while we count.
    const deps = { db: server.deps.db, jobs: { poke: () => undefined } };

    await scheduleDailyBackups(deps, day);
    await scheduleDailyBackups(deps, new Date('2030-01-15T21:00:00Z'));
    const first = await backupsOf(vault.userId);
    expect(first.map((job) => job.dedupeKey)).toEqual([dailyBackupKey(vault.userId, day)]);
    expect(first[0]?.dedupeKey).toBe(`backup:${vault.userId}:2030-01-15`);
    expect(first[0]?.payload).toEqual({ userId: vault.userId, trigger: 'scheduled' });
    expect(await backupsOf(unconnected.userId)).toEqual([]);
    expect(await backupsOf(pro.userId)).toEqual([]);

    await scheduleDailyBackups(deps, new Date('2030-01-16T00:30:00Z'));
    expect((await backupsOf(vault.userId)).map((job) => job.dedupeKey).sort()).toEqual([
      `backup:${vault.userId}:2030-01-15`,
      `backup:${vault.userId}:2030-01-16`,
    ]);
  });
});
