import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackupDetail, BackupSummary } from '../../shared/api/vault';
import { hashPassword } from '../auth/passwords';
import type { DatabaseHandle } from '../db/client';
import { runMigrations } from '../db/migrate';
import { backupPlaylists, playlistVersions } from '../db/schema';
import { recordBackupVersion } from '../history/playlist-history';
import type { NormalizedTrack } from '../providers/types';
import { backupTrack } from '../testing/backups';
import { createTestDatabase } from '../testing/test-database';
import { startTestServer, type TestServer } from '../testing/test-server';
import { moveBackupContentsIntoHistory } from './backup-upgrade';

/**
 * Decision 0038: a database from before it (backups with their `contents`) upgrades at start without
 * losing a backup, and the upgrade records nothing twice.
 */

const USERNAME = 'upgrader';
const PASSWORD = 'correct horse';
const [t1, t2, t3, t4, t5] = ['t1', 't2', 't3', 't4', 't5'].map((id) => backupTrack(id)) as NormalizedTrack[];

interface OldPlaylist {
  id: string;
  name: string;
  description: string | null;
  tracks: NormalizedTrack[];
  skippedEntries: number;
}

/** Three old backups: the first two of the same playlists (one unchanged, one changed), the third made after decision 0030. */
const older = {
  id: randomUUID(),
  createdAt: new Date('2026-10-01T03:00:00Z'),
  playlists: [
    { id: 'road', name: 'Road Trip', description: 'for the car', tracks: [t1, t2, t3], skippedEntries: 1 },
    { id: 'gym', name: 'Gym', description: null, tracks: [t4], skippedEntries: 0 },
  ] as OldPlaylist[],
  unreadable: [{ id: 'followed', name: 'Followed', reason: 'Spotify would not let Crossfade read it.' }],
};
const newer = {
  id: randomUUID(),
  createdAt: new Date('2026-10-02T03:00:00Z'),
  playlists: [
    { id: 'road', name: 'Road Trip', description: 'for the car', tracks: [t1, t2, t3], skippedEntries: 1 },
    { id: 'gym', name: 'Gym (new)', description: null, tracks: [t4, t5], skippedEntries: 0 },
  ] as OldPlaylist[],
  unreadable: [],
};
/** Made since decision 0030: its changed playlist already has a version with its origin. */
const since0030 = {
  id: randomUUID(),
  createdAt: new Date('2026-10-03T03:00:00Z'),
  playlists: [
    { id: 'gym', name: 'Gym', description: null, tracks: [t5], skippedEntries: 0 },
  ] as OldPlaylist[],
  unreadable: [],
};
const oldBackups = [older, newer, since0030];

let database: DatabaseHandle;
let server: TestServer;
let userId: string;

async function versionsOf(backupIds: string[]) {
  return database.db
    .select({ id: playlistVersions.id, origin: playlistVersions.origin })
    .from(playlistVersions)
    .where(
      inArray(
        playlistVersions.origin,
        backupIds.map((id) => `backup:${id}`),
      ),
    );
}

const linksOf = (backupId: string) =>
  database.db.select().from(backupPlaylists).where(eq(backupPlaylists.backupId, backupId));

beforeAll(async () => {
  // As version 0019 of the schema left a self-hoster's database, with a person and their old backups.
  database = await createTestDatabase({ stopAfter: '0019_one_name_per_thing' });
  const db = database.db;
  const [user] = (
    (await db.execute(
      sql`insert into users (username, email, password_hash, plan) values (${USERNAME}, 'upgrader@example.com', ${await hashPassword(PASSWORD)}, 'vault') returning id`,
    )) as unknown as { rows: { id: string }[] }
  ).rows;
  if (!user) throw new Error('no user');
  userId = user.id;
  for (const backup of oldBackups) {
    const contents = { playlists: backup.playlists, unreadable: backup.unreadable };
    const trackCount = backup.playlists.reduce((sum, playlist) => sum + playlist.tracks.length, 0);
    await db.execute(
      sql`insert into backup_snapshots (id, user_id, service, trigger, playlist_count, track_count, contents, created_at)
          values (${backup.id}, ${userId}, 'spotify', 'scheduled', ${backup.playlists.length}, ${trackCount}, ${JSON.stringify(contents)}::jsonb, ${backup.createdAt.toISOString()})`,
    );
  }
  // The backup job since decision 0030 recorded each changed playlist as a version with its origin.
  await recordBackupVersion(db, {
    userId,
    service: 'spotify',
    playlistId: 'gym',
    name: 'Gym',
    entries: [{ position: 0, kind: 'track', track: backupTrack('t5') }],
    mode: 'read',
    cause: 'backup',
    origin: `backup:${since0030.id}`,
    at: since0030.createdAt,
  });
}, 120_000);

