import { randomBytes } from 'node:crypto';
import { SANDBOX_SPOTIFY_CLIENT_SECRET } from '../../sandbox/spotify/index';
import { safeRedirectPath } from '../../shared/safe-redirect';
import type { ServiceId } from '../../shared/services';
import { SERVICE_LABELS } from '../../shared/services';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { badRequest, conflict, DomainError, notConfigured } from '../domain-errors';
import type { Logger } from '../logger';
import { forgetPlaylistLists, forgettingListsOnWrites } from '../playlists/playlist-list-cache';
import { AppleMusicProvider } from '../providers/apple/client';
import { createDeveloperTokenSigner, type DeveloperTokenSource } from '../providers/apple/developer-token';
import type { CallScheduler } from '../providers/call-turns';
import { ProviderError } from '../providers/http';
import { serviceBudget } from '../providers/service-budget';
import { SpotifyProvider } from '../providers/spotify/client';
import {
  createSpotifyAuthorization,
  exchangeSpotifyCode,
  refreshSpotifyToken,
  requestSpotifyAppToken,
} from '../providers/spotify/oauth';
import type { MusicProvider, RateLimitListener } from '../providers/types';
import type { Encryptor } from '../security/encryption';
import { type Connection, ConnectionStore, type SpotifyStoredTokens } from './connection-store';
import { OAuthRequestStore } from './oauth-request-store';
import { SandboxAccountClaims } from './sandbox-account';

/**
 * Where each service lives and how a person connects to it. In sandbox mode the browser is sent to the
 * emulators' consent pages under PUBLIC_URL, while the server reaches the emulators over loopback.
 */

/** Refresh a little before expiry so a token does not lapse between check and use. */
const REFRESH_MARGIN_MS = 60_000;
/** Spotify counts an app's calls "within a rolling 30 second window" (its documentation); the budget is learned. */
const SPOTIFY_RATE_WINDOW_MS = 30_000;
/**
 * Apple publishes neither its budget (per developer token) nor its window; we take it as a rolling 30 s
 * window like Spotify's. Were it longer, Apple would still refuse now and then, each refusal teaching a
 * lower budget, and a refusal is handled as before.
 */
const APPLE_RATE_WINDOW_MS = 30_000;
/** Spotify refresh tokens stop working this long after the person authorized (July 2026 rule). */
export const SPOTIFY_AUTHORIZATION_LIFETIME_MS = 182 * 24 * 60 * 60_000;

export interface SandboxAppleKey {
  teamId: string;
  keyId: string;
  privateKeyPem: string;
}

export interface ProviderRuntimeOptions {
  config: Config;
  db: Database;
  encryptor: Encryptor;
  /** The sandbox's MusicKit key when Apple runs in sandbox mode. */
  sandboxAppleKey?: SandboxAppleKey;
  /** The secret that names and vouches for each person's sandbox account (decision 0022). */
  sandboxAccountSecret?: Uint8Array;
  /** Where refusals of the rate budgets are told. */
  logger?: Logger;
}

/** Tests only (SANDBOX_TEST_SCENARIOS): the fixed library a new sandbox account starts with. */
export interface ConnectOptions {
  scenario?: string | undefined;
}

/** A connection that failed after its request was found: carries where the person started from. */
export class ConnectionFailed extends DomainError {
  constructor(
    message: string,
    readonly returnTo: string,
    override readonly cause?: unknown,
  ) {
    super('invalid', message);
  }
}

const failureMessage = (error: unknown, service: ServiceId) =>
  error instanceof DomainError || error instanceof ProviderError
    ? error.message
    : `Failed to connect to ${SERVICE_LABELS[service]}`;

export interface ClientListeners {
  onRateLimit?: RateLimitListener;
  /**
   * Longest `Retry-After` waited inside a call. Jobs keep it short and requeue themselves for longer
   * waits, so a rate-limited job does not hold a worker slot other people's jobs need.
   */
  maxInlineWaitMs?: number;
  /** When the person asked for the work the client's calls serve: their turns go by it (call-turns.ts). */
  askedAt?: Date | undefined;
}

