import type { KeyObject } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import { type Context, Hono } from 'hono';
import type { JWK } from 'jose';
import { accountLibraries, sandboxProfile } from '../accounts';
import type { Catalog } from '../catalog/types';
import { RollingWindowLimiter } from '../rate-limiter';
import { acceptTrailingSlashes } from '../trailing-slash';
import { webSessionCookie } from '../web-session';
import { AppleCatalogIndex } from './catalog-index';
import { addCatalogRoutes } from './catalog-routes';
import { APPLE_SESSION_COOKIE, addAppleConsentRoutes } from './consent-routes';
import { createDeveloperTokenVerifier } from './developer-token-check';
import { AppleLibrary, DEMO_USER_NAME, type LibraryPlaylist } from './library';
import { addLibraryRoutes } from './library-routes';
import { type AppleEnv, fail } from './routes-common';
import { addSandboxPages, pointHostsAtEmulator, type SignedInLibrary } from './sandbox-pages';
import { type AppleAccount, AppleStore } from './store';
import { liveStorefronts, storefrontResource } from './storefronts';
import { notFound } from './wire';

export { APPLE_SESSION_COOKIE } from './consent-routes';
export { MAX_DEVELOPER_TOKEN_LIFETIME_S } from './developer-token-check';

export interface AppleEmulatorOptions {
  catalog: Catalog;
  /** The folder of the state documents; undefined = memory only. */
  stateDir?: string | undefined;
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
  /** The sandbox secret the app signs account claims with (decision 0022); a random one by default. */
  accountSecret?: Uint8Array | undefined;
  /** Sign-in posts per address and rolling hour; 0 (the default here) = no limit. */
  consentsPerHour?: number | undefined;
}

/** Libraries of accounts kept built (each holds its demo playlists); others are rebuilt when used. */
const LIBRARIES_KEPT = 256;

/**
 * A wire-compatible Apple Music API for the sandbox: developer-token checks, the MusicKit-style consent
 * page, each person's library (append-only, as on Apple) and the per-storefront catalog. Mount it at
 * `/sandbox/apple`; `next` links are root-relative from `/v1`, as Apple sends them, and clients re-attach
 * the mount prefix.
 */
export function createAppleEmulator(options: AppleEmulatorOptions) {
  const now = options.now ?? Date.now;
  const index = new AppleCatalogIndex(options.catalog);
  const store = new AppleStore(options.stateDir, now);
  const libraries = createLibraries(options, index, store, now);
  const verify = createDeveloperTokenVerifier(options.developerKeys, now);
  const app = new Hono<AppleEnv>();

  addAppleConsentRoutes(app, {
    store,
    verify,
    now,
    accountSecret: options.accountSecret ?? randomBytes(32),
    consentsPerHour: options.consentsPerHour ?? 0,
    sharedPlaylistsOf: (account) =>
      Object.fromEntries(
        libraries
          .build(account)
          .playlists()
          .flatMap((playlist) => (playlist.globalId ? [[playlist.globalId, playlist.id]] : [])),
      ),
  });
  // Offline: cover art and "Open in Apple Music" pages come from the emulator itself.
  addSandboxPages(app, {
    index,
    findSharedPlaylist: libraries.findShared,
    signedIn: libraries.signedIn,
  });
  addApiChecks(app, options, store, libraries, verify);
  addStorefrontRoutes(app, index);
  addLibraryRoutes(app, {
    dropAdds: options.dropAdds,
    onShared: (library, globalId, playlistId) => store.sharePlaylist(library.account, globalId, playlistId),
  });
  addCatalogRoutes(app, {
    index,
    storefronts: liveStorefronts(index.storefronts),
    findSharedPlaylist: libraries.findShared,
  });
  acceptTrailingSlashes(app);
  app.all('/v1/*', (c) => fail(c, notFound(`No resource at ${new URL(c.req.url).pathname}`)));
  return { app };
}

