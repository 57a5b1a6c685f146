import type { ServiceId } from '../../shared/services';

/**
 * One interface over Spotify and Apple Music. Everything above this folder (matching, transfers, exports)
 * talks to a `MusicProvider` and never to a service's wire format.
 */

/** A track as Crossfade sees it, whatever service it came from. */
export interface NormalizedTrack {
  /** The service's own id (Spotify base62 id, Apple catalog song id). */
  id: string;
  /** What the service's add-to-playlist call takes (`spotify:track:…`, or the Apple catalog id). */
  uri: string;
  name: string;
  artists: string[];
  album: string;
  durationMs: number;
  isrc?: string;
  explicit?: boolean;
  imageUrl?: string;
  /** `YYYY-MM-DD`, `YYYY-MM` or `YYYY`. */
  releaseDate?: string;
  genres?: string[];
  albumType?: 'album' | 'single' | 'compilation';
  trackNumber?: number;
  /** Share URL on the service, when it has one. */
  url?: string;
  /**
   * Availability as far as the answer told us: `playable` in the region the call was made for, and the
   * regions known to carry it (only the sandbox and extended-quota Spotify report a full list).
   */
  availability?: { playable?: boolean; regions?: string[] };
}

/** Why a playlist entry could not become a `NormalizedTrack`: reported to the person, never dropped silently. */
export type SkipReason =
  | 'unavailable'
  | 'local_file'
  | 'episode'
  | 'video'
  | 'not_in_catalog'
  /** The service sent the entry in a shape we could not read (an unknown kind, a broken field). */
  | 'unreadable';

export type PlaylistEntry =
  | { position: number; kind: 'track'; track: NormalizedTrack }
  | {
      position: number;
      kind: 'skipped';
      reason: SkipReason;
      /** What is known of it (local files keep their tags), for the list of failures. */
      name?: string;
      artists?: string[];
      album?: string;
      durationMs?: number;
    };

export interface PlaylistSummary {
  id: string;
  name: string;
  description?: string;
  imageUrl?: string;
  trackCount: number;
  /** The service left the length out and it was not counted in full: `trackCount` is a lower bound. */
  trackCountUnknown?: boolean;
  ownerId?: string;
  ownerName?: string;
  /** False for playlists the person follows but cannot change or (Spotify dev mode) read. */
  isOwned?: boolean;
  url?: string;
  /** When the playlist last changed (ISO 8601), where the service says so. */
  updatedAt?: string;
  /**
   * The service's own change marker of the playlist (Spotify's `snapshot_id`, Apple's `lastModifiedDate`):
   * it changes whenever the playlist does, so what was learned of it under the same marker still holds.
   */
  changeMarker?: string;
}

/** A playlist's length learned earlier under a change marker (Apple's list carries no lengths). */
export interface KnownTrackCount {
  changeMarker: string;
  trackCount: number;
}

export interface PlaylistListOptions {
  /** Lengths still valid while the playlist's marker is the same: the provider need not count those again. */
  knownCounts?: ReadonlyMap<string, KnownTrackCount>;
}

export interface PlaylistContents {
  playlist: PlaylistSummary;
  /** Every entry in playlist order; `position` is the zero-based index in the source playlist. */
  entries: PlaylistEntry[];
}

export interface ProviderUser {
  id: string;
  displayName?: string;
  /** Spotify: the user's market when known; Apple: the storefront id (`us`). Lower or upper as the service uses. */
  region?: string;
}

/** A structured search; each client turns it into its own query syntax. */
export interface TrackQuery {
  title?: string;
  artist?: string;
  album?: string;
  /** Free text used as is (the simplified-title route). */
  text?: string;
}

export interface CreatedPlaylist {
  id: string;
  url: string;
}

/** Parsed share URL (see src/server/service-urls). */
export interface SharedPlaylistRef {
  service: ServiceId;
  id: string;
  /** Apple storefront from the URL (`us`), when the link carries one. */
  storefront?: string;
}

/** Called when the client waits for a rate limit, so a job can show "waiting 12 s for Spotify". */
export type RateLimitListener = (info: { service: ServiceId; waitMs: number; attempt: number }) => void;

export interface AddTracksProgress {
  /** How many of the given uris are now in the playlist, in order. */
  added: number;
  total: number;
}

/** A catalog album as the person's library or a catalog lookup gives it. */
export interface LibraryAlbum {
  /** The service's catalog album id (Spotify base62, Apple catalog album id). */
  id: string;
  name: string;
  artists: string[];
  upc?: string;
  trackCount: number;
  /** `YYYY-MM-DD`, `YYYY-MM` or `YYYY`. */
  releaseDate?: string;
  imageUrl?: string;
  url?: string;
}

/** The person's library as collections that read like playlists (see src/shared/library-ids.ts). */
export interface LibraryOverview {
  /** Liked Songs (Spotify) / the favourite songs of the Apple Music library: id LIKED_SONGS_ID. */
  liked: PlaylistSummary;
  /** Saved albums, each as a summary with id albumCollectionId(album.id). */
  albums: { summary: PlaylistSummary; album: LibraryAlbum }[];
}

export interface AlbumQuery {
  upc?: string;
  title?: string;
  artist?: string;
}

export interface MusicProvider {
  readonly service: ServiceId;
  /** Largest batch `addTracks` sends per call (Spotify 100, Apple 100). */
  readonly addBatchSize: number;
  /** Largest ISRC batch one lookup call takes (Apple 25, Spotify 1: `isrc:` search). */
  readonly isrcBatchSize: number;
  /** True when playlists can only be created and appended to (Apple). */
  readonly appendOnly: boolean;
  /**
   * How long a write may take to show in reads (Apple shows library writes after a delay); a transfer
   * that resumes reads its destination until two reads this far apart agree. Absent = at once.
   */
  readonly writeSettleMs?: number;
  /**
   * How many tracks a new playlist can be created with in the same call (Apple 100: the create's
   * `relationships.tracks`, one add fewer per move). Absent = none: the tracks go in with `addTracks`.
   */
  readonly createBatchSize?: number;

