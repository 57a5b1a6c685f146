import { genreNames, hash32, slugify } from './apple-style';
import type { AppleAlbumRecord, AppleSongRecord } from './catalog-index';
import type { LibraryAlbumEntry, LibraryPlaylist, LibrarySong } from './library';

/** Apple's JSON for each resource, as the Apple Music API reference documents it. */

/** Apple's artwork host; the emulator's JSON answers point it at its own /artwork (sandbox-pages.ts). */
export const APPLE_ARTWORK_HOST = 'https://is1-ssl.mzstatic.com/image/thumb/Music/v4/sandbox';
const ARTWORK_HOST = APPLE_ARTWORK_HOST;

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

/**
 * Whether a song the storefront lists can be streamed there. Outside the US one song in twelve cannot (a
 * licence that covers the listing but not playback), decided by id and storefront so it never flickers.
 */
export function streamable(songId: string, storefront: string): boolean {
  return storefront === 'us' || hash32(`playable:${songId}:${storefront}`) % 12 !== 0;
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
      // Apple lists a few songs it cannot stream in a storefront: without playParams (and so unplayable).
      ...(streamable(record.id, storefront) ? { playParams: { id: record.id, kind: 'song' } } : {}),
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

/** A catalog album (`albums`), with the UPC Apple lists it under. */
export function renderAlbum(album: AppleAlbumRecord, storefront: string) {
  const { release } = album;
  const songs = album.songs.filter((song) => song.storefronts.has(storefront));
  const explicit = songs.some((song) => song.track.explicit);
  return {
    id: album.id,
    type: 'albums' as const,
    href: `/v1/catalog/${storefront}/albums/${album.id}`,
    attributes: {
      name: album.name,
      artistName: album.artistName,
      trackCount: songs.length,
      upc: album.upc,
      releaseDate: release.releaseDate,
      url: `https://music.apple.com/${storefront}/album/${slugify(release.name)}/${album.id}`,
      artwork: artwork(album.id),
      genreNames: genreNames(songs[0]?.track.genres ?? []),
      isSingle: release.type === 'single',
      isCompilation: release.type === 'compilation',
      isComplete: songs.length === album.songs.length,
      recordLabel: `${release.artists[0] ?? 'Sandbox'} Records`,
      copyright: `℗ ${release.releaseDate.slice(0, 4)} ${release.artists[0] ?? ''}`,
      ...(explicit ? { contentRating: 'explicit' } : {}),
      playParams: { id: album.id, kind: 'album' },
    },
  };
}

/** A saved album (`library-albums`, id `l.…`); `catalog` only with `include=catalog`. */
export function renderLibraryAlbum(entry: LibraryAlbumEntry, storefront: string, includeCatalog: boolean) {
  const { album } = entry;
  const base = {
    id: entry.id,
    type: 'library-albums' as const,
    href: `/v1/me/library/albums/${entry.id}`,
    attributes: {
      name: album.name,
      artistName: album.artistName,
      trackCount: album.songs.length,
      releaseDate: album.release.releaseDate,
      dateAdded: entry.addedAt,
      artwork: artwork(album.id),
      genreNames: genreNames(album.songs[0]?.track.genres ?? []),
      playParams: { id: entry.id, kind: 'album', isLibrary: true },
    },
  };
  if (!includeCatalog) return base;
  const inStorefront = album.songs.some((song) => song.storefronts.has(storefront))
    ? [renderAlbum(album, storefront)]
    : [];
  return {
    ...base,
    relationships: { catalog: { href: `/v1/me/library/albums/${entry.id}/catalog`, data: inStorefront } },
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
