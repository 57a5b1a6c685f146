import { z } from 'zod';
import type { BackupDetail } from '../../shared/api/vault';
import type { Database } from '../db/client';
import type { StoredTrack } from '../history/history-codec';
import { locateVersions, readVersionTracks } from '../history/playlist-history';
import { toTrackDto } from '../playlists/source-playlists';
import { normalizedTrackSchema } from '../providers/normalized-track-schema';
import type { NormalizedTrack } from '../providers/types';
import type { BackupPlaylistRow, BackupRow } from './backup-store';
import { loadBackupPlaylists, toBackupSummary } from './backup-store';

/**
 * What a backup holds (decision 0038): its header row, and per playlist a link to the version of the
 * playlist's history it found current. The tracks are read from that version (history-codec.ts).
 */

/** A playlist of a backup with its tracks, as a restore takes them. */
export interface BackupPlaylistTracks {
  id: string;
  name: string;
  description: string | null;
  skippedEntries: number;
  tracks: NormalizedTrack[];
}

/**
 * A version's tracks as a backup shows them: the entries the history keeps for a song that could not be
 * read (`unavailable:<name>|<artist>`, decision 0030) were skipped entries of the read, not tracks.
 */
function backedUpTracks(tracks: StoredTrack[]): NormalizedTrack[] {
  return tracks
    .filter((track) => !track.uri.startsWith('unavailable:'))
    .map((track) => ({
      id: track.id,
      uri: track.uri,
      name: track.name,
      artists: track.artists,
      album: track.album,
      durationMs: track.durationMs ?? 0,
      ...(track.isrc ? { isrc: track.isrc } : {}),
    }));
}

/** Every playlist of a backup (or only the one `only` names) with its tracks, replayed from the history store. */
export async function readBackupPlaylists(
  db: Database,
  backupId: string,
  only?: string,
): Promise<BackupPlaylistTracks[]> {
  const links = await loadBackupPlaylists(db, backupId);
  const versions = new Map(
    (await locateVersions(db, [...new Set(links.map((link) => link.versionId))])).map((version) => [
      version.id,
      version,
    ]),
  );
  const playlists: BackupPlaylistTracks[] = [];
  for (const link of links) {
    const version = versions.get(link.versionId);
    if (!version || (only !== undefined && version.playlistId !== only)) continue;
    const { tracks } = await readVersionTracks(db, version);
    playlists.push(toPlaylistTracks(link, version.playlistId, backedUpTracks(tracks)));
  }
  return playlists;
}

function toPlaylistTracks(
  link: BackupPlaylistRow,
  playlistId: string,
  tracks: NormalizedTrack[],
): BackupPlaylistTracks {
  return {
    id: playlistId,
    name: link.name,
    description: link.description,
    skippedEntries: link.skippedEntries,
    tracks,
  };
}

export function toBackupDetail(row: BackupRow, playlists: BackupPlaylistTracks[]): BackupDetail {
  return {
    ...toBackupSummary(row),
    playlists: playlists.map((playlist) => ({
      id: playlist.id,
      name: playlist.name,
      description: playlist.description,
      tracks: playlist.tracks.map(toTrackDto),
      skippedEntries: playlist.skippedEntries,
    })),
    unreadable: row.unreadable,
  };
}

/** The `contents` column backups had before decision 0038: read as far as it can be (vault/backup-upgrade.ts). */
const oldContentsSchema = z.object({
  playlists: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      description: z.string().nullable().default(null),
      tracks: z.array(normalizedTrackSchema),
      skippedEntries: z.number().default(0),
    }),
  ),
});

export type OldBackupPlaylist = z.infer<typeof oldContentsSchema>['playlists'][number];

export function parseOldBackupContents(value: unknown): OldBackupPlaylist[] {
  const parsed = oldContentsSchema.safeParse(value);
  return parsed.success ? parsed.data.playlists : [];
}
