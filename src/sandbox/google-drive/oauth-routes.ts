import type { Context, Hono } from 'hono';
import type { DriveAccountClaims } from '../cloud-drives/account-claims';
import { type DriveGrants, type RegisteredClient, validChallenge } from '../cloud-drives/grants';
import { errorPage, type PageSessions } from '../cloud-drives/web-pages';
import { consentPage, GOOGLE_STYLE } from './pages';
import { KNOWN_SCOPES, tokenError } from './wire';

/**
 * Google's OAuth 2.0 for web server apps, as Crossfade uses it: the consent page at `/o/oauth2/v2/auth`
 * (authorization code, PKCE, `state`, `access_type=offline`) and the token endpoint at `/token`
 * (code exchange checked against client, secret, redirect URI and verifier; refresh). Errors before the
 * redirect URI is known to be registered are pages, as on Google; after, they go back to the app.
 */

const AUTHORIZE_PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'access_type',
  'prompt',
  'include_granted_scopes',
  'login_hint',
  // Not Google's: the app's signed claim naming the person's own sandbox account (decision 0022).
  'sandbox_account',
] as const;
type AuthorizeParams = Record<(typeof AUTHORIZE_PARAMS)[number], string>;

type Checked =
  | { ok: true; params: AuthorizeParams; scopes: string[]; client: RegisteredClient }
  | { ok: false; page: string; status: 400 | 401 }
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
  const page = (status: 400 | 401, heading: string, message: string) =>
    ({ ok: false, status, page: errorPage(GOOGLE_STYLE, heading, message) }) as const;
  const client = clients.find((candidate) => candidate.id === params.client_id);
  if (!client) return page(401, 'Error 401: invalid_client', 'The OAuth client was not found.');
  if (!client.redirectUris.includes(params.redirect_uri)) {
    return page(
      400,
      'Error 400: redirect_uri_mismatch',
      `You can't sign in to this app because it doesn't comply with Google's OAuth 2.0 policy. redirect_uri=${params.redirect_uri} is not registered for this client.`,
    );
  }
  if (!params.response_type)
    return page(400, 'Error 400: invalid_request', 'Required parameter is missing: response_type');
  if (params.response_type !== 'code') {
    return {
      ok: false,
      redirect: redirectWith(params.redirect_uri, {
        error: 'unsupported_response_type',
        state: params.state,
      }),
    };
  }
  const scopes = params.scope.split(/\s+/).filter(Boolean);
  if (scopes.length === 0)
    return page(400, 'Error 400: invalid_request', 'Missing required parameter: scope');
  const unknown = scopes.filter((scope) => !KNOWN_SCOPES.has(scope));
  if (unknown.length > 0)
    return page(400, 'Error 400: invalid_scope', `Some requested scopes were invalid: ${unknown.join(', ')}`);
  if (params.code_challenge || params.code_challenge_method) {
    const method = params.code_challenge_method || 'plain';
    if (!validChallenge(params.code_challenge, method)) {
      return page(400, 'Error 400: invalid_request', 'Invalid code_challenge or code_challenge_method.');
    }
  }
  if (params.access_type && params.access_type !== 'online' && params.access_type !== 'offline') {
    return page(400, 'Error 400: invalid_request', `Invalid access_type: ${params.access_type}`);
  }
  return { ok: true, params, scopes, client };
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
    'redirect' in checked ? c.redirect(checked.redirect) : c.html(checked.page, checked.status);

  const refuseClaim = (c: Context, message: string) =>
    c.html(errorPage(GOOGLE_STYLE, 'Error 403: this sign-in link cannot be used', message), 403);

  app.get('/o/oauth2/v2/auth', async (c) => {
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

  app.post('/o/oauth2/v2/auth', async (c) => {
    // The hidden fields are checked again: a form can be edited.
    const form = await c.req.parseBody();
    const checked = checkAuthorize(form, clients);
    if (!checked.ok) return refuse(c, checked);
    const { params, scopes } = checked;
    // The claim is good for one consent, allowed or refused.
    const claim = await claims.check(params, true);
    if (!claim.ok) return refuseClaim(c, claim.message);
    const account = claim.claim.account;
    if (form.decision !== 'allow') {
      return c.redirect(redirectWith(params.redirect_uri, { error: 'access_denied', state: params.state }));
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
      offline: params.access_type === 'offline',
    });
    sessions.signIn(c, account);
    return c.redirect(
      redirectWith(params.redirect_uri, {
        state: params.state,
        code,
        scope: scopes.join(' '),
        authuser: '0',
      }),
    );
  });

  app.post('/token', async (c) => {
    const form = await readTokenForm(c);
    if (!form)
      return tokenError(c, 400, 'invalid_request', 'Invalid request: the body must be form-encoded.');
    const [clientId, secret] = clientCredentials(c, form);
    const client = clients.find((candidate) => candidate.id === clientId);
    if (!client) return tokenError(c, 401, 'invalid_client', 'The OAuth client was not found.');
    if (client.secret && !secret) return tokenError(c, 400, 'invalid_request', 'client_secret is missing.');
    if (client.secret && secret !== client.secret)
      return tokenError(c, 401, 'invalid_client', 'Unauthorized');
    const grantType = form.get('grant_type') ?? '';
    if (grantType === 'authorization_code') return exchangeCode(c, grants, form, clientId);
    if (grantType === 'refresh_token') {
      const grant = grants.refreshGrant(form.get('refresh_token') ?? '', clientId);
      if (!grant) return tokenError(c, 400, 'invalid_grant', 'Token has been expired or revoked.');
      const tokens = grants.issueTokens(grant, false);
      return c.json(tokenBody(tokens, grant.scope), 200, { 'cache-control': 'no-store' });
    }
    return tokenError(c, 400, 'unsupported_grant_type', `Invalid grant_type: ${grantType}`);
  });
}