/**
 * A call's turn in the budget: a client made for a job (one that waits only briefly inline and requeues
 * for longer, `maxInlineWaitMs`) does background work; any other serves a person waiting for a page.
 */
const callTurn = (userId: string | undefined, listeners: ClientListeners | undefined) => ({
  userId,
  interactive: listeners?.maxInlineWaitMs === undefined,
  askedAt: listeners?.askedAt?.getTime(),
});

export class ProviderRuntime {
  readonly connections: ConnectionStore;
  /** OAuth requests in flight (state, PKCE verifier), shared with the cloud drives' connections. */
  readonly oauthRequests: OAuthRequestStore;
  private readonly appleDeveloperToken: DeveloperTokenSource | undefined;
  /**
   * Loopback origin of this server (PORT is fixed, never 0), for calls into the mounted emulators. A test
   * may point it at a proxy that counts the calls.
   */
  internalOrigin: string;
  /**
   * Spotify's quota is per app, so every Spotify client paces its calls in one budget, shared by every
   * process on PostgreSQL (service-budget.ts, decision 0029), where calls take turns across people. The
   * sandbox's emulator stands in for Spotify with its own window setting.
   */
  private readonly spotifyBudget: CallScheduler;
  /** Apple counts per developer token, which everyone shares: one budget too. */
  private readonly appleBudget: CallScheduler;
  private readonly sandboxAccounts: SandboxAccountClaims | undefined;

  constructor(private readonly options: ProviderRuntimeOptions) {
    const { config } = options;
    // PGlite serves one process: there the budget is the process's own.
    const shared = config.DATABASE_URL ? options.db : undefined;
    this.spotifyBudget = serviceBudget({
      service: 'spotify',
      app: this.spotifyClientId,
      windowMs: config.sandbox.spotify ? config.SANDBOX_RATE_WINDOW_SECONDS * 1000 : SPOTIFY_RATE_WINDOW_MS,
      shared,
      logger: options.logger,
    });
    this.appleBudget = serviceBudget({
      service: 'apple',
      app: config.sandbox.apple ? 'sandbox' : `${config.APPLE_TEAM_ID ?? ''}.${config.APPLE_KEY_ID ?? ''}`,
      windowMs: config.sandbox.apple ? config.SANDBOX_RATE_WINDOW_SECONDS * 1000 : APPLE_RATE_WINDOW_MS,
      shared,
      logger: options.logger,
    });
    this.connections = new ConnectionStore(options.db, options.encryptor);
    this.oauthRequests = new OAuthRequestStore(options.db, options.encryptor);
    this.internalOrigin = `http://127.0.0.1:${config.PORT}`;
    this.sandboxAccounts = options.sandboxAccountSecret
      ? new SandboxAccountClaims(options.sandboxAccountSecret)
      : undefined;
    // The developer token names the origin it serves (Apple's `origin` claim); the sandbox's sign-in page
    // sends the person back only there.
    const origins = [new URL(config.publicUrl).origin];
    const appleKey = config.sandbox.apple
      ? options.sandboxAppleKey && { ...options.sandboxAppleKey, origins }
      : config.APPLE_TEAM_ID && config.APPLE_KEY_ID && config.APPLE_PRIVATE_KEY
        ? {
            teamId: config.APPLE_TEAM_ID,
            keyId: config.APPLE_KEY_ID,
            privateKeyPem: config.APPLE_PRIVATE_KEY.replace(/\\n/g, '\n'),
            origins: [new URL(config.publicUrl).origin],
          }
        : undefined;
    this.appleDeveloperToken = appleKey ? createDeveloperTokenSigner(appleKey) : undefined;
  }

  private get config() {
    return this.options.config;
  }