type Libraries = ReturnType<typeof createLibraries>;

/** Each person's library (built on first use, the most used kept), and the shared demo listener's. */
function createLibraries(
  options: AppleEmulatorOptions,
  index: AppleCatalogIndex,
  store: AppleStore,
  now: () => number,
) {
  const writeLagMs = options.writeLagMs ?? 0;
  const shared = new AppleLibrary(
    options.catalog,
    {
      name: DEMO_USER_NAME,
      demoPlaylists: options.catalog.demoLibraries.apple,
      saved: options.catalog.demoLibraries.saved?.apple,
    },
    index,
    store.writes(undefined),
    now,
    writeLagMs,
  );
  const built = new Map<string, AppleLibrary>();
  const build = (account: AppleAccount): AppleLibrary => {
    const known = built.get(account.key);
    if (known) {
      built.delete(account.key);
      built.set(account.key, known);
      return known;
    }
    const demo = accountLibraries(options.catalog, account.seed);
    const library = new AppleLibrary(
      options.catalog,
      {
        account: account.key,
        name: sandboxProfile(account.seed).displayName,
        demoPlaylists: demo.apple,
        saved: demo.saved?.apple,
      },
      index,
      store.writes(account.key),
      now,
      writeLagMs,
    );
    built.set(account.key, library);
    if (built.size > LIBRARIES_KEPT) built.delete(built.keys().next().value ?? '');
    return library;
  };
  /** The library a Music User Token or a web session opens: the person's own, or the shared one. */
  const of = (account: string | undefined): AppleLibrary => {
    const record = account === undefined ? undefined : store.account(account);
    return record ? build(record) : shared;
  };
  const storefrontOf = (account: string | undefined) =>
    (account === undefined ? undefined : store.account(account)?.country.toLowerCase()) ??
    (options.storefront ?? 'us').toLowerCase();
  const findShared = (globalId: string): LibraryPlaylist | undefined =>
    of(store.accountSharing(globalId)).sharedPlaylist(globalId);
  const signedIn = (c: Context): SignedInLibrary | undefined => {
    const found = store.webSession(webSessionCookie(c, APPLE_SESSION_COOKIE));
    if (!found) return undefined;
    const library = of(found.account);
    return {
      library,
      name: library.ownerName,
      storefront: storefrontOf(found.account),
      formToken: found.session.formToken,
    };
  };
  return { build, of, storefrontOf, findShared, signedIn };
}

/** Every /v1 call: a valid developer token, then the rate limit; /v1/me: a Music User Token of that team. */
function addApiChecks(
  app: Hono<AppleEnv>,
  options: AppleEmulatorOptions,
  store: AppleStore,
  libraries: Libraries,
  verify: ReturnType<typeof createDeveloperTokenVerifier>,
): void {
  const limiter = options.rateLimit
    ? new RollingWindowLimiter(options.rateLimit.budget, options.rateLimit.windowMs, options.now ?? Date.now)
    : undefined;
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
    const found = token ? store.userToken(token) : undefined;
    if (!found || found.issued.teamId !== c.get('developer').teamId) {
      return fail(c, {
        status: 403,
        code: '40300',
        title: 'Forbidden',
        detail: token ? 'Invalid Music-User-Token' : 'Missing Music-User-Token header',
      });
    }
    c.set('library', libraries.of(found.account));
    c.set('storefront', libraries.storefrontOf(found.account));
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
}

function addStorefrontRoutes(app: Hono<AppleEnv>, index: AppleCatalogIndex): void {
  const storefronts = liveStorefronts(index.storefronts);
  app.get('/v1/me/storefront', (c) => c.json({ data: [storefrontResource(c.get('storefront'))] }));
  app.get('/v1/storefronts/:id', (c) => {
    const id = c.req.param('id').toLowerCase();
    if (!storefronts.has(id)) return fail(c, notFound(`No storefront with id ${id}`));
    return c.json({ data: [storefrontResource(id)] });
  });
}