function exchangeCode(c: Context, grants: DriveGrants, form: URLSearchParams, clientId: string) {
  const exchanged = grants.exchangeCode(form.get('code') ?? '', {
    clientId,
    redirectUri: form.get('redirect_uri') ?? '',
    verifier: form.get('code_verifier') ?? '',
  });
  if (!exchanged.ok) {
    switch (exchanged.problem) {
      case 'wrong_redirect':
        return tokenError(c, 400, 'redirect_uri_mismatch', 'Bad Request');
      case 'missing_verifier':
        return tokenError(c, 400, 'invalid_grant', 'Missing code verifier.');
      case 'bad_verifier':
        return tokenError(c, 400, 'invalid_grant', 'Invalid code verifier.');
      default:
        return tokenError(c, 400, 'invalid_grant', 'Malformed auth code.');
    }
  }
  const { grant } = exchanged;
  const tokens = grants.issueTokens({ ...grant, pkce: grant.challenge !== '' }, grant.offline);
  return c.json(tokenBody(tokens, grant.scope), 200, { 'cache-control': 'no-store' });
}

function tokenBody(
  tokens: { accessToken: string; refreshToken?: string | undefined; expiresInSeconds: number },
  scope: string,
) {
  return {
    access_token: tokens.accessToken,
    expires_in: tokens.expiresInSeconds,
    ...(tokens.refreshToken ? { refresh_token: tokens.refreshToken } : {}),
    scope,
    token_type: 'Bearer',
  };
}

async function readTokenForm(c: Context): Promise<URLSearchParams | null> {
  const type = c.req.header('content-type') ?? '';
  if (type.includes('application/x-www-form-urlencoded')) return new URLSearchParams(await c.req.text());
  if (type.includes('application/json')) {
    try {
      const body = (await c.req.json()) as Record<string, unknown>;
      return new URLSearchParams(
        Object.entries(body).flatMap(([key, value]) => (typeof value === 'string' ? [[key, value]] : [])),
      );
    } catch {
      return null;
    }
  }
  return null;
}

/** `client_secret_post` or HTTP Basic, as Google accepts both. */
function clientCredentials(c: Context, form: URLSearchParams): [string, string] {
  const basic = /^Basic\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
  if (basic?.[1]) {
    const [id = '', secret = ''] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
    return [decodeURIComponent(id), decodeURIComponent(secret)];
  }
  return [form.get('client_id') ?? '', form.get('client_secret') ?? ''];
}