  /** Base URLs as the server calls them. */
  get endpoints() {
    const { config } = this;
    // Emulators on their own (SANDBOX_URL) serve both the server's calls and the browser's consent pages.
    const standalone = config.SANDBOX_URL?.replace(/\/$/, '');
    const sandbox = (path: string) => `${standalone ?? this.internalOrigin}${path}`;
    const sandboxPublic = standalone ?? config.publicUrl;
    return {
      spotifyAccounts: config.sandbox.spotify
        ? sandbox('/sandbox/spotify/accounts')
        : config.SPOTIFY_ACCOUNTS_URL,
      spotifyAccountsPublic: config.sandbox.spotify
        ? `${sandboxPublic}/sandbox/spotify/accounts`
        : config.SPOTIFY_ACCOUNTS_URL,
      spotifyApi: config.sandbox.spotify ? sandbox('/sandbox/spotify/api/v1') : config.SPOTIFY_API_URL,
      appleApi: config.sandbox.apple ? sandbox('/sandbox/apple/v1') : config.APPLE_API_URL,
      appleAuthorizePublic: `${sandboxPublic}/sandbox/apple/authorize`,
      /** "Open in Apple Music": the emulator's own pages in sandbox mode. */
      appleWeb: config.sandbox.apple ? `${sandboxPublic}/sandbox/apple/web` : 'https://music.apple.com',
    };
  }

  /** In sandbox mode, where the emulators show a track or playlist ("Open in …"). */
  get sandboxPages(): { spotify?: string; apple?: string } {
    const standalone = this.config.SANDBOX_URL?.replace(/\/$/, '');
    const base = standalone ?? this.config.publicUrl;
    return {
      ...(this.config.sandbox.spotify ? { spotify: `${base}/sandbox/spotify/api/open` } : {}),
      ...(this.config.sandbox.apple ? { apple: `${base}/sandbox/apple/web` } : {}),
    };
  }

  private get spotifyClientId() {
    return this.config.SPOTIFY_CLIENT_ID ?? 'crossfade-sandbox';
  }

  private get spotifyRedirectUri() {
    return `${this.config.publicUrl}/api/auth/spotify/callback`;
  }

  // ── Connecting ──────────────────────────────────────────────────────────────────────────────

  async startSpotifyConnect(userId: string, returnTo: string, options: ConnectOptions = {}): Promise<string> {
    const request = await createSpotifyAuthorization({
      accountsBaseUrl: this.endpoints.spotifyAccountsPublic,
      clientId: this.spotifyClientId,
      redirectUri: this.spotifyRedirectUri,
    });
    await this.rememberOAuthRequest(userId, 'spotify', request.state, returnTo, request.codeVerifier);
    if (!this.config.sandbox.spotify) return request.url;
    return (
      await this.sandboxClaims().addTo(new URL(request.url), userId, 'spotify', options.scenario)
    ).toString();
  }

  async finishSpotifyConnect(userId: string, callback: URL): Promise<string> {
    const state = callback.searchParams.get('state') ?? '';
    const pending = await this.takeOAuthRequest(userId, 'spotify', state);
    try {
      const tokens = await exchangeSpotifyCode({
        accountsBaseUrl: this.endpoints.spotifyAccounts,
        clientId: this.spotifyClientId,
        redirectUri: this.spotifyRedirectUri,
        callback,
        expectedState: state,
        codeVerifier: pending.verifier ?? '',
      });
      const stored: SpotifyStoredTokens = { kind: 'spotify', ...tokens };
      const provider = this.spotifyProvider(userId, stored, new Date());
      const me = await provider.getCurrentUser();
      // Development-mode `/me` has no country: ask Spotify in which market it answers this person, and
      // failing that leave it unknown (the person is asked), never a silent `us`.
      const country = me.region ?? (await provider.detectCountry().catch(() => undefined));
      await this.connections.save({
        userId,
        service: 'spotify',
        providerUserId: me.id,
        displayName: me.displayName ?? null,
        region: country?.toLowerCase() ?? null,
        tokens: stored,
      });
    } catch (error) {
      throw new ConnectionFailed(failureMessage(error, 'spotify'), pending.returnTo, error);
    }
    return pending.returnTo;
  }