afterAll(async () => {
  if (server) await server.close();
  else await database?.close();
});

describe('the upgrade of backups into the history store', () => {
  it('records every old backup once, even when it runs again after being cut short', async () => {
    // Migration 0020 and the step after it; 0021 (which drops `contents`) has not run yet.
    await runMigrations(database.db, { stopAfter: '0020_backups_header' });
    const ids = oldBackups.map((backup) => backup.id);
    const versions = await versionsOf(ids);
    // Road Trip once (the newer backup found it unchanged), Gym twice, and the one recorded since 0030.
    expect(versions.map((version) => version.origin).sort()).toEqual(
      [`backup:${older.id}`, `backup:${older.id}`, `backup:${newer.id}`, `backup:${since0030.id}`].sort(),
    );
    expect((await linksOf(older.id)).length).toBe(2);
    expect((await linksOf(newer.id)).length).toBe(2);
    expect((await linksOf(since0030.id)).length).toBe(1);

    // As if it had stopped after recording the newer backup's versions but before its links.
    await database.db.delete(backupPlaylists).where(eq(backupPlaylists.backupId, newer.id));
    expect(await moveBackupContentsIntoHistory(database.db)).toBe(1);
    expect(await moveBackupContentsIntoHistory(database.db)).toBe(0);
    expect((await versionsOf(ids)).map((version) => version.id).sort()).toEqual(
      versions.map((version) => version.id).sort(),
    );
    expect((await linksOf(newer.id)).length).toBe(2);

    // The rest of the migrations: `contents` is gone, and the step finds nothing more to move.
    await runMigrations(database.db);
    expect(await moveBackupContentsIntoHistory(database.db)).toBe(0);
    expect((await versionsOf(ids)).length).toBe(versions.length);
  });

  it('serves every old backup with the same playlists and tracks', async () => {
    server = await startTestServer({ database });
    const client = server.newClient();
    expect((await client.post('/api/auth/login', { username: USERNAME, password: PASSWORD })).status).toBe(
      200,
    );
    const list = (await client.get('/api/vault/backups')).body as BackupSummary[];
    expect(list.map((summary) => summary.id)).toEqual([since0030.id, newer.id, older.id]);
    for (const backup of oldBackups) {
      const response = await client.get(`/api/vault/backups/${backup.id}`);
      expect(response.status).toBe(200);
      const detail = response.body as BackupDetail;
      expect(detail).toMatchObject({
        id: backup.id,
        service: 'spotify',
        trigger: 'scheduled',
        createdAt: backup.createdAt.toISOString(),
        playlistCount: backup.playlists.length,
        trackCount: backup.playlists.reduce((sum, playlist) => sum + playlist.tracks.length, 0),
        unreadable: backup.unreadable,
      });
      expect(detail.playlists).toEqual(
        backup.playlists.map((playlist) => ({
          id: playlist.id,
          name: playlist.name,
          description: playlist.description,
          skippedEntries: playlist.skippedEntries,
          tracks: playlist.tracks.map((track) => ({
            id: track.id,
            name: track.name,
            artists: track.artists,
            album: track.album,
            uri: track.uri,
            durationMs: track.durationMs,
          })),
        })),
      );
    }
  });
});
