import type { Catalog, CatalogTrack, DemoPlaylist, DemoPlaylistEntry } from '../catalog/types';
import { base62Id } from './ids';

/** The emulator's durable state: playlists and their entries, libraries, OAuth codes and tokens. */

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

/** The sandbox's web player session, set at consent: who may see and edit private playlists. */
export interface WebSession {
  userId: string;
  /** The token the page's forms carry (CSRF). */
  formToken: string;
  expiresAt: number;
}

/** What a user holds besides playlists: their /me/playlists and their saved items. */
export interface UserData {
  /** /me/playlists, newest first: owned and followed playlist ids. */
  library: string[];
  /** Liked Songs and saved albums once changed through the API, newest first (absent: the demo library's). */
  saved?: SavedLibrary;
}

/** Codes, tokens and web sessions, kept in the document of the user they belong to. */
export interface Credentials {
  codes: Record<string, AuthorizationCode>;
  accessTokens: Record<string, AccessTokenRecord>;
  refreshTokens: Record<string, RefreshTokenRecord>;
  /** By SHA-256 of the cookie value. */
  webSessions: Record<string, WebSession>;
}

/** A per-person sandbox account (../accounts.ts): its key is its id; the Spotify user id is random. */
export interface SpotifyAccount {
  key: string;
  seed: string;
  userId: string;
  country: string;
  createdAt: string;
}

/** `accounts/<key>.json`: one person's account. */
export interface AccountDocument extends Credentials {
  version: 2;
  account: SpotifyAccount;
  user: UserData;
  /** The account's demo playlists by id → demo key: built from the seed until first written. */
  templates: Record<string, string>;
}

/** `shared.json`: the fixed demo users (the shared demo listener, the unregistered one, Mixtape Maker). */
export interface SharedDocument extends Credentials {
  version: 2;
  users: Record<string, UserData>;
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
 * geo-lock bypass rely on that). Per-person sandbox accounts have one, and it overrides `market`.
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
/** The accounts anyone may sign in to on the consent page (Mixtape Maker only owns playlists others follow). */
export const CONSENT_USERS: readonly DemoUser[] = [DEMO_USER, UNREGISTERED_USER];
export const FOLLOWED_PLAYLIST_KEY = 'followed-friends-mixtape';
export const FOLLOWED_PLAYLIST_ID = base62Id(`spotify-playlist:${FOLLOWED_PLAYLIST_KEY}`);

export function demoPlaylistId(key: string): string {
  return base62Id(`spotify-playlist:${key}`);
}

export const emptyCredentials = (): Credentials => ({
  codes: {},
  accessTokens: {},
  refreshTokens: {},
  webSessions: {},
});

export type PlayableTrack = (key: string) => CatalogTrack | undefined;

/**
 * The shared demo users' playlists as the catalog gives them (the shared demo listener's library and the
 * followed playlist), and their libraries, before anyone changed anything.
 */
export function sharedDemoPlaylists(catalog: Catalog, playable: PlayableTrack) {
  const playlists = catalog.demoLibraries.spotify.map((demo) =>
    demoPlaylist(demo, demoPlaylistId(demo.key), DEMO_USER.id, playable),
  );
  const users: Record<string, UserData> = {
    [DEMO_USER.id]: { library: playlists.map((playlist) => playlist.id) },
    [UNREGISTERED_USER.id]: { library: [] },
    [OTHER_USER.id]: { library: playlists.filter((p) => p.ownerId === OTHER_USER.id).map((p) => p.id) },
  };
  // The catalog's own followed playlist, when it has one, plays the part; otherwise make one up.
  if (!catalog.demoLibraries.spotify.some((demo) => demo.followedOnly)) {
    const friendTracks = catalog.tracks
      .filter((track) => (track.spotify?.markets.length ?? 0) > 0)
      .slice(0, 12);
    playlists.push({
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
    });
    users[DEMO_USER.id]?.library.push(FOLLOWED_PLAYLIST_ID);
    users[OTHER_USER.id]?.library.push(FOLLOWED_PLAYLIST_ID);
  }
  return { playlists, users };
}

/** Owners of followed demo playlists other than the fixed users, with the names the catalog gives them. */
export function demoOwners(catalog: Catalog): Map<string, string> {
  const owners = new Map<string, string>();
  for (const demo of catalog.demoLibraries.spotify) {
    if (demo.followedOnly && demo.ownerId && !USERS.some((user) => user.id === demo.ownerId))
      owners.set(demo.ownerId, demo.ownerName ?? demo.ownerId);
  }
  return owners;
}

/**
 * One demo playlist as `userId` finds it in their library: their own, or (followed only) owned by its
 * maker and public.
 */
export function demoPlaylist(
  demo: DemoPlaylist,
  id: string,
  userId: string,
  playable: PlayableTrack,
): StoredPlaylist {
  const followed = demo.followedOnly === true && demo.ownerId !== undefined && demo.ownerId !== userId;
  const ownerId = followed ? (demo.ownerId ?? OTHER_USER.id) : userId;
  return {
    id,
    name: demo.name,
    description: demo.description,
    ownerId,
    public: followed,
    collaborative: false,
    version: 1,
    entries: demo.entries.map((entry) => toStoredEntry(entry, ownerId, playable)),
  };
}

function toStoredEntry(entry: DemoPlaylistEntry, addedBy: string, playable: PlayableTrack): StoredEntry {
  const base = { addedAt: entry.addedAt, addedBy };
  switch (entry.kind) {
    case 'track': {
      const track = playable(entry.trackKey);
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
