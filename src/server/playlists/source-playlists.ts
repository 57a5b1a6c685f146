import type { PlaylistSummary as PlaylistDto, Track } from '../../shared/api/playlists';
import { FOLLOWED_PLAYLIST_MESSAGE, IMPORTED_PLAYLIST_PREFIX } from '../../shared/api/transfer';
import { LIKED_SONGS_ID, LIKED_SONGS_NAME } from '../../shared/library-ids';
import type { ServiceId } from '../../shared/services';
import type { AppDeps } from '../app-context';
import { isUuid } from '../db/uuid';
import { notFound } from '../domain-errors';
import { ProviderError } from '../providers/http';
import type {
  MusicProvider,
  NormalizedTrack,
  PlaylistContents,
  PlaylistReadOptions,
  PlaylistSummary,
} from '../providers/types';
import {
  findImportedPlaylist,
  insertImportedPlaylist,
  listImportedSummaries,
} from './imported-playlist-store';

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
    ...(playlist.trackCountUnknown ? { trackCountUnknown: true } : {}),
    ...(playlist.imageUrl ? { imageUrl: playlist.imageUrl } : {}),
    ...(playlist.description ? { description: playlist.description } : {}),
    ...(playlist.ownerName ? { ownerName: playlist.ownerName } : {}),
    ...(playlist.isOwned !== undefined ? { isOwned: playlist.isOwned } : {}),
    ...(playlist.updatedAt ? { updatedAt: playlist.updatedAt } : {}),
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
  const [library, remote, imported] = await Promise.all([
    listLibrary(provider, service),
    provider.listPlaylists(),
    listImported(deps, userId),
  ]);
  // Development mode lets the app read only the person's own (or collaborative) playlists: say so on
  // step 2, before anyone picks a followed one and meets the refusal in step 3.
  const unreadable = service === 'spotify' && deps.config.SPOTIFY_MODE === 'development';
  return [
    ...library,
    ...remote.map((playlist) => ({
      ...toPlaylistDto(playlist),
      kind: 'playlist' as const,
      ...(unreadable && playlist.isOwned === false ? { unreadableReason: FOLLOWED_PLAYLIST_MESSAGE } : {}),
    })),
    ...imported,
  ];
}

/** Said on the Liked Songs entry of a connection made before Crossfade asked for the library scopes. */
export const LIBRARY_SCOPE_MESSAGE =
  'Reconnect Spotify to let Crossfade read your Liked Songs and saved albums.';

/**
 * The library above the playlists (issue 14): Liked Songs / Favourite Songs, then each saved album. A
 * Spotify connection without the library scopes (made before they were asked for) answers 403: the
 * playlists are still listed, and the Liked Songs entry says to reconnect.
 */
async function listLibrary(provider: MusicProvider, service: ServiceId): Promise<PlaylistDto[]> {
  try {
    const { liked, albums } = await provider.listLibrary();
    return [
      { ...toPlaylistDto(liked), kind: 'liked' as const },
      ...albums.map(({ summary }) => ({ ...toPlaylistDto(summary), kind: 'album' as const })),
    ];
  } catch (error) {
    if (!(error instanceof ProviderError) || error.kind !== 'forbidden') throw error;
    return [
      {
        id: LIKED_SONGS_ID,
        name: LIKED_SONGS_NAME[service],
        trackCount: 0,
        kind: 'liked' as const,
        unreadableReason: LIBRARY_SCOPE_MESSAGE,
      },
    ];
  }
}

async function listImported(deps: AppDeps, userId: string): Promise<PlaylistDto[]> {
  const rows = await listImportedSummaries(deps.db, userId);
  return rows.map((row) => ({
    id: `${IMPORT_PREFIX}${row.id}`,
    name: row.name,
    trackCount: row.trackCount,
    description: 'Imported from a file',
    isOwned: true,
    kind: 'playlist' as const,
  }));
}

export async function saveImportedPlaylist(
  deps: AppDeps,
  input: { userId: string; name: string; originService: ServiceId | null; tracks: NormalizedTrack[] },
) {
  return `${IMPORT_PREFIX}${await insertImportedPlaylist(deps.db, input)}`;
}

/** Every entry of a source playlist, in order. */
export async function loadSourcePlaylist(
  deps: AppDeps,
  userId: string,
  service: ServiceId,
  playlistId: string,
  options?: PlaylistReadOptions,
): Promise<PlaylistContents> {
  if (playlistId.startsWith(IMPORT_PREFIX)) {
    const id = playlistId.slice(IMPORT_PREFIX.length);
    const row = isUuid(id) ? await findImportedPlaylist(deps.db, userId, id) : undefined;
    if (!row) throw notFound('That imported playlist does not exist (any more).');
    const tracks = row.tracks;
    return {
      playlist: { id: playlistId, name: row.name, trackCount: tracks.length, isOwned: true },
      entries: tracks.map((track, position) => ({ position, kind: 'track', track })),
    };
  }
  const provider = await deps.providers.forUser(userId, service);
  return provider.getPlaylist(playlistId, options);
}