  getCurrentUser(): Promise<ProviderUser>;
  listPlaylists(options?: PlaylistListOptions): Promise<PlaylistSummary[]>;
  /**
   * `onPage` hears how many entries are read so far, and the total when the service says it. Also takes
   * LIKED_SONGS_ID (the liked / favourite songs, newest first as the service lists them) and
   * albumCollectionId(albumId) (a saved album's tracks in album order).
   */
  getPlaylist(playlistId: string, options?: PlaylistReadOptions): Promise<PlaylistContents>;
  /**
   * A playlist's entries in order, without its details, where those are a call of their own (Apple): a
   * read-back needs only the entries. A playlist that is not found (or not yet shown) reads as empty.
   */
  getPlaylistEntries?(playlistId: string): Promise<PlaylistEntry[]>;
  searchTracks(query: TrackQuery, options?: { limit?: number; region?: string }): Promise<NormalizedTrack[]>;
  /**
   * The query as this service reads it, where differently built queries ask it the same thing (Apple
   * searches one free-text term: title + artist as fields and the same words as text are one search), so
   * the matcher sends each distinct search once. Absent: every query is read as built.
   */
  searchAs?(query: TrackQuery): TrackQuery;
  /** ISRCs are upper-cased and validated by the caller; the answer maps each ISRC to every track carrying it. */
  lookupIsrcs(isrcs: string[], options?: { region?: string }): Promise<Map<string, NormalizedTrack[]>>;
  getTrack(trackId: string, options?: { region?: string }): Promise<NormalizedTrack | null>;
  /**
   * `tracks` (at most `createBatchSize`, in order) are in the playlist once this answers; a provider
   * without `createBatchSize` takes none.
   */
  createPlaylist(name: string, description?: string, tracks?: readonly string[]): Promise<CreatedPlaylist>;
  /**
   * Appends in the given order, in batches of `addBatchSize`. `onBatch` runs after each batch is
   * confirmed, so a durable job can checkpoint there and resume without duplicates.
   */
  addTracks(
    playlistId: string,
    uris: string[],
    onBatch?: (progress: AddTracksProgress) => void | Promise<void>,
    /** Runs before each batch is sent (a durable job renews its lease there: the write happens once). */
    beforeBatch?: () => Promise<void>,
  ): Promise<void>;
  /**
   * Removes every occurrence of these tracks from a playlist. Absent where the service cannot remove
   * (Apple Music playlists are append-only).
   */
  removeTracks?(playlistId: string, uris: string[]): Promise<void>;
  /** Which of these tracks can be played in `region` (ISO 3166-1 alpha-2, any case). */
  getAvailability(trackIds: string[], region: string): Promise<Map<string, boolean>>;
  /** A playlist someone shared; errors with a ProviderError(kind 'forbidden') where the service forbids it. */
  readSharedPlaylist(ref: SharedPlaylistRef): Promise<PlaylistContents>;

  /** Liked Songs / favourites and the saved albums, as summaries ready to list above the playlists. */
  listLibrary(): Promise<LibraryOverview>;
  /**
   * Saves tracks as liked (Spotify: PUT /me/library with `spotify:track:` URIs, at most 40 per call; Apple:
   * adds the catalog songs to the library and rates each one as a favourite). `onBatch` runs after each
   * confirmed batch, `beforeBatch` before each (lease renewal), as with `addTracks`.
   */
  saveTracks(
    uris: string[],
    onBatch?: (progress: AddTracksProgress) => void | Promise<void>,
    beforeBatch?: () => Promise<void>,
  ): Promise<void>;
  /**
   * Which of these tracks (as `saveTracks` takes them) are liked / favourites, in the order given, asked in
   * batches at the service's limit (Spotify GET /me/library/contains, 40 URIs; Apple GET
   * /v1/me/ratings/songs?ids=, 100 ids): verifying a library write without reading the library back.
   */
  savedTracksContain(uris: string[]): Promise<boolean[]>;
  /** Saves catalog albums to the library (Spotify `spotify:album:` URIs; Apple `ids[albums]`). */
  saveAlbums(albumIds: string[]): Promise<void>;
  /**
   * Catalog album lookup for matching: by UPC when given (Spotify search `upc:`, Apple `filter[upc]`),
   * else a search by title and artist.
   */
  findAlbums(query: AlbumQuery, options?: { region?: string; limit?: number }): Promise<LibraryAlbum[]>;
  /** A catalog album's tracks, in album order. */
  getAlbumTracks(albumId: string, options?: { region?: string }): Promise<NormalizedTrack[]>;
}

export interface PlaylistReadOptions {
  onPage?: (read: number, total: number | null) => void;
  /**
   * Hears the entries as they are read, in order (a page read early waits for the pages before it), so
   * a caller can begin with them before the last page has come. Every entry is heard once.
   */
  onEntries?: (entries: PlaylistEntry[]) => void;
  /**
   * Awaited before each page after the first is asked for, so a caller that works through the entries as
   * they come can hold the read to what it will use soon (see SourceFeed). Album reads do not wait on it.
   */
  beforePage?: () => Promise<void>;
  /**
   * The entries are only heard through `onEntries`: a read of Liked Songs / favourites answers with none,
   * so a library of 100,000 songs is never held whole (issue 25). Other reads may still answer with all.
   */
  entriesHeardOnly?: boolean;
}
