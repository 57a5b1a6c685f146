import type { CatalogRelease, CatalogTrack } from '../catalog/types';
import { base62Id } from './ids';
import type { DemoUser, StoredEntry, StoredPlaylist } from './state';

/** Builders for Spotify's JSON objects (TrackObject, PlaylistObject, …) from the catalog and state. */

export interface WireContext {
  /** `<origin><mount prefix>`: hrefs are `${apiRoot}/v1/…`, images `${apiRoot}/images/…`. */
  apiRoot: string;
  mode: 'development' | 'extended';
  /** Upper-case market from `?market=`; availability fields appear only when it is given. */
  market?: string;
}

export const artistId = (name: string) => base62Id(`spotify-artist:${name}`);
export const albumId = (releaseKey: string) => base62Id(`spotify-album:${releaseKey}`);

function artistObject(context: WireContext, name: string) {
  const id = artistId(name);
  return {
    external_urls: { spotify: `${context.apiRoot}/open/artist/${id}` },
    href: `${context.apiRoot}/v1/artists/${id}`,
    id,
    name,
    type: 'artist',
    uri: `spotify:artist:${id}`,
  };
}

function releasePrecision(date: string): 'day' | 'month' | 'year' {
  return date.length === 10 ? 'day' : date.length === 7 ? 'month' : 'year';
}

function trackAlbumObject(context: WireContext, release: CatalogRelease | undefined, track: CatalogTrack) {
  const key = release?.key ?? `single-${track.key}`;
  const id = albumId(key);
  const releaseDate = release?.releaseDate ?? '2000';
  return {
    album_type: release?.type ?? 'single',
    total_tracks: release?.totalTracks ?? 1,
    ...(context.mode === 'extended' ? { available_markets: track.spotify?.markets ?? [] } : {}),
    external_urls: { spotify: `${context.apiRoot}/open/album/${id}` },
    href: `${context.apiRoot}/v1/albums/${id}`,
    id,
    images: [640, 300, 64].map((size) => ({
      url: `${context.apiRoot}/images/${id}?size=${size}`,
      height: size,
      width: size,
    })),
    name: release?.name ?? track.title,
    release_date: releaseDate,
    release_date_precision: releasePrecision(releaseDate),
    type: 'album',
    uri: `spotify:album:${id}`,
    artists: (release?.artists ?? track.artists.slice(0, 1)).map((name) => artistObject(context, name)),
  };
}

/** SimplifiedAlbumObject of a whole album (search results). */
export function simplifiedAlbumObject(context: WireContext, release: CatalogRelease, tracks: CatalogTrack[]) {
  const id = albumId(release.key);
  const markets = [...new Set(tracks.flatMap((track) => track.spotify?.markets ?? []))];
  return {
    album_type: release.type,
    total_tracks: tracks.length,
    ...(context.mode === 'extended' ? { available_markets: markets } : {}),
    external_urls: { spotify: `${context.apiRoot}/open/album/${id}` },
    href: `${context.apiRoot}/v1/albums/${id}`,
    id,
    images: [640, 300, 64].map((size) => ({
      url: `${context.apiRoot}/images/${id}?size=${size}`,
      height: size,
      width: size,
    })),
    name: release.name,
    release_date: release.releaseDate,
    release_date_precision: releasePrecision(release.releaseDate),
    type: 'album',
    uri: `spotify:album:${id}`,
    artists: release.artists.map((name) => artistObject(context, name)),
  };
}

/** SimplifiedTrackObject: a track inside an album, without album, ISRC or popularity. */
export function simplifiedTrackObject(context: WireContext, track: CatalogTrack) {
  const { album: _album, external_ids: _ids, ...rest } = trackObject(context, track, undefined);
  return rest;
}

/**
 * AlbumObject (GET /albums/{id}, saved albums) with its UPC and the first page of its tracks. Development
 * mode leaves out `label`, `popularity` and `available_markets` (Spotify Web API reference, development-mode rules).
 */
export function albumObject(
  context: WireContext,
  release: CatalogRelease,
  tracks: CatalogTrack[],
  tracksPage: { limit: number },
) {
  const base = simplifiedAlbumObject(context, release, tracks);
  const tracksHref = (offset: number) =>
    `${context.apiRoot}/v1/albums/${base.id}/tracks?offset=${offset}&limit=${tracksPage.limit}`;
  return {
    ...base,
    tracks: {
      href: tracksHref(0),
      items: tracks.slice(0, tracksPage.limit).map((track) => simplifiedTrackObject(context, track)),
      limit: tracksPage.limit,
      next: tracks.length > tracksPage.limit ? tracksHref(tracksPage.limit) : null,
      offset: 0,
      previous: null,
      total: tracks.length,
    },
    copyrights: [
      { text: `© ${release.releaseDate.slice(0, 4)} ${release.artists[0] ?? ''}`, type: 'C' },
      { text: `℗ ${release.releaseDate.slice(0, 4)} ${release.artists[0] ?? ''}`, type: 'P' },
    ],
    external_ids: { upc: release.upc },
    genres: [],
    ...(context.mode === 'extended'
      ? { label: `${release.artists[0] ?? 'Sandbox'} Records`, popularity: 40 }
      : {}),
  };
}

