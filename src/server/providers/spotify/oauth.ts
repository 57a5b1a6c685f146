import * as oauth from 'oauth4webapi';
import { ProviderError } from '../http';
import { tokenResponseSchema } from './schemas';

/** What Crossfade asks for (Spotify Web API scopes): read and write playlists, upload covers, read the profile. */
/**
 * Only what Crossfade uses: reading the person's playlists (private and collaborative ones too), creating
 * and filling private playlists, and reading and saving Liked Songs and saved albums (the library). No
 * cover upload and no `/me` fields (gone in development mode).
 */
export const SPOTIFY_SCOPES = [
  'playlist-read-private',
  'playlist-read-collaborative',
  'playlist-modify-public',
  'playlist-modify-private',
  'user-library-read',
  'user-library-modify',
] as const;

export interface SpotifyOAuthConfig {
  /** `https://accounts.spotify.com`, or the sandbox's `<origin>/sandbox/spotify/accounts`. */
  accountsBaseUrl: string;
  clientId: string;
  /** Must match the app's registered URI exactly: https, or http only on a loopback IP literal. */
  redirectUri: string;
  /** Clock for `expiresAt`. */
  now?: () => number;
}

export interface SpotifyAuthorizationRequest {
  url: string;
  /** Keep with the verifier (server-side session) until the callback comes back. */
  state: string;
  codeVerifier: string;
}

export interface SpotifyTokens {
  accessToken: string;
  refreshToken: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  scope: string;
}

export const RECONNECT_MESSAGE =
  'Your Spotify connection has expired or was withdrawn. Please reconnect Spotify to continue.';

