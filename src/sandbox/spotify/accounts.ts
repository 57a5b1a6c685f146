import { type Context, Hono } from 'hono';
import { addConsentRoutes, type ConsentSettings } from './consent-routes';
import { randomToken, sha256Base64Url } from './ids';
import { CODE_LIFETIME_MS } from './store';
import type { SpotifyWorld } from './world';

export const ACCESS_TOKEN_SECONDS = 3600;

export interface AccountsSettings extends ConsentSettings {
  /** The confidential clients' secrets, for the client-credentials grant. */
  clientSecrets: Readonly<Record<string, string>>;
}

/** The refresh token's absolute limit: six calendar months after the person agreed. */
function sixMonthsAfter(time: number): number {
  const date = new Date(time);
  date.setUTCMonth(date.getUTCMonth() + 6);
  return date.getTime();
}

/** Spotify's accounts service: the consent page and the token endpoint. */
export function createAccountsApp(world: SpotifyWorld, settings: AccountsSettings): Hono {
  const app = new Hono();
  addConsentRoutes(app, world, settings);
  app.post('/api/token', async (c) => {
    const type = c.req.header('content-type') ?? '';
    if (!type.includes('application/x-www-form-urlencoded')) {
      return tokenError(c, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded');
    }
    const form = new URLSearchParams(await c.req.text());
    const grantType = form.get('grant_type');
    if (!grantType) return tokenError(c, 'unsupported_grant_type', 'grant_type parameter is missing');
    if (grantType === 'client_credentials') return appToken(c, world, form, settings.clientSecrets);
    if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
      return tokenError(c, 'unsupported_grant_type', 'grant_type parameter is invalid');
    }
    if (!settings.clientIds.includes(form.get('client_id') ?? ''))
      return tokenError(c, 'invalid_client', 'Invalid client');
    return grantType === 'authorization_code' ? exchangeCode(c, world, form) : refresh(c, world, form);
  });
  return app;
}

const NO_STORE = { 'cache-control': 'no-store' };
const tokenError = (c: Context, error: string, description: string) =>
  c.json({ error, error_description: description }, 400, NO_STORE);

/**
 * An app token: the client proves itself with its secret (HTTP Basic, or in the form), gets no user and no
 * refresh token; catalog calls made with it answer for the `market` they name.
 */
function appToken(
  c: Context,
  world: SpotifyWorld,
  form: URLSearchParams,
  clientSecrets: Readonly<Record<string, string>>,
) {
  const basic = /^Basic\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
  const [id, secret] = basic?.[1]
    ? Buffer.from(basic[1], 'base64').toString('utf8').split(':').map(decodeURIComponent)
    : [form.get('client_id') ?? '', form.get('client_secret') ?? ''];
  const expected = clientSecrets[id ?? ''];
  if (!expected || secret !== expected) return tokenError(c, 'invalid_client', 'Invalid client secret');
  const issuedAt = world.now();
  const accessToken = randomToken();
  world.store.changeCredentials('', (credentials) => {
    for (const [token, record] of Object.entries(credentials.accessTokens))
      if (record.expiresAt <= issuedAt) delete credentials.accessTokens[token];
    credentials.accessTokens[accessToken] = {
      userId: '',
      app: true,
      clientId: id ?? '',
      scope: '',
      expiresAt: issuedAt + ACCESS_TOKEN_SECONDS * 1000,
    };
  });
  return c.json(
    { access_token: accessToken, token_type: 'Bearer', expires_in: ACCESS_TOKEN_SECONDS },
    200,
    NO_STORE,
  );
}

/** A new access token and refresh token for the user, stored in one write with the expired ones gone. */
function issue(
  world: SpotifyWorld,
  clientId: string,
  grant: { userId: string; scope: string; authorizedAt: number },
) {
  const now = world.now();
  return world.store.changeCredentials(grant.userId, (credentials) => {
    for (const [token, record] of Object.entries(credentials.accessTokens)) {
      if (record.expiresAt <= now) delete credentials.accessTokens[token];
    }
    const accessToken = randomToken();
    const refreshToken = randomToken();
    credentials.accessTokens[accessToken] = {
      userId: grant.userId,
      clientId,
      scope: grant.scope,
      expiresAt: now + ACCESS_TOKEN_SECONDS * 1000,
    };
    credentials.refreshTokens[refreshToken] = { ...grant, clientId };
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      scope: grant.scope,
      expires_in: ACCESS_TOKEN_SECONDS,
      refresh_token: refreshToken,
    };
  });
}

function exchangeCode(c: Context, world: SpotifyWorld, form: URLSearchParams) {
  const clientId = form.get('client_id') ?? '';
  const code = form.get('code') ?? '';
  const record = world.store.credential('codes', code);
  const now = world.now();
  if (!record || now - record.issuedAt > CODE_LIFETIME_MS) {
    return tokenError(c, 'invalid_grant', 'Invalid authorization code');
  }
  if (record.clientId !== clientId) return tokenError(c, 'invalid_client', 'Invalid client');
  if (record.redirectUri !== form.get('redirect_uri'))
    return tokenError(c, 'invalid_grant', 'Invalid redirect URI');
  const verifier = form.get('code_verifier') ?? '';
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || sha256Base64Url(verifier) !== record.codeChallenge) {
    return tokenError(c, 'invalid_grant', 'code_verifier was incorrect');
  }
  world.store.deleteCredential('codes', code);
  return c.json(
    issue(world, clientId, { userId: record.userId, scope: record.scope, authorizedAt: now }),
    200,
    NO_STORE,
  );
}

function refresh(c: Context, world: SpotifyWorld, form: URLSearchParams) {
  const clientId = form.get('client_id') ?? '';
  const refreshToken = form.get('refresh_token') ?? '';
  const record = world.store.credential('refreshTokens', refreshToken);
  if (!record) return tokenError(c, 'invalid_grant', 'Invalid refresh token');
  if (record.clientId !== clientId) return tokenError(c, 'invalid_client', 'Invalid client');
  if (world.now() >= sixMonthsAfter(record.authorizedAt))
    return tokenError(c, 'invalid_grant', 'Refresh token expired');
  // Rotation: the presented token works once; its successor carries the original authorization time.
  world.store.deleteCredential('refreshTokens', refreshToken);
  return c.json(
    issue(world, clientId, { userId: record.userId, scope: record.scope, authorizedAt: record.authorizedAt }),
    200,
    NO_STORE,
  );
}
