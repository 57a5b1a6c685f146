import type { Catalog, CatalogTrack, DemoPlaylist, DemoPlaylistEntry } from '../catalog/types';
import { base62Id } from './ids';

/** The emulator's durable state: playlists and their entries, plus OAuth codes and tokens. */

export type StoredEntry = { addedAt: string; addedBy: string } & (
  | { kind: 'track'; trackId: string }
  | { kind: 'unavailable' }
  | { kind: 'local'; title: string; artist: string; album: string; durationMs: number }
  | { kind: 'episode'; title: string; show: string; durationMs: number }
);

export interface StoredPlaylist {
  id: string;
  name: string;
  description: string;
  ownerId: string;
  public: boolean;
  collaborative: boolean;
  /** Bumped on every write; the snapshot id is derived from it. */
  version: number;
  entries: StoredEntry[];
  /** The cover uploaded with PUT /playlists/{id}/images (base64 JPEG); the generated one otherwise. */
  coverJpeg?: string;
}

export interface AuthorizationCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  userId: string;
  scope: string;
  issuedAt: number;
}

export interface AccessTokenRecord {
  /** Empty for an app token (client credentials): no user, so `market` is taken as given. */
  userId: string;
  app?: true;
  clientId: string;
  scope: string;
  expiresAt: number;
}

export interface RefreshTokenRecord {
  userId: string;
  clientId: string;
  scope: string;
  /** When the person agreed: the 6-month limit counts from here, however often the token rotates. */
  authorizedAt: number;
}

export interface SpotifyState {
  version: 1;
  playlists: Record<string, StoredPlaylist>;
  /** Each user's /me/playlists, newest first: owned and followed playlist ids. */
  libraries: Record<string, string[]>;
  codes: Record<string, AuthorizationCode>;
  accessTokens: Record<string, AccessTokenRecord>;
  refreshTokens: Record<string, RefreshTokenRecord>;
  /** Display names of playlist owners other than the demo accounts (owners of followed playlists). */
  owners: Record<string, string>;
  /** Per-person sandbox accounts created so far, by Spotify user id: account key (../accounts.ts), country. */
  accounts?: Record<string, { key: string; country: string }>;
  /**
   * Each user's Liked Songs and saved albums once changed through the API, newest first (absent: the demo
   * library's, see SpotifyWorld.saved).
   */
  saved?: Record<string, SavedLibrary>;
}

export interface SavedLibrary {
  tracks: { id: string; addedAt: string }[];
  albums: { id: string; addedAt: string }[];
}

export interface DemoUser {
  id: string;
  displayName: string;
  /** On the app's development-mode allow-list (Developer Dashboard "Users and access"). */
  registered: boolean;
  /** The account's country (upper-case market); Spotify answers in it whatever `market` says. */
  country?: string;
}

/**
 * The shared demo listener has no fixed country: `market` is taken as given for it (older tests and the
 * region-lock finder rely on that). Per-person sandbox accounts have one, and it overrides `market`.
 */
export const DEMO_USER: DemoUser = { id: 'crossfade-demo', displayName: 'Demo Listener', registered: true };
export const UNREGISTERED_USER: DemoUser = {
  id: 'unregistered-listener',
  displayName: 'Listener not on the allow-list',
  registered: false,
};
/** Owner of the followed playlist whose items development mode hides (unless the catalog names another). */
export const OTHER_USER: DemoUser = { id: 'mixtape-maker', displayName: 'Mixtape Maker', registered: true };
export const USERS: readonly DemoUser[] = [DEMO_USER, UNREGISTERED_USER, OTHER_USER];
export const FOLLOWED_PLAYLIST_KEY = 'followed-friends-mixtape';
export const FOLLOWED_PLAYLIST_ID = base62Id(`spotify-playlist:${FOLLOWED_PLAYLIST_KEY}`);

export function demoPlaylistId(key: string): string {
  return base62Id(`spotify-playlist:${key}`);
}

