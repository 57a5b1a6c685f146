import { genreNames, slugify } from './apple-style';
import type { AppleSongRecord } from './catalog-index';
import type { LibraryPlaylist, LibrarySong } from './library';

/** Apple's JSON for each resource, as documented in provider-apis.md B.5. */

const ARTWORK_HOST = 'https://is1-ssl.mzstatic.com/image/thumb/Music/v4/sandbox';

export function artwork(seed: string) {
  return {
    url: `${ARTWORK_HOST}/${seed}/{w}x{h}bb.jpg`,
    width: 3000,
    height: 3000,
    bgColor: '1b1b1f',
    textColor1: 'ffffff',
    textColor2: 'e0e0e0',
  };
}

/** Apple marks explicit songs and their edited versions; everything else carries no rating. */
function contentRating(explicit: boolean, clean: boolean) {
  if (explicit) return { contentRating: 'explicit' };
  return clean ? { contentRating: 'clean' } : {};
}

export function renderSong(record: AppleSongRecord, storefront: string) {
  const { track } = record;
  const albumSlug = slugify(record.release?.name ?? record.albumName);
  return {
    id: record.id,
    type: 'songs' as const,
    href: `/v1/catalog/${storefront}/songs/${record.id}`,
    attributes: {
      name: record.name,
      artistName: record.artistName,
      albumName: record.albumName,
      durationInMillis: track.durationMs,
      isrc: track.isrc,
      ...contentRating(track.explicit, track.version === 'clean'),
      artwork: artwork(record.albumId),
      url: `https://music.apple.com/${storefront}/album/${albumSlug}/${record.albumId}?i=${record.id}`,
      playParams: { id: record.id, kind: 'song' },
      previews: [{ url: `https://audio-ssl.itunes.apple.com/itunes-assets/sandbox/${record.id}.m4a` }],
      genreNames: genreNames(track.genres),
      releaseDate: record.release?.releaseDate ?? '2000',
      trackNumber: track.trackNumber,
      discNumber: track.discNumber,
      hasLyrics: true,
      isAppleDigitalMaster: false,
      artistUrl: `https://music.apple.com/${storefront}/artist/${slugify(record.artistName)}/${record.albumId}0`,
    },
  };
}

/** A library song; `catalog` is only present with `include=catalog` (empty when the song is not in the storefront). */
export function renderLibrarySong(song: LibrarySong, storefront: string, includeCatalog: boolean) {
  const matched = song.source.kind === 'catalog' ? song.source.record : undefined;
  const attributes = {
    name: song.name,
    artistName: song.artistName,
    ...(song.albumName ? { albumName: song.albumName } : {}),
    durationInMillis: song.durationMs,
    // Uploads have artwork Apple did not size: width and height come as null.
    artwork: matched ? artwork(matched.albumId) : { ...artwork(song.id), width: null, height: null },
    ...contentRating(song.explicit, matched?.track.version === 'clean'),
    genreNames: song.genreNames,
    hasLyrics: matched !== undefined,
    playParams: {
      id: song.id,
      kind: 'song',
      isLibrary: true,
      reporting: matched !== undefined,
      ...(matched ? { catalogId: matched.id } : {}),
    },
    trackNumber: song.trackNumber,
    discNumber: song.discNumber,
    ...(song.releaseDate ? { releaseDate: song.releaseDate } : {}),
  };
  const base = {
    id: song.id,
    type: 'library-songs' as const,
    href: `/v1/me/library/songs/${song.id}`,
    attributes,
  };
  if (!includeCatalog) return base;
  const inStorefront = matched?.storefronts.has(storefront) ? [renderSong(matched, storefront)] : [];
  return {
    ...base,
    relationships: { catalog: { href: `/v1/me/library/songs/${song.id}/catalog`, data: inStorefront } },
  };
}

export function renderLibraryPlaylist(playlist: LibraryPlaylist) {
  return {
    id: playlist.id,
    type: 'library-playlists' as const,
    href: `/v1/me/library/playlists/${playlist.id}`,
    attributes: {
      name: playlist.name,
      description: { standard: playlist.description },
      canEdit: playlist.canEdit,
      canDelete: false,
      isPublic: playlist.globalId !== undefined,
      hasCatalog: true,
      hasCollaboration: false,
      dateAdded: playlist.dateAdded,
      lastModifiedDate: playlist.lastModifiedDate,
      artwork: artwork(playlist.id),
      playParams: {
        id: playlist.id,
        kind: 'playlist',
        isLibrary: true,
        ...(playlist.globalId ? { globalId: playlist.globalId } : {}),
      },
      trackTypes: ['songs'],
    },
  };
}

/** The user-shared catalog view of a public library playlist (`pl.u-…`). */
export function renderCatalogPlaylist(playlist: LibraryPlaylist, globalId: string, storefront: string) {
  return {
    id: globalId,
    type: 'playlists' as const,
    href: `/v1/catalog/${storefront}/playlists/${globalId}`,
    attributes: {
      name: playlist.name,
      curatorName: playlist.curatorName,
      description: { standard: playlist.description },
      artwork: artwork(globalId),
      url: `https://music.apple.com/${storefront}/playlist/${slugify(playlist.name)}/${globalId}`,
      isChart: false,
      lastModifiedDate: playlist.lastModifiedDate,
      playlistType: 'user-shared',
      playParams: { id: globalId, kind: 'playlist' },
      trackTypes: ['songs'],
    },
  };
}

export interface AppleErrorInput {
  status: number;
  code: string;
  title: string;
  detail?: string;
  parameter?: string;
}

/** `{"errors":[…]}` with status and code as strings, the way Apple sends them. */
export function errorBody({ status, code, title, detail, parameter }: AppleErrorInput) {
  return {
    errors: [
      {
        id: crypto.randomUUID().toUpperCase(),
        title,
        ...(detail ? { detail } : {}),
        status: String(status),
        code,
        ...(parameter ? { source: { parameter } } : {}),
      },
    ],
  };
}

export const NOT_FOUND = { status: 404, code: '40400', title: 'Resource Not Found' } as const;
export const notFound = (detail: string): AppleErrorInput => ({ ...NOT_FOUND, detail });
export const badParameter = (parameter: string, detail: string): AppleErrorInput => ({
  status: 400,
  code: '40005',
  title: 'Invalid Parameter Value',
  detail,
  parameter,
});
