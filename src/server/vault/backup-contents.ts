import { z } from 'zod';
import type { BackupDetail, BackupSummary } from '../../shared/api/vault';
import type { backupSnapshots } from '../db/schema';
import { toTrackDto } from '../playlists/source-playlists';
import { normalizedTrackSchema } from '../providers/normalized-track-schema';
import type { NormalizedTrack } from '../providers/types';

/**
 * What a snapshot's `contents` column holds. Tracks are kept whole (ISRC, duration, release data) so a
 * restore matches as well as a transfer from the live playlist would.
 */
export interface StoredBackupPlaylist {
  id: string;
  name: string;
  description: string | null;
  tracks: NormalizedTrack[];
  skippedEntries: number;
}

export interface UnreadablePlaylist {
  id: string;
  name: string;
  reason: string;
}

export interface StoredBackupContents {
  playlists: StoredBackupPlaylist[];
  unreadable: UnreadablePlaylist[];
}

const storedContentsSchema = z.object({
  playlists: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      description: z.string().nullable().default(null),
      tracks: z.array(normalizedTrackSchema),
      skippedEntries: z.number().default(0),
    }),
  ),
  unreadable: z.array(z.object({ id: z.string(), name: z.string(), reason: z.string() })).default([]),
});

/** Reads a snapshot's contents; a row written by an older version still reads as far as it can. */
export function parseBackupContents(value: unknown): StoredBackupContents {
  const parsed = storedContentsSchema.safeParse(value);
  if (!parsed.success) return { playlists: [], unreadable: [] };
  return parsed.data;
}

type SnapshotRow = typeof backupSnapshots.$inferSelect;

export function toBackupSummary(row: Omit<SnapshotRow, 'contents' | 'userId'>): BackupSummary {
  return {
    id: row.id,
    service: row.service,
    createdAt: row.createdAt.toISOString(),
    trigger: row.trigger,
    playlistCount: row.playlistCount,
    trackCount: row.trackCount,
  };
}

export function toBackupDetail(row: SnapshotRow): BackupDetail {
  const contents = parseBackupContents(row.contents);
  return {
    ...toBackupSummary(row),
    playlists: contents.playlists.map((playlist) => ({
      id: playlist.id,
      name: playlist.name,
      description: playlist.description,
      tracks: playlist.tracks.map(toTrackDto),
      skippedEntries: playlist.skippedEntries,
    })),
    unreadable: contents.unreadable,
  };
}