  /** Spec: `{useRedirect, authUrl, token}`. Sandbox: the emulator's consent page; real: a token for MusicKit. */
  async startAppleConnect(
    userId: string,
    returnTo: string,
    options: ConnectOptions & { prepareOnly?: boolean } = {},
  ) {
    const developerToken = await this.requireAppleDeveloperToken();
    if (!this.config.sandbox.apple) {
      return {
        useRedirect: false,
        authUrl: '',
        token: developerToken,
        musicKitScriptUrl: this.config.MUSICKIT_SCRIPT_URL,
      };
    }
    if (options.prepareOnly) return { useRedirect: true, authUrl: '', token: '' };
    const state = randomBytes(24).toString('base64url');
    await this.rememberOAuthRequest(userId, 'apple', state, returnTo);
    const url = new URL(this.endpoints.appleAuthorizePublic);
    url.searchParams.set('developer_token', developerToken);
    url.searchParams.set('redirect_uri', `${this.config.publicUrl}/api/auth/apple/callback`);
    url.searchParams.set('state', state);
    await this.sandboxClaims().addTo(url, userId, 'apple', options.scenario);
    return { useRedirect: true, authUrl: url.toString(), token: '' };
  }

  /** Sandbox redirect back from the emulator's consent page. */
  async finishAppleRedirect(userId: string, callback: URL): Promise<string> {
    const pending = await this.takeOAuthRequest(userId, 'apple', callback.searchParams.get('state') ?? '');
    try {
      if (callback.searchParams.get('error')) {
        throw badRequest('The Apple Music connection was cancelled, so nothing was connected.');
      }
      await this.saveAppleConnection(userId, callback.searchParams.get('music_user_token') ?? '');
    } catch (error) {
      throw new ConnectionFailed(failureMessage(error, 'apple'), pending.returnTo, error);
    }
    return pending.returnTo;
  }

  /** `POST /api/auth/apple/init {token}`: the Music User Token MusicKit on the Web handed the page. */
  async saveAppleConnection(userId: string, musicUserToken: string) {
    if (!musicUserToken) throw badRequest('Apple Music did not hand over a sign-in token. Please try again.');
    const provider = this.appleProvider({ musicUserToken });
    // Proves the token works (403 otherwise) and tells us the person's storefront.
    const me = await provider.getCurrentUser().catch((error: unknown) => {
      if (
        error instanceof ProviderError &&
        (error.kind === 'reconnect_required' || error.kind === 'forbidden')
      ) {
        throw badRequest('Apple Music did not accept that sign-in. Please connect again.');
      }
      throw error;
    });
    await this.connections.save({
      userId,
      service: 'apple',
      providerUserId: me.id,
      displayName: me.displayName ?? null,
      region: me.region?.toLowerCase() ?? null,
      tokens: { kind: 'apple', musicUserToken },
    });
  }

  disconnect(userId: string, service: ServiceId) {
    return this.connections.delete(userId, service);
  }

  // ── Using a connection ──────────────────────────────────────────────────────────────────────

  /** The person's client for a service; a 409 saying what to do when it is not connected. */
  async forUser(userId: string, service: ServiceId, listeners: ClientListeners = {}) {
    const connection = await this.connections.get(userId, service);
    if (!connection) throw conflict(`Please connect to ${SERVICE_LABELS[service]} before continuing.`);
    return this.providerFor(connection, listeners);
  }

  providerFor(connection: Connection, listeners: ClientListeners = {}): MusicProvider {
    const provider =
      connection.tokens.kind === 'spotify'
        ? this.spotifyProvider(
            connection.userId,
            connection.tokens,
            connection.authorizedAt,
            connection.region,
            listeners,
          )
        : this.appleProvider({
            musicUserToken: connection.tokens.musicUserToken,
            storefront: connection.region ?? undefined,
            listeners,
            userId: connection.userId,
          });
    // What Crossfade writes to the person's library shows in their next playlist list (decision 0032).
    return forgettingListsOnWrites(provider, () => forgetPlaylistLists(this.options.db, connection.userId));
  }

