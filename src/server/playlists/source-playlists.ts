import type { PlaylistSummary as PlaylistDto, Track } from '../../shared/api/playlists';
import { FOLLOWED_PLAYLIST_MESSAGE, IMPORTED_PLAYLIST_PREFIX } from '../../shared/api/transfer';
import { LIKED_SONGS_ID, LIKED_SONGS_NAME } from '../../shared/library-ids';
import { SERVICE_LABELS, type ServiceId } from '../../shared/services';
import type { AppDeps } from '../app-context';
import type { Connection } from '../connections/connection-store';
import { readCacheOf } from '../db/read-cache';
import { isUuid } from '../db/uuid';
import { conflict, notFound } from '../domain-errors';
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
import { playlistListCache } from './playlist-list-cache';

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
  const [own, imported] = await Promise.all([
    cachedServicePlaylists(deps, userId, service),
    listImported(deps, userId),
  ]);
  return [...own.entries, ...imported];
}

/**
 * The same list as JSON, for step 2's read (decision 0032): the service's part comes from the person's
 * short-lived cache, the imported files from the database on every read (another process may have just
 * saved one).
 */
export async function listSourcePlaylistsJson(
  deps: AppDeps,
  userId: string,
  service: ServiceId,
  options: { fresh?: boolean } = {},
): Promise<Uint8Array<ArrayBuffer>> {
  const [own, imported] = await Promise.all([
    cachedServicePlaylists(deps, userId, service, options.fresh),
    listImported(deps, userId),
  ]);
  if (imported.length === 0) return own.json;
  const parts = [own.inner, JSON.stringify(imported).slice(1, -1)].filter((part) => part !== '');
  return new TextEncoder().encode(`[${parts.join(',')}]`);
}

async function cachedServicePlaylists(deps: AppDeps, userId: string, service: ServiceId, fresh = false) {
  const cache = playlistListCache(deps.db, deps.config.PLAYLISTS_CACHE_SECONDS);
  const readCache = readCacheOf(deps.db);
  const generation = readCache?.generation;
  let connection: Connection | undefined;
  const readConnection = async () => {
    connection ??= (await deps.providers.connections.get(userId, service)) ?? undefined;
    if (!connection) throw conflict(`Please connect to ${SERVICE_LABELS[service]} before continuing.`);
    return connection;
  };
  let key = generation === undefined ? undefined : cache.knownConnection(userId, service, generation);
  if (!key) {
    const read = await readConnection();
    key = { userId, service, providerUserId: read.providerUserId, authorizedAt: read.authorizedAt };
    if (generation !== undefined && readCache?.generation === generation)
      cache.rememberConnection(key, generation);
  }
  const listKey = key;
  return cache.get(
    listKey,
    async () => {
      const provider = deps.providers.providerFor(await readConnection());
      const knownCounts = cache.knownCounts(listKey);
      const listedAt = Date.now();
      const [library, remote] = await Promise.all([
        listLibrary(provider, service),
        provider.listPlaylists({ knownCounts }),
      ]);
      cache.rememberCounts(listKey, remote, knownCounts, listedAt);
      // Development mode lets the app read only the person's own (or collaborative) playlists: say so on
      // step 2, before anyone picks a followed one and meets the refusal in step 3.
      const unreadable = service === 'spotify' && deps.config.SPOTIFY_MODE === 'development';
      return [
        ...library,
        ...remote.map((playlist) => ({
          ...toPlaylistDto(playlist),
          kind: 'playlist' as const,
          ...(unreadable && playlist.isOwned === false
            ? { unreadableReason: FOLLOWED_PLAYLIST_MESSAGE }
            : {}),
        })),
      ];
    },
    fresh,
  );
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
