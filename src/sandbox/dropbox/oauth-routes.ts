import type { Context, Hono } from 'hono';
import type { DriveAccountClaims } from '../cloud-drives/account-claims';
import { type DriveGrants, type RegisteredClient, validChallenge } from '../cloud-drives/grants';
import { errorPage, type PageSessions } from '../cloud-drives/web-pages';
import { consentPage, DROPBOX_STYLE, dropboxAccountId, dropboxUid } from './pages';
import { APP_SCOPES } from './wire';

/**
 * Dropbox OAuth 2 as Crossfade uses it: www.dropbox.com's `/oauth2/authorize` (code flow, PKCE, `state`,
 * `token_access_type=offline`, scopes) and api.dropboxapi.com's `/oauth2/token`, which takes its
 * parameters from the form body or, as the official SDK sends them, the query string. A PKCE grant is
 * exchanged and refreshed without the app secret; any other needs it.
 */

const AUTHORIZE_PARAMS = [
  'client_id',
  'response_type',
  'redirect_uri',
  'state',
  'token_access_type',
  'scope',
  'include_granted_scopes',
  'code_challenge',
  'code_challenge_method',
  'force_reapprove',
  // Not Dropbox's: the app's signed claim naming the person's own sandbox account (decision 0022).
  'sandbox_account',
] as const;
type AuthorizeParams = Record<(typeof AUTHORIZE_PARAMS)[number], string>;

type Checked =
  | { ok: true; params: AuthorizeParams; scopes: string[] }
  | { ok: false; page: string }
  | { ok: false; redirect: string };

function redirectWith(uri: string, params: Record<string, string>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params)) if (value) url.searchParams.set(key, value);
  return url.toString();
}

function checkAuthorize(source: Record<string, unknown>, clients: readonly RegisteredClient[]): Checked {
  const params = Object.fromEntries(
    AUTHORIZE_PARAMS.map((name) => [name, typeof source[name] === 'string' ? (source[name] as string) : '']),
  ) as AuthorizeParams;
  const page = (message: string) =>
    ({ ok: false, page: errorPage(DROPBOX_STYLE, 'Error (400)', message) }) as const;
  const client = clients.find((candidate) => candidate.id === params.client_id);
  if (!client) return page('Invalid client_id or redirect_uri: the app key is not known.');
  if (!client.redirectUris.includes(params.redirect_uri)) {
    return page(
      "Invalid redirect_uri. It must exactly match one of the redirect URIs you've pre-configured for your app (including the path).",
    );
  }
  if (params.response_type !== 'code') {
    return {
      ok: false,
      redirect: redirectWith(params.redirect_uri, {
        error: 'unsupported_response_type',
        state: params.state,
      }),
    };
  }
  if (params.token_access_type && !['online', 'offline', 'legacy'].includes(params.token_access_type)) {
    return page(`Invalid token_access_type: ${params.token_access_type}`);
  }
  const scopes = params.scope ? params.scope.split(/\s+/).filter(Boolean) : [...APP_SCOPES];
  const unknown = scopes.filter((scope) => !(APP_SCOPES as readonly string[]).includes(scope));
  if (unknown.length > 0)
    return page(`Invalid scope: this app does not have the permissions ${unknown.join(', ')}.`);
  if (params.code_challenge || params.code_challenge_method) {
    if (!validChallenge(params.code_challenge, params.code_challenge_method || 'plain')) {
      return page('Invalid code_challenge or code_challenge_method.');
    }
  }
  return { ok: true, params, scopes };
}