function endpoints(config: SpotifyOAuthConfig) {
  const base = config.accountsBaseUrl.replace(/\/+$/, '');
  const as: oauth.AuthorizationServer = {
    issuer: base,
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${base}/api/token`,
  };
  const client: oauth.Client = { client_id: config.clientId };
  // oauth4webapi refuses plain http; the sandbox on this machine's loopback is the one place it is fine.
  const options = /^http:\/\/127\.0\.0\.1(?::\d+)?(?:\/|$)/.test(base)
    ? { [oauth.allowInsecureRequests]: true }
    : {};
  return { as, client, options };
}

export async function createSpotifyAuthorization(
  config: SpotifyOAuthConfig & { scopes?: readonly string[]; showDialog?: boolean },
): Promise<SpotifyAuthorizationRequest> {
  const { as } = endpoints(config);
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint ?? '');
  url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('redirect_uri', config.redirectUri);
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
  url.searchParams.set('state', state);
  url.searchParams.set('scope', (config.scopes ?? SPOTIFY_SCOPES).join(' '));
  if (config.showDialog) url.searchParams.set('show_dialog', 'true');
  return { url: url.toString(), state, codeVerifier };
}

/** Trades the callback's code for tokens; `callback` is the URL (or its query) Spotify redirected to. */
export async function exchangeSpotifyCode(
  config: SpotifyOAuthConfig & {
    callback: URL | URLSearchParams | string;
    expectedState: string;
    codeVerifier: string;
  },
): Promise<SpotifyTokens> {
  const { as, client, options } = endpoints(config);
  const callback =
    typeof config.callback === 'string'
      ? new URL(config.callback, 'http://127.0.0.1').searchParams
      : config.callback instanceof URL
        ? config.callback.searchParams
        : config.callback;
  let parameters: URLSearchParams;
  try {
    parameters = oauth.validateAuthResponse(as, client, callback, config.expectedState);
  } catch (error) {
    if (error instanceof oauth.AuthorizationResponseError && error.error === 'access_denied') {
      throw new ProviderError(
        'spotify',
        'forbidden',
        'The Spotify connection was cancelled, so nothing was connected.',
      );
    }
    throw new ProviderError(
      'spotify',
      'bad_request',
      'The answer from Spotify did not match this sign-in attempt. Please try connecting again.',
    );
  }
  return tokenCall(config, 'exchange', async () => {
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      parameters,
      config.redirectUri,
      config.codeVerifier,
      options,
    );
    return oauth.processAuthorizationCodeResponse(as, client, response);
  });
}

/**
 * An app token (client credentials): no user, so Spotify answers catalog calls for the `market` they
 * name. Needs the client secret, so only the server asks for one.
 */
export async function requestSpotifyAppToken(
  config: Pick<SpotifyOAuthConfig, 'accountsBaseUrl' | 'clientId' | 'now'> & { clientSecret: string },
): Promise<{ accessToken: string; expiresAt: number }> {
  const { as, client, options } = endpoints({ ...config, redirectUri: '' });
  const tokens = await tokenCall(config, 'exchange', async () => {
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(config.clientSecret),
      new URLSearchParams(),
      options,
    );
    return oauth.processClientCredentialsResponse(as, client, response);
  });
  return { accessToken: tokens.accessToken, expiresAt: tokens.expiresAt };
}

/** Refreshes; Spotify rotates the refresh token, so store the returned one in place of the old. */
export async function refreshSpotifyToken(
  config: Omit<SpotifyOAuthConfig, 'redirectUri'> & { refreshToken: string },
): Promise<SpotifyTokens> {
  const { as, client, options } = endpoints({ ...config, redirectUri: '' });
  const tokens = await tokenCall(config, 'refresh', async () => {
    const response = await oauth.refreshTokenGrantRequest(
      as,
      client,
      oauth.None(),
      config.refreshToken,
      options,
    );
    return oauth.processRefreshTokenResponse(as, client, response);
  });
  return { ...tokens, refreshToken: tokens.refreshToken || config.refreshToken };
}

async function tokenCall(
  config: Pick<SpotifyOAuthConfig, 'now'>,
  step: 'exchange' | 'refresh',
  call: () => Promise<oauth.TokenEndpointResponse>,
): Promise<SpotifyTokens> {
  let answer: oauth.TokenEndpointResponse;
  try {
    answer = await call();
  } catch (error) {
    throw toProviderError(error, step);
  }
  const parsed = tokenResponseSchema.safeParse(answer);
  if (!parsed.success) {
    throw new ProviderError(
      'spotify',
      'malformed',
      'Spotify sent an unexpected answer from its token endpoint.',
    );
  }
  return {
    accessToken: parsed.data.access_token,
    refreshToken: parsed.data.refresh_token ?? '',
    expiresAt: (config.now ?? Date.now)() + parsed.data.expires_in * 1000,
    scope: parsed.data.scope ?? '',
  };
}

function toProviderError(error: unknown, step: 'exchange' | 'refresh'): ProviderError {
  if (error instanceof oauth.ResponseBodyError) {
    const said = error.error_description ? ` (Spotify said: "${error.error_description}")` : '';
    if (error.error === 'invalid_grant') {
      return step === 'refresh'
        ? new ProviderError('spotify', 'reconnect_required', `${RECONNECT_MESSAGE}${said}`, error.status)
        : new ProviderError(
            'spotify',
            'unauthorized',
            `Spotify did not accept this sign-in${said}. Please connect Spotify again.`,
            error.status,
          );
    }
    if (error.error === 'invalid_client') {
      return new ProviderError(
        'spotify',
        'bad_request',
        `Spotify does not recognise Crossfade's client id${said}. The app's Spotify settings need fixing.`,
        error.status,
      );
    }
    return new ProviderError('spotify', 'bad_request', `Spotify refused the sign-in${said}.`, error.status);
  }
  if (error instanceof oauth.OperationProcessingError) {
    const cause: unknown = error.cause;
    if (cause instanceof Response && cause.status >= 500) {
      return new ProviderError(
        'spotify',
        'unavailable',
        `Spotify's sign-in service is having trouble (error ${cause.status}).`,
        cause.status,
      );
    }
    return new ProviderError(
      'spotify',
      'malformed',
      `Spotify's sign-in service sent an unexpected answer (${error.message}).`,
    );
  }
  if (error instanceof ProviderError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new ProviderError('spotify', 'unavailable', `Spotify's sign-in service did not answer (${detail}).`);
}
