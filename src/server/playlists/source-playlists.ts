import { and, desc, eq } from 'drizzle-orm';
import type { PlaylistSummary as PlaylistDto, Track } from '../../shared/api/playlists';
import { FOLLOWED_PLAYLIST_MESSAGE, IMPORTED_PLAYLIST_PREFIX } from '../../shared/api/transfer';
import type { ServiceId } from '../../shared/services';
import type { AppDeps } from '../app-context';
import { importedPlaylists } from '../db/schema';
import { notFound } from '../http/errors';
import type { NormalizedTrack, PlaylistContents, PlaylistSummary } from '../providers/types';

/**
 * Where a transfer's source comes from: the person's playlists on a service, or a file they imported
 * (ids `import:<uuid>`, listed under every source service since a file is not tied to one).
 */
export const IMPORT_PREFIX = IMPORTED_PLAYLIST_PREFIX;

export function toPlaylistDto(playlist: PlaylistSummary): PlaylistDto {
  return {
    id: playlist.id,
    name: playlist.name,
    trackCount: playlist.trackCount,
    ...(playlist.imageUrl ? { imageUrl: playlist.imageUrl } : {}),
    ...(playlist.description ? { description: playlist.description } : {}),
    ...(playlist.ownerName ? { ownerName: playlist.ownerName } : {}),
    ...(playlist.isOwned !== undefined ? { isOwned: playlist.isOwned } : {}),
  };
}

export function toTrackDto(track: NormalizedTrack): Track {
  return {
    id: track.id,
    name: track.name,
    artists: track.artists,
    album: track.album,
    uri: track.uri,
    durationMs: track.durationMs,
    ...(track.imageUrl ? { imageUrl: track.imageUrl } : {}),
    ...(track.isrc ? { isrc: track.isrc } : {}),
    ...(track.explicit !== undefined ? { explicit: track.explicit } : {}),
  };
}

export async function listSourcePlaylists(
  deps: AppDeps,
  userId: string,
  service: ServiceId,
): Promise<PlaylistDto[]> {
  const provider = await deps.providers.forUser(userId, service);
  const [remote, imported] = await Promise.all([provider.listPlaylists(), listImported(deps, userId)]);
  // Development mode lets the app read only the person's own (or collaborative) playlists: say so on
  // step 2, before anyone picks a followed one and meets the refusal in step 3.
  const unreadable = service === 'spotify' && deps.config.SPOTIFY_MODE === 'development';
  return [
    ...remote.map((playlist) => ({
      ...toPlaylistDto(playlist),
      ...(unreadable && playlist.isOwned === false ? { unreadableReason: FOLLOWED_PLAYLIST_MESSAGE } : {}),
    })),
    ...imported,
  ];
}

async function listImported(deps: AppDeps, userId: string): Promise<PlaylistDto[]> {
  const rows = await deps.db
    .select({ id: importedPlaylists.id, name: importedPlaylists.name, tracks: importedPlaylists.tracks })
    .from(importedPlaylists)
    .where(eq(importedPlaylists.userId, userId))
    .orderBy(desc(importedPlaylists.createdAt));
  return rows.map((row) => ({
    id: `${IMPORT_PREFIX}${row.id}`,
    name: row.name,
    trackCount: row.tracks.length,
    description: 'Imported from a file',
    isOwned: true,
  }));
}

export async function saveImportedPlaylist(
  deps: AppDeps,
  input: { userId: string; name: string; originService: ServiceId | null; tracks: NormalizedTrack[] },
) {
  const [row] = await deps.db.insert(importedPlaylists).values(input).returning({ id: importedPlaylists.id });
  if (!row) throw new Error('import insert returned no row');
  return `${IMPORT_PREFIX}${row.id}`;
}

/** Every entry of a source playlist, in order. */
export async function loadSourcePlaylist(
  deps: AppDeps,
  userId: string,
  service: ServiceId,
  playlistId: string,
): Promise<PlaylistContents> {
  if (playlistId.startsWith(IMPORT_PREFIX)) {
    const id = playlistId.slice(IMPORT_PREFIX.length);
    const [row] = /^[0-9a-f-]{36}$/.test(id)
      ? await deps.db
          .select()
          .from(importedPlaylists)
          .where(and(eq(importedPlaylists.id, id), eq(importedPlaylists.userId, userId)))
      : [];
    if (!row) throw notFound('That imported playlist does not exist (any more).');
    const tracks = row.tracks;
    return {
      playlist: { id: playlistId, name: row.name, trackCount: tracks.length, isOwned: true },
      entries: tracks.map((track, position) => ({ position, kind: 'track', track })),
    };
  }
  const provider = await deps.providers.forUser(userId, service);
  return provider.getPlaylist(playlistId);
}
