import { randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import type { Catalog } from '../catalog/types';
import { createAccountsApp } from './accounts';
import { createApiApp } from './api';
import { SpotifyWorld } from './world';

export { ACCESS_TOKEN_SECONDS } from './accounts';
export { DEMO_USER, demoPlaylistId, FOLLOWED_PLAYLIST_ID, OTHER_USER, UNREGISTERED_USER } from './state';
export { SPOTIFY_SESSION_COOKIE } from './web-pages';

export interface SpotifyEmulatorOptions {
  catalog: Catalog;
  /** The folder of the state documents; undefined = in memory. */
  stateDir?: string | undefined;
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
  /**
   * The redirect URIs registered for the clients (Spotify's dashboard): only an exact match is accepted,
   * https or a loopback IP address over http.
   */
  redirectUris: readonly string[];
  /** The sandbox secret the app signs account claims with (decision 0022); a random one by default. */
  accountSecret?: Uint8Array | undefined;
  /** Consent posts per address and rolling hour; 0 (the default here) = no limit. */
  consentsPerHour?: number | undefined;
  /** Clock, for token expiry and the 6-month refresh limit in tests. */
  now?: (() => number) | undefined;
}

export const DEFAULT_SPOTIFY_CLIENT_ID = 'crossfade-sandbox';
/**
 * The sandbox app's client secret, for the client-credentials grant (app tokens). Not a secret: the
 * emulator is offline and its accounts are demo data; real mode takes SPOTIFY_CLIENT_SECRET.
 */
export const SANDBOX_SPOTIFY_CLIENT_SECRET = 'crossfade-sandbox-secret';

/** What Spotify registers: https, or plain http only for loopback IP literals (never `localhost`). */
export function isRegistrableRedirectUri(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.protocol === 'https:') return true;
    return url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === '[::1]');
  } catch {
    return false;
  }
}

/**
 * A wire-compatible Spotify: the accounts service (consent page, PKCE token endpoint) and the Web API as a
 * development-mode (or extended-quota) app sees it. Both apps work standalone or under `app.route(prefix)`.
 */
export function createSpotifyEmulator(options: SpotifyEmulatorOptions): { accounts: Hono; api: Hono } {
  const world = new SpotifyWorld(
    options.catalog,
    options.mode ?? 'development',
    options.now ?? Date.now,
    options.stateDir,
  );
  const accounts = createAccountsApp(world, {
    clientIds: options.clientIds ?? [DEFAULT_SPOTIFY_CLIENT_ID],
    clientSecrets: { [DEFAULT_SPOTIFY_CLIENT_ID]: SANDBOX_SPOTIFY_CLIENT_SECRET },
    // The dashboard refuses others (plain http to `localhost`, say): the consent page then refuses them too.
    redirectUris: options.redirectUris.filter(isRegistrableRedirectUri),
    accountSecret: options.accountSecret ?? randomBytes(32),
    consentsPerHour: options.consentsPerHour ?? 0,
  });
  const api = createApiApp(world, {
    rateLimit: options.rateLimit ?? null,
    ownerHasPremium: options.ownerHasPremium ?? true,
    ...(options.dropAdds ? { dropAdds: options.dropAdds } : {}),
  });
  return { accounts, api };
}