  private spotifyAppToken: Promise<{ accessToken: string; expiresAt: number }> | undefined;

  /**
   * Catalog-only Spotify client with an app token (client credentials), or null when this server has no
   * client secret. Spotify answers a person's token in that person's country whatever `market` says, so
   * availability elsewhere (the Geo-Lock Bypass) can only be asked with an app token.
   */
  spotifyCatalog(): MusicProvider | null {
    const clientSecret = this.config.sandbox.spotify
      ? SANDBOX_SPOTIFY_CLIENT_SECRET
      : this.config.SPOTIFY_CLIENT_SECRET;
    if (!clientSecret) return null;
    const fetchToken = () =>
      requestSpotifyAppToken({
        accountsBaseUrl: this.endpoints.spotifyAccounts,
        clientId: this.spotifyClientId,
        clientSecret,
      });
    const token = async (fresh: boolean) => {
      const cached = fresh ? undefined : await this.spotifyAppToken?.catch(() => undefined);
      if (cached && cached.expiresAt - REFRESH_MARGIN_MS > Date.now()) return cached.accessToken;
      this.spotifyAppToken = fetchToken();
      return (await this.spotifyAppToken).accessToken;
    };
    return new SpotifyProvider({
      apiBaseUrl: this.endpoints.spotifyApi,
      mode: this.config.SPOTIFY_MODE,
      tokens: { getAccessToken: () => token(false), refresh: () => token(true) },
      http: { rateBudget: this.spotifyBudget },
    });
  }

  /** Catalog-only Apple client (developer token alone): public playlists, availability by storefront. */
  async appleCatalog(storefront?: string): Promise<MusicProvider> {
    await this.requireAppleDeveloperToken();
    return this.appleProvider({ storefront });
  }

  private appleProvider(input: {
    userId?: string;
    musicUserToken?: string;
    storefront?: string | undefined;
    listeners?: ClientListeners;
  }) {
    const developerToken = this.appleDeveloperToken;
    if (!developerToken) throw notConfigured('Apple Music is not configured on this Crossfade server.');
    const { musicUserToken } = input;
    return new AppleMusicProvider({
      apiBaseUrl: this.endpoints.appleApi,
      webUrl: this.endpoints.appleWeb,
      developerToken,
      writeSettleMs: this.options.config.APPLE_WRITE_SETTLE_MS,
      ...(musicUserToken ? { musicUserToken: async () => musicUserToken } : {}),
      ...(input.storefront ? { storefront: input.storefront } : {}),
      ...(input.listeners?.onRateLimit ? { onRateLimit: input.listeners.onRateLimit } : {}),
      http: {
        rateBudget: this.appleBudget,
        turn: callTurn(input.userId, input.listeners),
        ...(input.listeners?.maxInlineWaitMs ? { maxRetryAfterMs: input.listeners.maxInlineWaitMs } : {}),
      },
    });
  }

  private spotifyProvider(
    userId: string,
    initial: SpotifyStoredTokens,
    authorizedAt: Date,
    region?: string | null,
    listeners: ClientListeners = {},
  ) {
    let current = initial;
    const refresh = async (): Promise<string> => {
      current = await this.refreshSpotify(userId, current, authorizedAt);
      return current.accessToken;
    };
    return new SpotifyProvider({
      apiBaseUrl: this.endpoints.spotifyApi,
      mode: this.config.SPOTIFY_MODE,
      ...(region ? { market: region.toUpperCase() } : {}),
      ...(listeners.onRateLimit ? { onRateLimit: listeners.onRateLimit } : {}),
      http: {
        rateBudget: this.spotifyBudget,
        turn: callTurn(userId, listeners),
        ...(listeners.maxInlineWaitMs ? { maxRetryAfterMs: listeners.maxInlineWaitMs } : {}),
      },
      tokens: {
        getAccessToken: async () =>
          current.expiresAt - REFRESH_MARGIN_MS > Date.now() ? current.accessToken : refresh(),
        refresh,
      },
    });
  }

