import type { KeyObject } from 'node:crypto';
import { Hono } from 'hono';
import type { JWK } from 'jose';
import { accountLibraries, isSandboxAccountKey, type SandboxAccount, sandboxAccount } from '../accounts';
import type { Catalog } from '../catalog/types';
import { RollingWindowLimiter } from '../rate-limiter';
import { StateFile } from '../state-file';
import { acceptTrailingSlashes } from '../trailing-slash';
import { authorizeErrorPage, authorizePage } from './authorize-page';
import { AppleCatalogIndex } from './catalog-index';
import { addCatalogRoutes } from './catalog-routes';
import { createDeveloperTokenVerifier, type VerifiedDeveloperToken } from './developer-token-check';
import { type AppleEmulatorState, AppleLibrary, DEMO_USER_NAME, initialAppleState } from './library';
import { addLibraryRoutes } from './library-routes';
import { type AppleEnv, fail } from './routes-common';
import { addSandboxPages, pointHostsAtEmulator } from './sandbox-pages';
import { liveStorefronts, storefrontResource } from './storefronts';
import { notFound } from './wire';

export { MAX_DEVELOPER_TOKEN_LIFETIME_S } from './developer-token-check';
export type { AppleEmulatorState } from './library';

export interface AppleEmulatorOptions {
  catalog: Catalog;
  /** undefined = memory only; else durable state through StateFile. */
  stateFile?: string | undefined;
  /** The ES256 keys whose developer tokens are accepted. */
  developerKeys: { teamId: string; keyId: string; publicKey: CryptoKey | KeyObject | JWK }[];
  /** null/undefined = off. Apple answers 429 without Retry-After. */
  rateLimit?: { budget: number; windowMs: number } | null | undefined;
  now?: (() => number) | undefined;
  /** The demo user's storefront (default `us`). */
  storefront?: string | undefined;
  /** Library writes become visible to reads this many ms later, as on Apple (default 0). */
  writeLagMs?: number | undefined;
  /** The `dropped-adds` fault: which of the tracks of an add request are really stored. */
  dropAdds?: (<T>(tracks: T[]) => T[]) | undefined;
}

/**
 * A wire-compatible Apple Music API for the sandbox: developer-token checks, the MusicKit-style consent
 * page, the demo user's library (append-only, as on Apple) and the per-storefront catalog. Mount it at
 * `/sandbox/apple`; `next` links are root-relative from `/v1`, as Apple sends them, and clients re-attach
 * the mount prefix.
 */
