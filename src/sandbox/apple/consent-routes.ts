import type { Hono } from 'hono';
import {
  accountSeed,
  CLAIM_REFUSALS,
  type ClaimCheck,
  sandboxProfile,
  UsedClaims,
  type VerifiedAccountClaim,
  verifyAccountClaim,
} from '../accounts';
import { ConsentLimiter, emulatorPrefix, setWebSessionCookie, tooManyConsentsText } from '../web-session';
import { type AppleAccountOffer, authorizeErrorPage, authorizePage, messagePage } from './authorize-page';
import type { VerifiedDeveloperToken } from './developer-token-check';
import type { AppleEnv } from './routes-common';
import type { AppleAccount, AppleStore } from './store';

/** The web session cookie the sign-in page sets for the Apple emulator's pages. */
export const APPLE_SESSION_COOKIE = 'sandbox_apple_session';
/** Segments right below the Apple emulator's prefix. */
export const APPLE_PREFIX_END = /\/(authorize|v1|web|artwork)(\/|$)/;

export interface AppleConsentInput {
  store: AppleStore;
  verify: (token: string) => Promise<VerifiedDeveloperToken | undefined>;
  now: () => number;
  accountSecret: Uint8Array;
  consentsPerHour: number;
  /** The catalog ids of a new account's public playlists (see AppleStore.createAccount). */
  sharedPlaylistsOf: (account: AppleAccount) => Record<string, string>;
}

type Checked =
  | { error: string; status: 400 | 401 | 403 }
  | {
      developer: VerifiedDeveloperToken;
      developerToken: string;
      /** Where the answer goes: a redirect to the app, or (MusicKit's popup) a message to its opener. */
      redirectUri: string;
      messageOrigin: string;
      state: string;
      claim: VerifiedAccountClaim | null;
      rawClaim: string;
    };

/**
 * MusicKit's sign-in, the sandbox's way: a page that returns a Music User Token to the app, by a redirect
 * to its `redirect_uri`, or, as MusicKit's own popup does, by a message to the window that opened it
 * (`origin` instead of `redirect_uri`). Either way the app's origin must be one the developer token was
 * issued for (its `origin` claim), so the page is no open redirect; the person's own account is offered
 * only on the app's valid claim.
 */
export function addAppleConsentRoutes(app: Hono<AppleEnv>, input: AppleConsentInput): void {
  const consents = new ConsentLimiter(input.consentsPerHour, input.now);
  const usedClaims = new UsedClaims(input.now);

  async function check(fields: Record<string, unknown>): Promise<Checked> {
    const text = (name: string) => (typeof fields[name] === 'string' ? (fields[name] as string) : '');
    const redirectUri = text('redirect_uri');
    const messageOrigin = redirectUri ? '' : text('origin');
    const origin = appOrigin(redirectUri || messageOrigin);
    if (!origin || (messageOrigin && origin !== messageOrigin)) {
      return { error: 'The app sent no valid redirect address.', status: 400 };
    }
    const developer = await input.verify(text('developer_token'));
    if (!developer) return { error: 'The app’s developer token is not valid.', status: 401 };
    if (!developer.origins.includes(origin)) {
      return { error: `The app’s developer token was not issued for ${origin}.`, status: 400 };
    }
    const state = text('state');
    const rawClaim = text('sandbox_account');
    let claim: VerifiedAccountClaim | null = null;
    if (rawClaim) {
      const verified: ClaimCheck = await verifyAccountClaim(
        input.accountSecret,
        rawClaim,
        { service: 'apple', redirectUri: redirectUri || messageOrigin, state },
        input.now,
      );
      if (!verified.ok) return { error: CLAIM_REFUSALS[verified.reason], status: 403 };
      claim = verified.claim;
    }
    const developerToken = text('developer_token');
    return { developer, developerToken, redirectUri, messageOrigin, state, claim, rawClaim };
  }

  const offer = (checked: Extract<Checked, { claim: unknown }>): AppleAccountOffer | null => {
    if (!checked.claim) return null;
    const existing = input.store.account(checked.claim.account);
    const profile = sandboxProfile(existing?.seed ?? accountSeed(checked.claim));
    const country = existing?.country ?? profile.country;
    return { claim: checked.rawClaim, displayName: profile.displayName, storefront: country.toLowerCase() };
  };

  app.get('/authorize', async (c) => {
    const checked = await check(c.req.query());
    if ('error' in checked) return c.html(authorizeErrorPage(checked.error), checked.status);
    return c.html(authorizePage({ ...checked, account: offer(checked) }));
  });

  app.post('/authorize', async (c) => {
    const waitSeconds = consents.take(c);
    if (waitSeconds > 0) {
      c.header('retry-after', String(waitSeconds));
      return c.html(authorizeErrorPage(tooManyConsentsText(waitSeconds)), 429);
    }
    const form = await c.req.parseBody();
    const checked = await check(form);
    if ('error' in checked) return c.html(authorizeErrorPage(checked.error), checked.status);
    const answer = (result: Record<string, string>) => {
      if (checked.messageOrigin)
        return c.html(messagePage(checked.messageOrigin, { ...result, state: checked.state }));
      const target = new URL(checked.redirectUri);
      target.searchParams.set('state', checked.state);
      for (const [name, value] of Object.entries(result)) target.searchParams.set(name, value);
      return c.redirect(target.toString(), 302);
    };
    if (form.decision !== 'allow') return answer({ error: 'access_denied' });
    const chosen = chooseAccount(form.account, checked.claim);
    if (typeof chosen === 'object') return c.html(authorizeErrorPage(chosen.error), chosen.status);
    const { token, cookie } = input.store.signIn(checked.developer.teamId, chosen);
    setWebSessionCookie(c, APPLE_SESSION_COOKIE, cookie, emulatorPrefix(c, APPLE_PREFIX_END));
    return answer({ music_user_token: token });
  });

  /** The person's own account (on an unused claim, made on first use), or the shared demo listener. */
  function chooseAccount(
    choice: unknown,
    claim: VerifiedAccountClaim | null,
  ): string | undefined | { error: string; status: 400 | 403 } {
    // A page without a choice (no claim) signs in the shared demo listener, as the choice 'shared' does.
    if (choice === 'shared' || choice === undefined) return undefined;
    if (choice !== 'own' || !claim) return { error: 'Unknown account', status: 400 };
    if (!usedClaims.take(claim)) return { error: CLAIM_REFUSALS.used, status: 403 };
    return input.store.createAccount(claim, input.sharedPlaylistsOf).key;
  }
}

/** The origin of an http(s) address, or undefined. */
function appOrigin(address: string): string | undefined {
  if (!/^https?:\/\//.test(address) || !URL.canParse(address)) return undefined;
  return new URL(address).origin;
}