export function initialState(catalog: Catalog, playableTrack: (key: string) => CatalogTrack | undefined) {
  const state: SpotifyState = {
    version: 1,
    playlists: {},
    libraries: { [DEMO_USER.id]: [], [UNREGISTERED_USER.id]: [], [OTHER_USER.id]: [] },
    codes: {},
    accessTokens: {},
    refreshTokens: {},
    owners: {},
  };
  addDemoLibrary(state, DEMO_USER.id, catalog.demoLibraries.spotify, playableTrack, '');
  const library = state.libraries[DEMO_USER.id] ?? [];
  // The catalog's own followed playlist, when it has one, plays the part; otherwise make one up.
  if (catalog.demoLibraries.spotify.some((demo) => demo.followedOnly)) return state;
  const friendTracks = catalog.tracks
    .filter((track) => (track.spotify?.markets.length ?? 0) > 0)
    .slice(0, 12);
  state.playlists[FOLLOWED_PLAYLIST_ID] = {
    id: FOLLOWED_PLAYLIST_ID,
    name: "Friends' Mixtape",
    description: 'Made by Mixtape Maker; you follow it.',
    ownerId: OTHER_USER.id,
    public: true,
    collaborative: false,
    version: 1,
    entries: friendTracks.map((track) => ({
      kind: 'track',
      trackId: track.spotify?.id ?? '',
      addedAt: '2025-05-01T12:00:00Z',
      addedBy: OTHER_USER.id,
    })),
  };
  library.push(FOLLOWED_PLAYLIST_ID);
  state.libraries[OTHER_USER.id] = [...(state.libraries[OTHER_USER.id] ?? []), FOLLOWED_PLAYLIST_ID];
  return state;
}

/**
 * Gives `userId` the demo playlists (owned ones, and followed ones owned by their maker). `idPrefix` keeps
 * each sandbox account's playlist ids apart ('' for the shared demo listener, whose ids tests know).
 */
export function addDemoLibrary(
  state: SpotifyState,
  userId: string,
  demos: readonly DemoPlaylist[],
  playableTrack: (key: string) => CatalogTrack | undefined,
  idPrefix: string,
): void {
  const library = state.libraries[userId] ?? [];
  for (const demo of demos) {
    const id = demoPlaylistId(`${idPrefix}${demo.key}`);
    const followed = demo.followedOnly === true && demo.ownerId !== undefined && demo.ownerId !== userId;
    const ownerId = followed ? (demo.ownerId ?? OTHER_USER.id) : userId;
    if (followed && !USERS.some((user) => user.id === ownerId))
      state.owners[ownerId] = demo.ownerName ?? ownerId;
    state.playlists[id] = {
      id,
      name: demo.name,
      description: demo.description,
      ownerId,
      public: followed,
      collaborative: false,
      version: 1,
      entries: demo.entries.map((entry) => toStoredEntry(entry, ownerId, playableTrack)),
    };
    library.push(id);
    if (followed) state.libraries[ownerId] = [...(state.libraries[ownerId] ?? []), id];
  }
  state.libraries[userId] = library;
}

function toStoredEntry(
  entry: DemoPlaylistEntry,
  addedBy: string,
  playableTrack: (key: string) => CatalogTrack | undefined,
): StoredEntry {
  const base = { addedAt: entry.addedAt, addedBy };
  switch (entry.kind) {
    case 'track': {
      const track = playableTrack(entry.trackKey);
      return track?.spotify
        ? { ...base, kind: 'track', trackId: track.spotify.id }
        : { ...base, kind: 'unavailable' };
    }
    case 'unavailable':
      return { ...base, kind: 'unavailable' };
    case 'local':
      return {
        ...base,
        kind: 'local',
        title: entry.title,
        artist: entry.artist,
        album: entry.album,
        durationMs: entry.durationMs,
      };
    case 'episode':
      return { ...base, kind: 'episode', title: entry.title, show: entry.show, durationMs: entry.durationMs };
  }
}