export function addOAuthRoutes(
  app: Hono,
  input: {
    clients: readonly RegisteredClient[];
    grants: DriveGrants;
    sessions: PageSessions;
    claims: DriveAccountClaims;
  },
): void {
  const { clients, grants, sessions, claims } = input;
  const refuse = (c: Context, checked: Exclude<Checked, { ok: true }>) =>
    'redirect' in checked ? c.redirect(checked.redirect) : c.html(checked.page, 400);

  const refuseClaim = (c: Context, message: string) =>
    c.html(errorPage(DROPBOX_STYLE, 'Error (403)', message), 403);

  app.get('/www/oauth2/authorize', async (c) => {
    const checked = checkAuthorize(c.req.query(), clients);
    if (!checked.ok) return refuse(c, checked);
    const claim = await claims.check(checked.params, false);
    if (!claim.ok) return refuseClaim(c, claim.message);
    const page = consentPage(
      checked.params,
      claim.claim.account,
      checked.scopes,
      new URL(c.req.url).pathname,
    );
    return c.html(page);
  });

  app.post('/www/oauth2/authorize', async (c) => {
    const form = await c.req.parseBody();
    const checked = checkAuthorize(form, clients);
    if (!checked.ok) return refuse(c, checked);
    const { params, scopes } = checked;
    // The claim is good for one consent, allowed or refused.
    const claim = await claims.check(params, true);
    if (!claim.ok) return refuseClaim(c, claim.message);
    const account = claim.claim.account;
    if (form.decision !== 'allow') {
      return c.redirect(
        redirectWith(params.redirect_uri, {
          error: 'access_denied',
          error_description: 'The user chose not to give your app access to their Dropbox account.',
          state: params.state,
        }),
      );
    }
    const code = grants.issueCode({
      clientId: params.client_id,
      redirectUri: params.redirect_uri,
      account,
      scope: scopes.join(' '),
      challenge: params.code_challenge,
      challengeMethod: params.code_challenge
        ? (params.code_challenge_method as 'S256' | 'plain') || 'plain'
        : '',
      offline: params.token_access_type === 'offline',
    });
    sessions.signIn(c, account);
    return c.redirect(redirectWith(params.redirect_uri, { code, state: params.state }));
  });

  app.post('/api/oauth2/token', async (c) => {
    const params = new URLSearchParams(new URL(c.req.url).search);
    if ((c.req.header('content-type') ?? '').includes('application/x-www-form-urlencoded')) {
      for (const [key, value] of new URLSearchParams(await c.req.text())) params.set(key, value);
    }
    const tokenError = (error: string, description: string) =>
      c.json({ error, error_description: description }, 400, { 'cache-control': 'no-store' });
    const [clientId, secret] = credentials(c, params);
    const client = clients.find((candidate) => candidate.id === clientId);
    if (!client || (secret && secret !== client.secret)) {
      return tokenError('invalid_client', 'Invalid client_id or client_secret');
    }
    const grantType = params.get('grant_type');
    if (grantType === 'authorization_code') {
      const exchanged = grants.exchangeCode(params.get('code') ?? '', {
        clientId,
        redirectUri: params.get('redirect_uri') ?? '',
        verifier: params.get('code_verifier') ?? '',
      });
      if (!exchanged.ok) {
        if (exchanged.problem === 'wrong_redirect')
          return tokenError('invalid_grant', 'redirect_uri mismatch');
        if (exchanged.problem === 'missing_verifier' || exchanged.problem === 'bad_verifier') {
          return tokenError('invalid_grant', 'invalid code verifier');
        }
        return tokenError('invalid_grant', "code doesn't exist or has expired");
      }
      const { grant } = exchanged;
      const pkce = grant.challenge !== '';
      if (!pkce && secret !== client.secret)
        return tokenError('invalid_client', 'No auth function available for given request');
      const tokens = grants.issueTokens({ ...grant, pkce }, grant.offline);
      return c.json(tokenBody(tokens, grant.scope, grant.account), 200, { 'cache-control': 'no-store' });
    }
    if (grantType === 'refresh_token') {
      const grant = grants.refreshGrant(params.get('refresh_token') ?? '', clientId);
      if (!grant) return tokenError('invalid_grant', 'refresh token is invalid or revoked');
      if (!grant.pkce && secret !== client.secret)
        return tokenError('invalid_client', 'No auth function available for given request');
      const tokens = grants.issueTokens(grant, false);
      return c.json(tokenBody(tokens, grant.scope, grant.account), 200, { 'cache-control': 'no-store' });
    }
    return tokenError('unsupported_grant_type', `grant_type "${grantType ?? ''}" is not supported`);
  });
}

function tokenBody(
  tokens: { accessToken: string; refreshToken?: string | undefined; expiresInSeconds: number },
  scope: string,
  account: string,
) {
  return {
    access_token: tokens.accessToken,
    token_type: 'bearer',
    expires_in: tokens.expiresInSeconds,
    ...(tokens.refreshToken ? { refresh_token: tokens.refreshToken } : {}),
    scope,
    uid: dropboxUid(account),
    account_id: dropboxAccountId(account),
  };
}

/** HTTP Basic, or `client_id` (+ `client_secret`) among the parameters. */
function credentials(c: Context, params: URLSearchParams): [string, string] {
  const basic = /^Basic\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
  if (basic?.[1]) {
    const [id = '', secret = ''] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
    return [id, secret];
  }
  return [params.get('client_id') ?? '', params.get('client_secret') ?? ''];
}
