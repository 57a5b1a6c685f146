import type { Context, Hono } from 'hono';
import {
  accountSeed,
  CLAIM_REFUSALS,
  type ClaimCheck,
  isSandboxCountry,
  sandboxProfile,
  UsedClaims,
  verifyAccountClaim,
} from '../accounts';
import {
  ConsentLimiter,
  emulatorPrefix,
  refusalPage,
  setWebSessionCookie,
  tooManyConsentsText,
} from '../web-session';
import { consentPage, type OwnAccountOffer } from './consent-page';
import { randomToken } from './ids';
import { CONSENT_USERS, type DemoUser } from './state';
import { SPOTIFY_PREFIX_END, SPOTIFY_SESSION_COOKIE } from './web-pages';
import type { SpotifyWorld } from './world';

const AUTHORIZE_PARAMS = [
  'client_id',
  'response_type',
  'redirect_uri',
  'code_challenge_method',
  'code_challenge',
  'state',
  'scope',
  // Not Spotify's: the app's signed claim naming the person's own sandbox account (decision 0022).
  'sandbox_account',
] as const;

export interface ConsentSettings {
  clientIds: readonly string[];
  /** The clients' registered redirect URIs: Spotify accepts only an exact match of one. */
  redirectUris: readonly string[];
  /** Verifies the app's account claims. */
  accountSecret: Uint8Array;
  /** Consent posts per address and rolling hour (0 = no limit). */
  consentsPerHour: number;
}

function redirectWith(redirectUri: string, params: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

/**
 * The consent page, as Spotify's accounts service shows it: the app and redirect address are checked
 * before anything is shown or any redirect made (an unregistered address gets an error page, never a
 * redirect); the person's own account is offered only on the app's valid claim, beside the shared demo
 * accounts, and agreeing signs this browser in to the sandbox's web pages.
 */
export function addConsentRoutes(app: Hono, world: SpotifyWorld, settings: ConsentSettings): void {
  const consents = new ConsentLimiter(settings.consentsPerHour, world.now);
  const usedClaims = new UsedClaims(world.now);
  const refused = (c: Context, message: string, status: 400 | 403 | 429) =>
    c.html(refusalPage('Spotify', message), status);
  const knownClient = (clientId: string, redirectUri: string) =>
    settings.clientIds.includes(clientId) && settings.redirectUris.includes(redirectUri);

  /** The claim of the request, checked against what it is bound to; null when there is none. */
  const checkClaim = (fields: Record<string, string>): Promise<ClaimCheck> | null =>
    fields.sandbox_account
      ? verifyAccountClaim(
          settings.accountSecret,
          fields.sandbox_account,
          {
            service: 'spotify',
            clientId: fields.client_id,
            redirectUri: fields.redirect_uri ?? '',
            state: fields.state ?? '',
            codeChallenge: fields.code_challenge,
          },
          world.now,
        )
      : null;

  app.get('/authorize', async (c) => {
    const query = c.req.query();
    const params = Object.fromEntries(AUTHORIZE_PARAMS.map((name) => [name, query[name] ?? '']));
    if (!settings.clientIds.includes(params.client_id ?? ''))
      return refused(c, 'INVALID_CLIENT: Invalid client', 400);
    if (!settings.redirectUris.includes(params.redirect_uri ?? '')) {
      return refused(c, 'INVALID_CLIENT: Invalid redirect URI', 400);
    }
    const back = (error: string) =>
      c.redirect(redirectWith(params.redirect_uri ?? '', { error, state: params.state ?? '' }));
    if (params.response_type !== 'code') return back('unsupported_response_type');
    if (params.code_challenge_method !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(params.code_challenge ?? '')) {
      return back('invalid_request');
    }
    const check = await checkClaim(params);
    if (check && !check.ok) return refused(c, CLAIM_REFUSALS[check.reason], 403);
    let own: OwnAccountOffer | null = null;
    if (check?.ok) {
      const existing = world.store.account(check.claim.account);
      // A returning person sees their account as it is; a new one the name and country it would start with.
      own = existing
        ? { displayName: world.user(existing.userId).displayName, country: existing.country, exists: true }
        : { ...sandboxProfile(accountSeed(check.claim)), exists: false };
    }
    const scopes = (params.scope ?? '').split(' ').filter(Boolean);
    return c.html(consentPage(params, scopes, new URL(c.req.url).pathname, own));
  });

  app.post('/authorize', async (c) => {
    const waitSeconds = consents.take(c);
    if (waitSeconds > 0) {
      c.header('retry-after', String(waitSeconds));
      return refused(c, tooManyConsentsText(waitSeconds), 429);
    }
    const form = await c.req.parseBody();
    const fields = Object.fromEntries(
      Object.entries(form).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])),
    );
    const redirectUri = fields.redirect_uri ?? '';
    if (!knownClient(fields.client_id ?? '', redirectUri))
      return refused(c, 'INVALID_CLIENT: Invalid client', 400);
    const state = fields.state ?? '';
    if (fields.decision !== 'agree')
      return c.redirect(redirectWith(redirectUri, { error: 'access_denied', state }));
    const chosen = await chosenUser(fields);
    if ('refusal' in chosen) return refused(c, chosen.refusal, chosen.status);
    const code = randomToken();
    const { cookie } = world.store.signIn(code, {
      clientId: fields.client_id ?? '',
      redirectUri,
      codeChallenge: fields.code_challenge ?? '',
      userId: chosen.user.id,
      scope: fields.scope ?? '',
      issuedAt: world.now(),
    });
    setWebSessionCookie(c, SPOTIFY_SESSION_COOKIE, cookie, emulatorPrefix(c, SPOTIFY_PREFIX_END));
    return c.redirect(redirectWith(redirectUri, { code, state }));
  });

  /** The account agreed to: the person's own (on a valid, unused claim) or one the page offers everyone. */
  async function chosenUser(
    fields: Record<string, string>,
  ): Promise<{ user: DemoUser } | { refusal: string; status: 400 | 403 }> {
    if (fields.account !== 'own') {
      const user = CONSENT_USERS.find((candidate) => candidate.id === fields.account);
      return user ? { user } : { refusal: 'Unknown account', status: 400 };
    }
    const check = await checkClaim(fields);
    if (!check) return { refusal: 'Unknown account', status: 400 };
    if (!check.ok) return { refusal: CLAIM_REFUSALS[check.reason], status: 403 };
    if (!usedClaims.take(check.claim)) return { refusal: CLAIM_REFUSALS.used, status: 403 };
    // The country is chosen once, when the account is made; an existing account stays as its owner left it.
    const country = isSandboxCountry(fields.country) ? fields.country : undefined;
    const account = world.store.createAccount(check.claim, country);
    return { user: world.user(account.userId) };
  }
}
