import { generateRandomCodeVerifier } from 'oauth4webapi';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CLIENT_ID,
  connect,
  REDIRECT_URI,
  type SandboxServer,
  startSandbox,
  submitConsent,
} from '../../testing/spotify-sandbox';
import { ProviderError } from '../http';
import {
  createSpotifyAuthorization,
  exchangeSpotifyCode,
  refreshSpotifyToken,
  SPOTIFY_SCOPES,
  type SpotifyOAuthConfig,
} from './oauth';

let sandbox: SandboxServer | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ProviderError)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error;
}

const configFor = (server: SandboxServer, extra: Partial<SpotifyOAuthConfig> = {}): SpotifyOAuthConfig => ({
  accountsBaseUrl: server.accountsBaseUrl,
  clientId: CLIENT_ID,
  redirectUri: REDIRECT_URI,
  ...extra,
});

describe('Spotify OAuth (Authorization Code + PKCE) against the sandbox', () => {
  it('builds an S256 authorization URL with the scopes Crossfade needs', async () => {
    const request = await createSpotifyAuthorization({
      accountsBaseUrl: 'https://accounts.spotify.com',
      clientId: 'abc',
      redirectUri: REDIRECT_URI,
    });
    const url = new URL(request.url);
    expect(url.origin + url.pathname).toBe('https://accounts.spotify.com/authorize');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toBe(request.state);
    expect(url.searchParams.get('scope')?.split(' ')).toEqual([...SPOTIFY_SCOPES]);
    expect(request.codeVerifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
  });

  it('connects: consent, code exchange, one-hour access token', async () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    sandbox = await startSandbox({ now: () => now });
    const tokens = await connect(sandbox, undefined, () => now);
    expect(tokens.expiresAt).toBe(now + 3600 * 1000);
    expect(tokens.scope.split(' ')).toContain('playlist-modify-private');
    const me = await fetch(`${sandbox.apiBaseUrl}/me`, {
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    expect(me.status).toBe(200);
  });

  it('reports a cancelled consent', async () => {
    sandbox = await startSandbox();
    const config = configFor(sandbox);
    const request = await createSpotifyAuthorization(config);
    const callback = await submitConsent(request.url, { decision: 'cancel' });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe(request.state);
    const error = await rejection(
      exchangeSpotifyCode({
        ...config,
        callback,
        expectedState: request.state,
        codeVerifier: request.codeVerifier,
      }),
    );
    expect(error.kind).toBe('forbidden');
    expect(error.message).toContain('cancelled');
  });

  it('refuses a callback whose state is not ours', async () => {
    sandbox = await startSandbox();
    const config = configFor(sandbox);
    const request = await createSpotifyAuthorization(config);
    const callback = await submitConsent(request.url, { decision: 'agree' });
    const error = await rejection(
      exchangeSpotifyCode({
        ...config,
        callback,
        expectedState: 'someone-else',
        codeVerifier: request.codeVerifier,
      }),
    );
    expect(error.kind).toBe('bad_request');
  });

  it('refuses the wrong PKCE verifier', async () => {
    sandbox = await startSandbox();
    const config = configFor(sandbox);
    const request = await createSpotifyAuthorization(config);
    const callback = await submitConsent(request.url, { decision: 'agree' });
    const error = await rejection(
      exchangeSpotifyCode({
        ...config,
        callback,
        expectedState: request.state,
        codeVerifier: generateRandomCodeVerifier(),
      }),
    );
    expect(error.kind).toBe('unauthorized');
    expect(error.message).toContain('code_verifier was incorrect');
  });

  it('refuses a redirect URI that differs from the one authorized', async () => {
    sandbox = await startSandbox();
    const config = configFor(sandbox);
    const request = await createSpotifyAuthorization(config);
    const callback = await submitConsent(request.url, { decision: 'agree' });
    const error = await rejection(
      exchangeSpotifyCode({
        ...config,
        redirectUri: 'http://127.0.0.1:5173/other/callback',
        callback,
        expectedState: request.state,
        codeVerifier: request.codeVerifier,
      }),
    );
    expect(error.message).toContain('Invalid redirect URI');
  });

  it('accepts a code once only', async () => {
    sandbox = await startSandbox();
    const config = configFor(sandbox);
    const request = await createSpotifyAuthorization(config);
    const callback = await submitConsent(request.url, { decision: 'agree' });
    const exchange = () =>
      exchangeSpotifyCode({
        ...config,
        callback,
        expectedState: request.state,
        codeVerifier: request.codeVerifier,
      });
    await exchange();
    const error = await rejection(exchange());
    expect(error.kind).toBe('unauthorized');
    expect(error.message).toContain('Invalid authorization code');
  });

  it('refuses an unknown client id', async () => {
    sandbox = await startSandbox();
    const config = configFor(sandbox);
    const request = await createSpotifyAuthorization(config);
    const callback = await submitConsent(request.url, { decision: 'agree' });
    const error = await rejection(
      exchangeSpotifyCode({
        ...config,
        clientId: 'not-our-app',
        callback,
        expectedState: request.state,
        codeVerifier: request.codeVerifier,
      }),
    );
    expect(error.kind).toBe('bad_request');
    expect(error.message).toContain('client id');
  });

  it('rotates refresh tokens: each works once, a reused one asks to reconnect', async () => {
    sandbox = await startSandbox();
    const first = await connect(sandbox);
    const config = { accountsBaseUrl: sandbox.accountsBaseUrl, clientId: CLIENT_ID };
    const second = await refreshSpotifyToken({ ...config, refreshToken: first.refreshToken });
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.accessToken).not.toBe(first.accessToken);
    const error = await rejection(refreshSpotifyToken({ ...config, refreshToken: first.refreshToken }));
    expect(error.kind).toBe('reconnect_required');
    expect(error.message).toContain('Please reconnect Spotify');
    expect(error.message).toContain('Invalid refresh token');
    // The rotated token still works.
    await refreshSpotifyToken({ ...config, refreshToken: second.refreshToken });
  });

  it('stops refreshing six months after the person agreed, however often it rotated', async () => {
    let clock = Date.parse('2026-01-15T09:00:00Z');
    sandbox = await startSandbox({ now: () => clock });
    const config = { accountsBaseUrl: sandbox.accountsBaseUrl, clientId: CLIENT_ID, now: () => clock };
    let tokens = await connect(sandbox, undefined, () => clock);
    for (const month of ['2026-03-15', '2026-05-15', '2026-07-14']) {
      clock = Date.parse(`${month}T09:00:00Z`);
      tokens = await refreshSpotifyToken({ ...config, refreshToken: tokens.refreshToken });
      expect(tokens.expiresAt).toBe(clock + 3600 * 1000);
    }
    clock = Date.parse('2026-07-15T09:00:01Z');
    const error = await rejection(refreshSpotifyToken({ ...config, refreshToken: tokens.refreshToken }));
    expect(error.kind).toBe('reconnect_required');
    expect(error.message).toContain('Refresh token expired');
  });

  it('reports a token endpoint that is down as unavailable', async () => {
    const error = await rejection(
      refreshSpotifyToken({ accountsBaseUrl: 'http://127.0.0.1:9', clientId: CLIENT_ID, refreshToken: 'x' }),
    );
    expect(error.kind).toBe('unavailable');
  });
});
