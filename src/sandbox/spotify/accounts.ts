import { Hono } from 'hono';
import { isSandboxAccountKey, SANDBOX_COUNTRIES, sandboxAccount } from '../accounts';
import { consentPage } from './consent-page';
import { randomToken, sha256Base64Url } from './ids';
import { USERS } from './state';
import type { SpotifyWorld } from './world';

export const ACCESS_TOKEN_SECONDS = 3600;
const CODE_LIFETIME_MS = 10 * 60_000;
const AUTHORIZE_PARAMS = [
  'client_id',
  'response_type',
  'redirect_uri',
  'code_challenge_method',
  'code_challenge',
  'state',
  'scope',
  // Not Spotify's: the app's digest of its own user id, so each person gets their own sandbox account.
  'sandbox_account',
] as const;

/** Spotify accepts https redirect URIs, and plain http only for loopback IP literals (never `localhost`). */
function isAllowedRedirect(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.protocol === 'https:') return true;
    return url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === '[::1]');
  } catch {
    return false;
  }
}

/** The refresh token's absolute limit: six calendar months after the person agreed. */
function sixMonthsAfter(time: number): number {
  const date = new Date(time);
  date.setUTCMonth(date.getUTCMonth() + 6);
  return date.getTime();
}

function redirectWith(redirectUri: string, params: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

/** `clientSecrets`: the confidential clients' secrets, for the client-credentials grant. */
export function createAccountsApp(
  world: SpotifyWorld,
  clientIds: readonly string[],
  clientSecrets: Readonly<Record<string, string>> = {},
): Hono {
  const app = new Hono();
  const badPage = (message: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Error – Spotify sandbox</title></head><body><main><h1>Something went wrong</h1><p role="alert">${message}</p></main></body></html>`;

  app.get('/authorize', (c) => {
    const query = c.req.query();
    const params = Object.fromEntries(AUTHORIZE_PARAMS.map((name) => [name, query[name] ?? '']));
    if (!clientIds.includes(params.client_id ?? ''))
      return c.html(badPage('INVALID_CLIENT: Invalid client'), 400);
    if (!isAllowedRedirect(params.redirect_uri ?? '')) {
      return c.html(badPage('INVALID_CLIENT: Invalid redirect URI'), 400);
    }
    if (params.response_type !== 'code') {
      return c.redirect(
        redirectWith(params.redirect_uri ?? '', {
          error: 'unsupported_response_type',
          state: params.state ?? '',
        }),
      );
    }
    if (params.code_challenge_method !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(params.code_challenge ?? '')) {
      return c.redirect(
        redirectWith(params.redirect_uri ?? '', { error: 'invalid_request', state: params.state ?? '' }),
      );
    }
    const scopes = (params.scope ?? '').split(' ').filter(Boolean);
    const account = isSandboxAccountKey(params.sandbox_account)
      ? sandboxAccount(params.sandbox_account)
      : null;
    // A returning person sees the country their account has now.
    const country = account ? world.state.value.accounts?.[account.spotifyUserId]?.country : undefined;
    const own = account && { ...account, country: (country ?? account.country) as typeof account.country };
    return c.html(consentPage(params, scopes, new URL(c.req.url).pathname, own));
  });

  app.post('/authorize', async (c) => {
    const form = await c.req.parseBody();
    const field = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : '');
    const redirectUri = field('redirect_uri');
    if (!clientIds.includes(field('client_id')) || !isAllowedRedirect(redirectUri)) {
      return c.html(badPage('INVALID_CLIENT: Invalid client'), 400);
    }
    const state = field('state');
    if (field('decision') !== 'agree')
      return c.redirect(redirectWith(redirectUri, { error: 'access_denied', state }));
    const chosen = field('account');
    const own = chosen === 'own' && isSandboxAccountKey(field('sandbox_account'));
    const user = own
      ? world.ensureAccount(
          field('sandbox_account'),
          (SANDBOX_COUNTRIES as readonly string[]).includes(field('country')) ? field('country') : undefined,
        )
      : USERS.find((candidate) => candidate.id === chosen);
    if (!user) return c.html(badPage('Unknown account'), 400);
    const code = randomToken();
    world.state.update((s) => {
      // Codes nobody exchanged would pile up in the state file.
      for (const [stale, record] of Object.entries(s.codes)) {
        if (world.now() - record.issuedAt > CODE_LIFETIME_MS) delete s.codes[stale];
      }
      s.codes[code] = {
        clientId: field('client_id'),
        redirectUri,
        codeChallenge: field('code_challenge'),
        userId: user.id,
        scope: field('scope'),
        issuedAt: world.now(),
      };
    });
    return c.redirect(redirectWith(redirectUri, { code, state }));
  });

  app.post('/api/token', async (c) => {
    const tokenError = (error: string, description: string) =>
      c.json({ error, error_description: description }, 400, { 'cache-control': 'no-store' });
    const type = c.req.header('content-type') ?? '';
    if (!type.includes('application/x-www-form-urlencoded')) {
      return tokenError('invalid_request', 'Content-Type must be application/x-www-form-urlencoded');
    }
    const form = new URLSearchParams(await c.req.text());
    const clientId = form.get('client_id') ?? '';
    const grantType = form.get('grant_type');
    if (!grantType) return tokenError('unsupported_grant_type', 'grant_type parameter is missing');
    if (grantType === 'client_credentials') {
      // An app token: the client proves itself with its secret (HTTP Basic, or in the form), gets no user
      // and no refresh token; catalog calls made with it answer for the `market` they name.
      const basic = /^Basic\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
      const [id, secret] = basic?.[1]
        ? Buffer.from(basic[1], 'base64').toString('utf8').split(':').map(decodeURIComponent)
        : [clientId, form.get('client_secret') ?? ''];
      const expected = clientSecrets[id ?? ''];
      if (!expected || secret !== expected) return tokenError('invalid_client', 'Invalid client secret');
      const issuedAt = world.now();
      const accessToken = randomToken();
      world.state.update((s) => {
        s.accessTokens[accessToken] = {
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
        { 'cache-control': 'no-store' },
      );
    }
    if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
      return tokenError('unsupported_grant_type', 'grant_type parameter is invalid');
    }
    if (!clientIds.includes(clientId)) return tokenError('invalid_client', 'Invalid client');
    const now = world.now();

    const issue = (userId: string, scope: string, authorizedAt: number) =>
      world.state.update((s) => {
        for (const [token, record] of Object.entries(s.accessTokens)) {
          if (record.expiresAt <= now) delete s.accessTokens[token];
        }
        const accessToken = randomToken();
        const refreshToken = randomToken();
        s.accessTokens[accessToken] = {
          userId,
          clientId,
          scope,
          expiresAt: now + ACCESS_TOKEN_SECONDS * 1000,
        };
        s.refreshTokens[refreshToken] = { userId, clientId, scope, authorizedAt };
        return {
          access_token: accessToken,
          token_type: 'Bearer',
          scope,
          expires_in: ACCESS_TOKEN_SECONDS,
          refresh_token: refreshToken,
        };
      });

    if (grantType === 'authorization_code') {
      const code = form.get('code') ?? '';
      const record = world.state.value.codes[code];
      if (!record || now - record.issuedAt > CODE_LIFETIME_MS) {
        return tokenError('invalid_grant', 'Invalid authorization code');
      }
      if (record.clientId !== clientId) return tokenError('invalid_client', 'Invalid client');
      if (record.redirectUri !== form.get('redirect_uri'))
        return tokenError('invalid_grant', 'Invalid redirect URI');
      const verifier = form.get('code_verifier') ?? '';
      if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || sha256Base64Url(verifier) !== record.codeChallenge) {
        return tokenError('invalid_grant', 'code_verifier was incorrect');
      }
      world.state.update((s) => {
        delete s.codes[code];
      });
      return c.json(issue(record.userId, record.scope, now), 200, { 'cache-control': 'no-store' });
    }

    const refreshToken = form.get('refresh_token') ?? '';
    const record = world.state.value.refreshTokens[refreshToken];
    if (!record) return tokenError('invalid_grant', 'Invalid refresh token');
    if (record.clientId !== clientId) return tokenError('invalid_client', 'Invalid client');
    if (now >= sixMonthsAfter(record.authorizedAt))
      return tokenError('invalid_grant', 'Refresh token expired');
    // Rotation: the presented token works once; its successor carries the original authorization time.
    world.state.update((s) => {
      delete s.refreshTokens[refreshToken];
    });
    return c.json(issue(record.userId, record.scope, record.authorizedAt), 200, {
      'cache-control': 'no-store',
    });
  });

  return app;
}
