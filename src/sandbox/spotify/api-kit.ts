import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { RollingWindowLimiter } from '../rate-limiter';
import type { DemoUser, StoredEntry, StoredPlaylist } from './state';
import { episodeObject, localTrackObject, trackObject, userObject, type WireContext } from './wire-objects';
import type { SpotifyWorld } from './world';

/** What every Web API route sees: the token's user (or the app caller) and its scopes. */
export type ApiEnv = { Variables: { user: DemoUser; scopes: Set<string> } };
export type ApiContext = Context<ApiEnv>;
export type ApiApp = Hono<ApiEnv>;

/** What each call needs; Spotify answers a token without it with 403 "Insufficient client scope". */
export const SCOPES = {
  readPrivate: 'playlist-read-private',
  modifyPublic: 'playlist-modify-public',
  modifyPrivate: 'playlist-modify-private',
  imageUpload: 'ugc-image-upload',
  libraryRead: 'user-library-read',
  libraryModify: 'user-library-modify',
} as const;

export const MAX_ADD = 100;
export const OWNER_WITHOUT_PREMIUM_TEXT = 'Active premium subscription required for the owner of the app';

/** What an app token (client credentials) may read: the catalog, never a user's data. */
const APP_TOKEN_PATHS = /^\/v1\/(search|tracks(\/[^/]+)?|albums\/[^/]+(\/tracks)?|playlists\/[^/]+)$/;
/** The caller behind an app token: no user, no country (so `market` is taken as given). */
const APP_CALLER: DemoUser = { id: '', displayName: '', registered: true };

export interface ApiAppOptions {
  rateLimit?: { budget: number; windowMs: number } | null;
  /** False: the app owner's Premium lapsed, and development mode answers every call with 403. */
  ownerHasPremium?: boolean;
  /** The `dropped-adds` fault: which of the tracks of an add request are really stored. */
  dropAdds?: <T>(tracks: T[]) => T[];
}

export function apiError(c: Context, status: ContentfulStatusCode, message: string) {
  return c.json({ error: { status, message } }, status);
}

/** The mount point in front of `/v1` (or `/images`), so hrefs work standalone and under `app.route(prefix)`. */
export function apiRoot(c: Context): string {
  const url = new URL(c.req.url);
  const cut = url.pathname.search(/\/(v1|images|open)(\/|$)/);
  return `${url.origin}${cut >= 0 ? url.pathname.slice(0, cut) : ''}`;
}