export function trackObject(context: WireContext, track: CatalogTrack, release: CatalogRelease | undefined) {
  const id = track.spotify?.id ?? '';
  const markets = track.spotify?.markets ?? [];
  const playable = context.market === undefined ? undefined : markets.includes(context.market);
  return {
    album: trackAlbumObject(context, release, track),
    artists: track.artists.map((name) => artistObject(context, name)),
    ...(context.mode === 'extended' ? { available_markets: markets } : {}),
    disc_number: track.discNumber,
    duration_ms: track.durationMs,
    explicit: track.explicit,
    external_ids: { isrc: track.isrc },
    external_urls: { spotify: `${context.apiRoot}/open/track/${id}` },
    href: `${context.apiRoot}/v1/tracks/${id}`,
    id,
    ...(playable === undefined ? {} : { is_playable: playable }),
    ...(playable === false ? { restrictions: { reason: 'market' } } : {}),
    name: track.title,
    track_number: track.trackNumber,
    type: 'track',
    uri: `spotify:track:${id}`,
    is_local: false,
  };
}

/** Spotify's encoding of local-file URIs: URL-encoded fields with `+` for spaces. */
function localUriPart(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

export function localTrackObject(entry: Extract<StoredEntry, { kind: 'local' }>) {
  const seconds = Math.round(entry.durationMs / 1000);
  return {
    album: {
      album_type: null,
      artists: [],
      available_markets: [],
      external_urls: {},
      href: null,
      id: null,
      images: [],
      name: entry.album,
      release_date: null,
      release_date_precision: null,
      type: 'album',
      uri: null,
    },
    artists: [{ external_urls: {}, href: null, id: null, name: entry.artist, type: 'artist', uri: null }],
    available_markets: [],
    disc_number: 0,
    duration_ms: entry.durationMs,
    explicit: false,
    external_ids: {},
    external_urls: {},
    href: null,
    id: null,
    is_local: true,
    name: entry.title,
    popularity: 0,
    preview_url: null,
    track_number: 0,
    type: 'track',
    uri: `spotify:local:${[entry.artist, entry.album, entry.title].map(localUriPart).join(':')}:${seconds}`,
  };
}

export function episodeObject(context: WireContext, entry: Extract<StoredEntry, { kind: 'episode' }>) {
  const id = base62Id(`spotify-episode:${entry.show}:${entry.title}`);
  const showId = base62Id(`spotify-show:${entry.show}`);
  const date = entry.addedAt.slice(0, 10);
  return {
    audio_preview_url: null,
    description: `${entry.title}, an episode of ${entry.show}.`,
    html_description: `<p>${entry.title}, an episode of ${entry.show}.</p>`,
    duration_ms: entry.durationMs,
    explicit: false,
    external_urls: { spotify: `${context.apiRoot}/open/episode/${id}` },
    href: `${context.apiRoot}/v1/episodes/${id}`,
    id,
    images: [],
    is_externally_hosted: false,
    is_playable: true,
    languages: ['en'],
    name: entry.title,
    release_date: date,
    release_date_precision: 'day',
    type: 'episode',
    uri: `spotify:episode:${id}`,
    show: {
      available_markets: [],
      copyrights: [],
      description: entry.show,
      explicit: false,
      external_urls: { spotify: `${context.apiRoot}/open/show/${showId}` },
      href: `${context.apiRoot}/v1/shows/${showId}`,
      html_description: `<p>${entry.show}</p>`,
      id: showId,
      images: [],
      is_externally_hosted: false,
      languages: ['en'],
      media_type: 'audio',
      name: entry.show,
      publisher: entry.show,
      total_episodes: 1,
      type: 'show',
      uri: `spotify:show:${showId}`,
    },
  };
}

export function userObject(context: WireContext, user: DemoUser) {
  return {
    display_name: user.displayName,
    external_urls: { spotify: `${context.apiRoot}/open/user/${user.id}` },
    href: `${context.apiRoot}/v1/users/${user.id}`,
    id: user.id,
    type: 'user',
    uri: `spotify:user:${user.id}`,
  };
}

export function privateUserObject(context: WireContext, user: DemoUser) {
  return {
    ...userObject(context, user),
    // Stable and pseudonymous, as Spotify's: derived from the id, never equal to it.
    account_id: base62Id(`spotify-account:${user.id}`),
    images: [],
    ...(context.mode === 'extended' ? { country: 'US', product: 'premium' } : {}),
  };
}

export function snapshotId(playlist: StoredPlaylist): string {
  return Buffer.from(`${playlist.version},${base62Id(`${playlist.id}:${playlist.version}`)}`).toString(
    'base64url',
  );
}

export function simplifiedPlaylistObject(context: WireContext, playlist: StoredPlaylist, owner: DemoUser) {
  const href = `${context.apiRoot}/v1/playlists/${playlist.id}`;
  return {
    collaborative: playlist.collaborative,
    description: playlist.description,
    external_urls: { spotify: `${context.apiRoot}/open/playlist/${playlist.id}` },
    href,
    id: playlist.id,
    // An uploaded cover is served by the emulator itself; Spotify leaves height and width null for those.
    images: playlist.coverJpeg
      ? [
          {
            url: `${context.apiRoot}/images/cover-${playlist.id}-v${playlist.version}`,
            height: null,
            width: null,
          },
        ]
      : [],
    name: playlist.name,
    owner: userObject(context, owner),
    public: playlist.public,
    snapshot_id: snapshotId(playlist),
    items: { href: `${href}/items`, total: playlist.entries.length },
    type: 'playlist',
    uri: `spotify:playlist:${playlist.id}`,
  };
}