  /**
   * Spotify refresh tokens are single-use: two jobs refreshing at once would break the connection. The row
   * lock serialises refreshes across processes, and whoever comes second uses the token the first stored.
   */
  private async refreshSpotify(
    userId: string,
    seen: SpotifyStoredTokens,
    authorizedAt: Date,
  ): Promise<SpotifyStoredTokens> {
    const { db } = this.options;
    try {
      return await db.transaction(async (tx) => {
        const locked = await this.connections.get(userId, 'spotify', { forUpdate: true, database: tx });
        if (locked?.tokens.kind !== 'spotify') {
          throw new ProviderError(
            'spotify',
            'reconnect_required',
            'Please connect to Spotify before continuing.',
          );
        }
        if (
          locked.tokens.accessToken !== seen.accessToken &&
          locked.tokens.expiresAt - REFRESH_MARGIN_MS > Date.now()
        ) {
          return locked.tokens;
        }
        if (Date.now() - authorizedAt.getTime() > SPOTIFY_AUTHORIZATION_LIFETIME_MS) {
          throw new ProviderError(
            'spotify',
            'reconnect_required',
            'Your Spotify sign-in is six months old, which is as long as Spotify allows. Please reconnect Spotify.',
          );
        }
        const tokens = await refreshSpotifyToken({
          accountsBaseUrl: this.endpoints.spotifyAccounts,
          clientId: this.spotifyClientId,
          refreshToken: locked.tokens.refreshToken,
        });
        const stored: SpotifyStoredTokens = { kind: 'spotify', ...tokens };
        await this.connections.updateTokens(userId, 'spotify', stored, tx);
        return stored;
      });
    } catch (error) {
      // A dead refresh token cannot come back: drop the connection so the page offers Connect again.
      if (error instanceof ProviderError && error.kind === 'reconnect_required')
        await this.disconnect(userId, 'spotify');
      throw error;
    }
  }

  /**
   * Sandbox mode: adds the signed claim naming the person's own emulator account to a consent URL of
   * another emulator that takes it (the cloud drives'), as the music services' connects do.
   */
  async addSandboxClaim(url: URL, userId: string, service: 'google-drive' | 'dropbox'): Promise<URL> {
    return this.sandboxClaims().addTo(url, userId, service);
  }

  private sandboxClaims(): SandboxAccountClaims {
    if (!this.sandboxAccounts) throw notConfigured('The sandbox has no account secret on this server.');
    return this.sandboxAccounts;
  }

  private async requireAppleDeveloperToken() {
    if (!this.appleDeveloperToken)
      throw notConfigured('Apple Music is not configured on this Crossfade server.');
    return this.appleDeveloperToken.getToken();
  }

  // ── OAuth requests in flight ────────────────────────────────────────────────────────────────

  private async rememberOAuthRequest(
    userId: string,
    service: ServiceId,
    state: string,
    returnTo: string,
    verifier?: string,
  ) {
    await this.oauthRequests.remember({
      userId,
      service,
      state,
      returnTo: safeReturnPath(returnTo),
      verifier,
    });
  }

  /** Single use: a replayed callback finds nothing. */
  private async takeOAuthRequest(userId: string, service: ServiceId, state: string) {
    const pending = await this.oauthRequests.take(userId, service, state);
    if (!pending) {
      throw badRequest(
        `This ${SERVICE_LABELS[service]} sign-in link is unknown, expired or was already used. Please try connecting again.`,
      );
    }
    return pending;
  }
}

/** Only our own paths: an attacker-supplied `returnTo` must not turn the callback into an open redirect. */
export function safeReturnPath(path: string, origin?: string): string {
  return safeRedirectPath(path, DEFAULT_RETURN_PATH, origin);
}

export const DEFAULT_RETURN_PATH = '/transfer';
