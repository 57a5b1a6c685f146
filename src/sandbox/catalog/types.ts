/**
 * The sandbox's model of "the world's music": recordings, releases and per-service presence. Both emulators
 * read the same catalog and present it in their own wire style (Spotify ids, artists arrays and markets;
 * Apple numeric ids, `artistName` strings and storefronts), so matching between them is a real problem.
 */

export type ReleaseType = 'album' | 'single' | 'compilation';

export interface CatalogRelease {
  /** Stable key inside the catalog (not a service id). */
  key: string;
  name: string;
  type: ReleaseType;
  artists: string[];
  /** `YYYY-MM-DD` (or `YYYY` for some older releases). */
  releaseDate: string;
  totalTracks: number;
  /** Where each service lists this release; Apple names singles "X - Single" and EPs "X - EP". */
  upc: string;
  /**
   * Apple lists this release under another UPC (a reissue through another distributor): a UPC lookup finds
   * nothing there, and album matching falls back to title, artist and track count.
   */
  appleUpc?: string;
}

/** What kind of recording a track is, relative to the song's original studio recording. */
export type TrackVersion =
  | 'original'
  | 'remaster'
  | 'live'
  | 'acoustic'
  | 'remix'
  | 'instrumental'
  | 'a-cappella'
  | 'karaoke'
  | 'cover'
  | 'radio-edit'
  | 'extended'
  | 'sped-up'
  | 'demo'
  | 'mono'
  | 'clean';

export interface CatalogTrack {
  /** Stable key inside the catalog; service ids are derived from it. */
  key: string;
  /**
   * Optional ground truth (generated catalogs only): the composition this track performs, shared by all its
   * versions and covers, and which version it is. Emulators must not expose these; tests and benchmarks use them.
   */
  songKey?: string;
  version?: TrackVersion;
  /** ISRC identifies the recording: the same recording on a single and an album shares it. */
  isrc: string;
  /** Title as credited on the release, version marker included (e.g. "Heaven - Acoustic"). */
  title: string;
  /** Credited artists, primary first (feat. artists included here and, Spotify-style, not in the title). */
  artists: string[];
  /** Featured artists (a subset of `artists`), which Apple puts in the title as "(feat. X)". */
  featured: string[];
  releaseKey: string;
  trackNumber: number;
  discNumber: number;
  durationMs: number;
  explicit: boolean;
  genres: string[];
  /**
   * Which services carry it and where. `markets` are upper-case ISO codes; an empty list means the
   * service does not have the track at all (a track absent from the destination).
   */
  spotify: { id: string; markets: string[] } | null;
  apple: { id: string; storefronts: string[] } | null;
}

export interface DemoPlaylist {
  key: string;
  name: string;
  description: string;
  /** Set when another user owns the playlist and the demo user only follows it (Spotify): not editable. */
  ownerId?: string;
  ownerName?: string;
  followedOnly?: boolean;
  /** When the demo user created (or followed) the playlist, ISO 8601. */
  createdAt?: string;
  /** Entries in order: catalog track keys, or special entries the emulators render as the service would. */
  entries: DemoPlaylistEntry[];
}

export type DemoPlaylistEntry =
  | { kind: 'track'; trackKey: string; addedAt: string }
  /** Spotify: `item: null`; Apple: a library song without catalog counterpart. */
  | { kind: 'unavailable'; addedAt: string }
  /** Spotify local file with tags; Apple: an uploaded library song. */
  | { kind: 'local'; title: string; artist: string; album: string; durationMs: number; addedAt: string }
  | { kind: 'episode'; title: string; show: string; durationMs: number; addedAt: string };

/** The library beside the playlists: liked songs (Apple: favourites) and saved albums, newest first. */
export interface DemoSavedLibrary {
  liked: { trackKey: string; addedAt: string }[];
  albums: { releaseKey: string; addedAt: string }[];
}

export interface Catalog {
  tracks: CatalogTrack[];
  releases: Map<string, CatalogRelease>;
  /**
   * The demo user's library on each service (both services get a library so either can be the source);
   * `saved` (absent: none) their liked songs and saved albums on each.
   */
  demoLibraries: {
    spotify: DemoPlaylist[];
    apple: DemoPlaylist[];
    saved?: { spotify: DemoSavedLibrary; apple: DemoSavedLibrary };
  };
}
