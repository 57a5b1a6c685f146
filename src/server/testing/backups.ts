import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { ServiceId } from '../../shared/services';
import type { Database } from '../db/client';
import { backups } from '../db/schema';
import { recordBackupVersion } from '../history/playlist-history';
import type { NormalizedTrack } from '../providers/types';
import { insertBackup } from '../vault/backup-store';

/** A track of a test backup: enough for the history store and the Vault API. */
export const backupTrack = (id: string, name = `Song ${id}`): NormalizedTrack => ({
  id,
  uri: `spotify:track:${id}`,
  name,
  artists: ['Artist'],
  album: 'Album',
  durationMs: 200_000,
});

/**
 * A backup saved as the backup job saves one (decision 0038): each playlist's tracks a version of its
 * history (the one found current when nothing changed), the header and its links through the store.
 * `createdAt` dates the header (the versions keep the time they were recorded).
 */
export async function saveTestBackup(
  db: Database,
  userId: string,
  options: {
    service?: ServiceId;
    trigger?: 'scheduled' | 'manual';
    playlists?: { id: string; name: string; tracks: NormalizedTrack[] }[];
    createdAt?: Date;
  } = {},
): Promise<string> {
  const id = randomUUID();
  const service = options.service ?? 'spotify';
  const read = [];
  for (const playlist of options.playlists ?? []) {
    const version = await recordBackupVersion(db, {
      userId,
      service,
      playlistId: playlist.id,
      name: playlist.name,
      entries: playlist.tracks.map((track, position) => ({ position, kind: 'track', track })),
      mode: 'read',
      cause: 'backup',
      origin: `backup:${id}`,
    });
    read.push({
      id: playlist.id,
      name: playlist.name,
      description: null,
      skippedEntries: 0,
      trackCount: playlist.tracks.length,
      versionId: version.id,
    });
  }
  await insertBackup(db, {
    id,
    userId,
    service,
    trigger: options.trigger ?? 'manual',
    playlists: read,
    unreadable: [],
  });
  if (options.createdAt)
    await db.update(backups).set({ createdAt: options.createdAt }).where(eq(backups.id, id));
  return id;
}
