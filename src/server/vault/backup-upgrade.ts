import type { Database } from '../db/client';
import { recordBackupVersion } from '../history/playlist-history';
import type { PlaylistEntry } from '../providers/types';
import { parseOldBackupContents } from './backup-contents';
import {
  type BackupPlaylistRead,
  backupsWithContents,
  hasBackupPlaylists,
  insertBackupPlaylists,
  oldBackupContents,
} from './backup-store';

/**
 * The upgrade of decision 0038, run once at start between migrations 0020 and 0021 (db/migrate.ts): every
 * backup made before it kept its playlists in its `contents` column; each becomes a version of that
 * playlist's history (cause `backup`, origin `backup:<id>`, at the backup's time) linked by
 * `backup_playlists`. Idempotent by origin: a playlist that has a version with the backup's origin (every
 * backup since decision 0030 recorded one when the playlist had changed) links that version, and a run
 * cut short runs again at the next start, recording nothing twice. Answers how many backups it moved.
 */
export async function moveBackupContentsIntoHistory(db: Database): Promise<number> {
  let moved = 0;
  for (const backup of await backupsWithContents(db)) {
    if (await hasBackupPlaylists(db, backup.id)) continue;
    const playlists: BackupPlaylistRead[] = [];
    for (const playlist of parseOldBackupContents(await oldBackupContents(db, backup.id))) {
      const entries: PlaylistEntry[] = playlist.tracks.map((track, position) => ({
        position,
        kind: 'track',
        track,
      }));
      const version = await recordBackupVersion(db, {
        userId: backup.userId,
        service: backup.service,
        playlistId: playlist.id,
        name: playlist.name,
        entries,
        // The backup's own record of the playlist: cause `backup`, whatever came before it.
        mode: 'write',
        cause: 'backup',
        origin: `backup:${backup.id}`,
        at: backup.createdAt,
      });
      playlists.push({
        id: playlist.id,
        name: playlist.name,
        description: playlist.description,
        skippedEntries: playlist.skippedEntries,
        trackCount: playlist.tracks.length,
        versionId: version.id,
      });
    }
    // The header stays as it was (its counts; migration 0020 copied its unreadable playlists).
    await insertBackupPlaylists(db, backup.id, playlists);
    moved++;
  }
  return moved;
}