export function intParam(
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number | null {
  if (value === undefined || value === '') return fallback;
  if (!/^-?\d+$/.test(value)) return null;
  const number = Number(value);
  return number >= min && number <= max ? number : null;
}

function pageUrl(c: Context, offset: number, limit: number): string {
  const url = new URL(c.req.url);
  // Spotify's hrefs name the market it answered in (the token user's), `from_token` resolved.
  const market = url.searchParams.get('market');
  const country = (c.get('user') as DemoUser | undefined)?.country ?? (market === 'from_token' ? 'US' : null);
  if (market && country) url.searchParams.set('market', country);
  url.searchParams.set('offset', String(offset));
  url.searchParams.set('limit', String(limit));
  return url.toString();
}

export function paging<T>(c: Context, items: T[], offset: number, limit: number, total: number) {
  return {
    href: pageUrl(c, offset, limit),
    items,
    limit,
    next: offset + limit < total ? pageUrl(c, offset + limit, limit) : null,
    offset,
    previous: offset > 0 ? pageUrl(c, Math.max(0, offset - limit), limit) : null,
    total,
  };
}

/** Spotify's `added_at`: seconds, no fraction. */
export const isoSeconds = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The helpers the route modules share, bound to one emulator. */
export type ApiKit = ReturnType<typeof createApiKit>;

export function createApiKit(world: SpotifyWorld, options: ApiAppOptions) {
  const development = world.mode === 'development';

  const wire = (c: Context, market?: string): WireContext => ({
    apiRoot: apiRoot(c),
    mode: world.mode,
    ...(market ? { market } : {}),
  });

  /**
   * `market` must be an upper-case ISO code or `from_token`; undefined when absent, null when invalid. As on
   * Spotify, a user token's country wins over whatever `market` says.
   */
  const marketParam = (c: ApiContext): string | undefined | null => {
    const value = c.req.query('market');
    if (value === undefined || value === '') return undefined;
    if (value !== 'from_token' && !/^[A-Z]{2}$/.test(value)) return null;
    return c.get('user').country ?? (value === 'from_token' ? 'US' : value);
  };

  const renderEntry = (context: WireContext, entry: StoredEntry, withEpisodes: boolean) => {
    const base = { added_at: entry.addedAt, added_by: userObject(context, world.user(entry.addedBy)) };
    let item: object | null = null;
    let isLocal = false;
    if (entry.kind === 'track') {
      const track = world.track(entry.trackId);
      item = track ? trackObject(context, track, world.release(track)) : null;
    } else if (entry.kind === 'local') {
      item = localTrackObject(entry);
      isLocal = true;
    } else if (entry.kind === 'episode' && withEpisodes) {
      item = episodeObject(context, entry);
    }
    // `track` is the deprecated duplicate of `item`; old clients still read it.
    return { ...base, is_local: isLocal, item, track: item };
  };

  const itemsPage = (c: ApiContext, playlist: StoredPlaylist, maxLimit: number) => {
    const limit = intParam(c.req.query('limit'), 20, 1, maxLimit);
    if (limit === null) return apiError(c, 400, 'Invalid limit');
    const offset = intParam(c.req.query('offset'), 0, 0, Number.MAX_SAFE_INTEGER);
    if (offset === null) return apiError(c, 400, 'Invalid offset');
    const market = marketParam(c);
    if (market === null) return apiError(c, 400, 'Invalid market code');
    const withEpisodes = (c.req.query('additional_types') ?? '').split(',').includes('episode');
    const context = wire(c, market);
    const items = playlist.entries
      .slice(offset, offset + limit)
      .map((entry) => renderEntry(context, entry, withEpisodes));
    return c.json(paging(c, items, offset, limit, playlist.entries.length));
  };

  /** 403 unless the token carries one of `anyOf` (null when it does). */
  const missingScope = (c: ApiContext, ...anyOf: string[]) =>
    anyOf.some((scope) => c.get('scopes').has(scope)) ? null : apiError(c, 403, 'Insufficient client scope');
  /** Writes to a public playlist need -public, to a private one -private (a collaborative one is private). */
  const modifyScope = (playlist: { public: boolean }) =>
    playlist.public ? SCOPES.modifyPublic : SCOPES.modifyPrivate;

  /** The owner (or, for a collaborative playlist, a collaborator) with the right scope may change it. */
  const changeable = (c: ApiContext, playlist: StoredPlaylist | undefined, ...extraScopes: string[]) => {
    if (!playlist) return apiError(c, 404, 'Resource not found');
    if (playlist.ownerId !== c.get('user').id && !playlist.collaborative) {
      return apiError(c, 403, "You cannot change a playlist you don't own.");
    }
    return (
      missingScope(c, modifyScope(playlist)) ?? (extraScopes.length ? missingScope(c, ...extraScopes) : null)
    );
  };

  return {
    world,
    options,
    development,
    wire,
    marketParam,
    renderEntry,
    itemsPage,
    missingScope,
    modifyScope,
    changeable,
    canReadItems: (playlist: StoredPlaylist, user: DemoUser) =>
      !development || playlist.ownerId === user.id || playlist.collaborative,
    findPlaylist: (id: string) => world.store.playlist(id),
  };
}

/** Every /v1 call: the rate limit, then the token (user or app), then development mode's allow-list. */
export function addApiAuthentication(app: ApiApp, kit: ApiKit): void {
  const { world, options } = kit;
  const limiter = options.rateLimit
    ? new RollingWindowLimiter(options.rateLimit.budget, options.rateLimit.windowMs, world.now)
    : null;
  app.use('/v1/*', async (c, next) => {
    const waitMs = limiter?.take() ?? 0;
    if (waitMs > 0) {
      return c.json({ error: { status: 429, message: 'Too many requests', reason: 'QUOTA_EXCEEDED' } }, 429, {
        'retry-after': String(Math.ceil(waitMs / 1000)),
      });
    }
    const match = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
    if (!match?.[1]) return apiError(c, 401, 'No token provided');
    const record = world.store.credential('accessTokens', match[1]);
    if (!record) return apiError(c, 401, 'Invalid access token');
    if (record.expiresAt <= world.now()) return apiError(c, 401, 'The access token expired');
    if (kit.development && options.ownerHasPremium === false)
      return apiError(c, 403, OWNER_WITHOUT_PREMIUM_TEXT);
    if (record.app) {
      // An app token reads the catalog only, for the `market` it names; everything of a user needs one.
      if (c.req.method !== 'GET' || !APP_TOKEN_PATHS.test(c.req.path.replace(/^.*?\/v1\//, '/v1/')))
        return apiError(c, 401, 'This request requires user authentication.');
      c.set('user', APP_CALLER);
      c.set('scopes', new Set());
      return next();
    }
    const user = world.user(record.userId);
    if (!user.registered) {
      // Spotify answers this one in plain text, not in its JSON envelope.
      return c.text('User not registered in the Developer Dashboard', 403);
    }
    c.set('user', user);
    c.set('scopes', new Set(record.scope.split(' ').filter(Boolean)));
    await next();
  });
}