export function createAppleEmulator(options: AppleEmulatorOptions) {
  const now = options.now ?? Date.now;
  const userStorefront = (options.storefront ?? 'us').toLowerCase();
  const index = new AppleCatalogIndex(options.catalog);
  const state = new StateFile<AppleEmulatorState>(options.stateFile, initialAppleState);
  const writeLagMs = options.writeLagMs ?? 0;
  const sharedLibrary = new AppleLibrary(
    options.catalog,
    {
      name: DEMO_USER_NAME,
      demoPlaylists: options.catalog.demoLibraries.apple,
      saved: options.catalog.demoLibraries.saved?.apple,
    },
    index,
    state,
    now,
    writeLagMs,
  );
  const accountLibrary = new Map<string, AppleLibrary>();
  /** The library a Music User Token opens: the person's own sandbox account, or the shared demo listener. */
  function libraryFor(account: string | undefined): AppleLibrary {
    if (account === undefined) return sharedLibrary;
    let library = accountLibrary.get(account);
    if (!library) {
      const owner = sandboxAccount(account);
      library = new AppleLibrary(
        options.catalog,
        {
          account,
          name: owner.displayName,
          demoPlaylists: accountLibraries(options.catalog, account).apple,
          saved: accountLibraries(options.catalog, account).saved?.apple,
        },
        index,
        state,
        now,
        writeLagMs,
      );
      accountLibrary.set(account, library);
    }
    return library;
  }
  const storefrontOf = (account: string | undefined) =>
    account === undefined ? userStorefront : sandboxAccount(account).country.toLowerCase();
  const verify = createDeveloperTokenVerifier(options.developerKeys, now);
  const limiter = options.rateLimit
    ? new RollingWindowLimiter(options.rateLimit.budget, options.rateLimit.windowMs, now)
    : undefined;
  const storefronts = liveStorefronts(index.storefronts);
  const app = new Hono<AppleEnv>();

  function issueMusicUserToken(teamId: string, account: string | undefined): string {
    const token = `sandbox-mut.${Buffer.from(crypto.getRandomValues(new Uint8Array(48))).toString('base64url')}`;
    state.update((current) => {
      current.userTokens[token] = {
        teamId,
        issuedAt: new Date(now()).toISOString(),
        ...(account === undefined ? {} : { account }),
      };
    });
    return token;
  }

  // --- MusicKit-style sign-in -------------------------------------------------------------------------
  type AuthorizeInput =
    | { error: string; status: 400 | 401 }
    | {
        developer: VerifiedDeveloperToken;
        developerToken: string;
        redirectUri: string;
        state: string;
        account: SandboxAccount | null;
      };

  async function checkAuthorizeInput(input: Record<string, unknown>): Promise<AuthorizeInput> {
    const developerToken = typeof input.developer_token === 'string' ? input.developer_token : '';
    const redirectUri = typeof input.redirect_uri === 'string' ? input.redirect_uri : '';
    const stateParam = typeof input.state === 'string' ? input.state : '';
    if (!/^https?:\/\//.test(redirectUri) || !URL.canParse(redirectUri)) {
      return { error: 'The app sent no valid redirect address.', status: 400 };
    }
    const developer = await verify(developerToken);
    if (!developer) return { error: 'The app’s developer token is not valid.', status: 401 };
    const account = isSandboxAccountKey(input.sandbox_account) ? sandboxAccount(input.sandbox_account) : null;
    return { developer, developerToken, redirectUri, state: stateParam, account };
  }

  app.get('/authorize', async (c) => {
    const checked = await checkAuthorizeInput(c.req.query());
    if ('error' in checked) return c.html(authorizeErrorPage(checked.error), checked.status);
    return c.html(authorizePage(checked));
  });

  app.post('/authorize', async (c) => {
    const form = await c.req.parseBody();
    const checked = await checkAuthorizeInput(form);
    if ('error' in checked) return c.html(authorizeErrorPage(checked.error), checked.status);
    const target = new URL(checked.redirectUri);
    if (form.decision === 'allow') {
      const own = checked.account !== null && form.account === 'own' ? checked.account.key : undefined;
      target.searchParams.set('music_user_token', issueMusicUserToken(checked.developer.teamId, own));
    } else target.searchParams.set('error', 'access_denied');
    target.searchParams.set('state', checked.state);
    return c.redirect(target.toString(), 302);
  });

  // Offline: cover art and "Open in Apple Music" pages come from the emulator itself.
  addSandboxPages(app, {
    index,
    findPlaylist: (id) =>
      everyLibrary()
        .map((library) => library.sharedPlaylist(id) ?? library.playlist(id))
        .find((found) => found !== undefined),
  });

  // --- Every /v1 call: developer token, then the rate limit --------------------------------------------
  app.use('/v1/*', async (c, next) => {
    await next();
    await pointHostsAtEmulator(c);
  });
  app.use('/v1/*', async (c, next) => {
    const token = /^Bearer (\S+)$/.exec(c.req.header('authorization') ?? '')?.[1];
    const developer = token ? await verify(token) : undefined;
    // Apple's 401 has no defined body; it is empty here so clients cannot rely on one.
    if (!developer) return c.body(null, 401);
    if (limiter && limiter.take(developer.keyId) > 0) {
      return fail(c, {
        status: 429,
        code: '42900',
        title: 'API Capacity Exceeded',
        detail: 'Too many requests for this developer token. Slow down and retry later.',
      });
    }
    c.set('developer', developer);
    await next();
  });

  app.use('/v1/me/*', async (c, next) => {
    const token = c.req.header('music-user-token');
    const issued = token ? state.value.userTokens[token] : undefined;
    if (!issued || issued.teamId !== c.get('developer').teamId) {
      return fail(c, {
        status: 403,
        code: '40300',
        title: 'Forbidden',
        detail: token ? 'Invalid Music-User-Token' : 'Missing Music-User-Token header',
      });
    }
    c.set('library', libraryFor(issued.account));
    c.set('storefront', storefrontOf(issued.account));
    await next();
  });

  // Apple offers no rename, reorder, removal or deletion of library playlists.
  app.on(['PUT', 'PATCH', 'DELETE'], ['/v1/me/library/playlists', '/v1/me/library/playlists/*'], (c) =>
    fail(c, {
      status: 405,
      code: '40500',
      title: 'Method Not Allowed',
      detail: 'Library playlists can only be created and appended to.',
    }),
  );

  // --- Storefronts -------------------------------------------------------------------------------------
  app.get('/v1/me/storefront', (c) => c.json({ data: [storefrontResource(c.get('storefront'))] }));

  app.get('/v1/storefronts/:id', (c) => {
    const id = c.req.param('id').toLowerCase();
    if (!storefronts.has(id)) return fail(c, notFound(`No storefront with id ${id}`));
    return c.json({ data: [storefrontResource(id)] });
  });

  addLibraryRoutes(app, { dropAdds: options.dropAdds });
  addCatalogRoutes(app, { index, storefronts, everyLibrary });

  /** Shared playlists answer in the catalog whoever made them. */
  function everyLibrary(): AppleLibrary[] {
    const accounts = new Set<string>();
    for (const issued of Object.values(state.value.userTokens))
      if (issued.account) accounts.add(issued.account);
    return [sharedLibrary, ...[...accounts].map(libraryFor)];
  }

  acceptTrailingSlashes(app);
  app.all('/v1/*', (c) => fail(c, notFound(`No resource at ${new URL(c.req.url).pathname}`)));

  return { app, issueMusicUserToken };
}
