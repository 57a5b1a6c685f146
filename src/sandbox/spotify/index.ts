import type { Hono } from 'hono';
import type { Catalog } from '../catalog/types';
import { createAccountsApp } from './accounts';
import { createApiApp } from './api';
import { SpotifyWorld } from './world';

export { ACCESS_TOKEN_SECONDS } from './accounts';
export { DEMO_USER, demoPlaylistId, FOLLOWED_PLAYLIST_ID, OTHER_USER, UNREGISTERED_USER } from './state';

export interface SpotifyEmulatorOptions {
  catalog: Catalog;
  /** undefined = in memory; else persisted with StateFile. */
  stateFile?: string | undefined;
  /** Default 'development'. */
  mode?: 'development' | 'extended' | undefined;
  /** Rolling window over every API call; null/undefined = off. */
  rateLimit?: { budget: number; windowMs: number } | null | undefined;
  /** False: the app owner lost Premium; development mode then answers every call with 403. Default true. */
  ownerHasPremium?: boolean | undefined;
  /** The `dropped-adds` fault: which of the tracks of an add request are really stored. */
  dropAdds?: (<T>(tracks: T[]) => T[]) | undefined;
  /** Accepted client ids; default ['crossfade-sandbox']. */
  clientIds?: string[] | undefined;
  /** Clock, for token expiry and the 6-month refresh limit in tests. */
  now?: (() => number) | undefined;
}

export const DEFAULT_SPOTIFY_CLIENT_ID = 'crossfade-sandbox';
/**
 * The sandbox app's client secret, for the client-credentials grant (app tokens). Not a secret: the
 * emulator is offline and its accounts are demo data; real mode takes SPOTIFY_CLIENT_SECRET.
 */
export const SANDBOX_SPOTIFY_CLIENT_SECRET = 'crossfade-sandbox-secret';

/**
 * A wire-compatible Spotify: the accounts service (consent page, PKCE token endpoint) and the Web API as a
 * development-mode (or extended-quota) app sees it. Both apps work standalone or under `app.route(prefix)`.
 */
export function createSpotifyEmulator(options: SpotifyEmulatorOptions): { accounts: Hono; api: Hono } {
  const world = new SpotifyWorld(
    options.catalog,
    options.mode ?? 'development',
    options.now ?? Date.now,
    options.stateFile,
  );
  const accounts = createAccountsApp(world, options.clientIds ?? [DEFAULT_SPOTIFY_CLIENT_ID], {
    [DEFAULT_SPOTIFY_CLIENT_ID]: SANDBOX_SPOTIFY_CLIENT_SECRET,
  });
  const api = createApiApp(world, {
    rateLimit: options.rateLimit ?? null,
    ownerHasPremium: options.ownerHasPremium ?? true,
    ...(options.dropAdds ? { dropAdds: options.dropAdds } : {}),
  });
  return { accounts, api };
}
