import { type Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { acceptTrailingSlashes } from '../trailing-slash';
import { isBase62Id, randomBase62Id } from './ids';
import { RollingWindowLimiter } from './rate-limiter';
import { type DemoUser, type StoredEntry, type StoredPlaylist, USERS } from './state';
import {
  episodeObject,
  localTrackObject,
  privateUserObject,
  simplifiedPlaylistObject,
  snapshotId,
  trackObject,
  userObject,
  type WireContext,
} from './wire-objects';
import type { SpotifyWorld } from './world';

type Env = { Variables: { user: DemoUser; scopes: Set<string> } };
type ApiContext = Context<Env>;

const MAX_ADD = 100;
const SEARCH_OFFSET_MAX = 1000;

function apiError(c: Context, status: ContentfulStatusCode, message: string) {
  return c.json({ error: { status, message } }, status);
}

/** The mount point in front of `/v1` (or `/images`), so hrefs work standalone and under `app.route(prefix)`. */
function apiRoot(c: Context): string {
  const url = new URL(c.req.url);
  const cut = url.pathname.search(/\/(v1|images)(\/|$)/);
  return `${url.origin}${cut >= 0 ? url.pathname.slice(0, cut) : ''}`;
}

function intParam(value: string | undefined, fallback: number, min: number, max: number): number | null {
  if (value === undefined || value === '') return fallback;
  if (!/^-?\d+$/.test(value)) return null;
  const number = Number(value);
  return number >= min && number <= max ? number : null;
}

function pageUrl(c: Context, offset: number, limit: number): string {
  const url = new URL(c.req.url);
  url.searchParams.set('offset', String(offset));
  url.searchParams.set('limit', String(limit));
  return url.toString();
}

function paging<T>(c: Context, items: T[], offset: number, limit: number, total: number) {
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

/** What each call needs; Spotify answers a token without it with 403 "Insufficient client scope". */
const READ_PRIVATE = 'playlist-read-private';
const MODIFY_PUBLIC = 'playlist-modify-public';
const MODIFY_PRIVATE = 'playlist-modify-private';
const IMAGE_UPLOAD = 'ugc-image-upload';
const MAX_COVER_BYTES = 256 * 1024;

export const OWNER_WITHOUT_PREMIUM_TEXT = 'Active premium subscription required for the owner of the app';

export interface ApiAppOptions {
  rateLimit?: { budget: number; windowMs: number } | null;
  /** False: the app owner's Premium lapsed, and development mode answers every call with 403. */
  ownerHasPremium?: boolean;
}

export function createApiApp(world: SpotifyWorld, options: ApiAppOptions = {}): Hono {
  const { rateLimit } = options;
  const app = new Hono<Env>();
  const limiter = rateLimit
    ? new RollingWindowLimiter(rateLimit.budget, rateLimit.windowMs, world.now)
    : null;
  const development = world.mode === 'development';
  const userById = (id: string): DemoUser =>
    USERS.find((user) => user.id === id) ?? {
      id,
      displayName: world.state.value.owners[id] ?? id,
      registered: true,
    };

  const wire = (c: Context, market?: string): WireContext => ({
    apiRoot: apiRoot(c),
    mode: world.mode,
    ...(market ? { market } : {}),
  });

  /** `market` must be an upper-case ISO code; returns undefined when absent, null when invalid. */
  const marketParam = (c: Context): string | undefined | null => {
    const value = c.req.query('market');
    if (value === undefined || value === '') return undefined;
    if (value === 'from_token') return 'US';
    return /^[A-Z]{2}$/.test(value) ? value : null;
  };

  const canReadItems = (playlist: StoredPlaylist, user: DemoUser) =>
    !development || playlist.ownerId === user.id || playlist.collaborative;

  const renderEntry = (context: WireContext, entry: StoredEntry, withEpisodes: boolean) => {
    const base = { added_at: entry.addedAt, added_by: userObject(context, userById(entry.addedBy)) };
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

  const findPlaylist = (id: string) => world.state.value.playlists[id];

  app.get('/images/:id', (c) => {
    const cover = /^cover-([A-Za-z0-9]+)-v\d+$/.exec(c.req.param('id'))?.[1];
    const uploaded = cover ? findPlaylist(cover)?.coverJpeg : undefined;
    if (uploaded) {
      return c.body(Buffer.from(uploaded, 'base64'), 200, {
        'content-type': 'image/jpeg',
        'cache-control': 'public, max-age=86400',
      });
    }
    const hue = [...c.req.param('id')].reduce((sum, ch) => sum + ch.charCodeAt(0), 0) % 360;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="640" viewBox="0 0 64 64"><rect width="64" height="64" fill="hsl(${hue} 55% 45%)"/><circle cx="32" cy="32" r="18" fill="hsl(${hue} 40% 20%)"/><circle cx="32" cy="32" r="4" fill="#eee"/></svg>`;
    return c.body(svg, 200, { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' });
  });

  app.use('/v1/*', async (c, next) => {
    if (limiter) {
      const waitMs = limiter.take();
      if (waitMs > 0) {
        return c.json(
          { error: { status: 429, message: 'Too many requests', reason: 'QUOTA_EXCEEDED' } },
          429,
          {
            'retry-after': String(Math.ceil(waitMs / 1000)),
          },
        );
      }
    }
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) return apiError(c, 401, 'No token provided');
    const record = world.state.value.accessTokens[match[1]];
    if (!record) return apiError(c, 401, 'Invalid access token');
    if (record.expiresAt <= world.now()) return apiError(c, 401, 'The access token expired');
    if (development && options.ownerHasPremium === false) return apiError(c, 403, OWNER_WITHOUT_PREMIUM_TEXT);
    const user = userById(record.userId);
    if (!user.registered) {
      // Spotify answers this one in plain text, not in its JSON envelope.
      return c.text('User not registered in the Developer Dashboard', 403);
    }
    c.set('user', user);
    c.set('scopes', new Set(record.scope.split(' ').filter(Boolean)));
    await next();
  });

  /** 403 unless the token carries one of `anyOf` (null when it does). */
  const missingScope = (c: ApiContext, ...anyOf: string[]) =>
    anyOf.some((scope) => c.get('scopes').has(scope)) ? null : apiError(c, 403, 'Insufficient client scope');
  /** Writes to a public playlist need -public, to a private one -private (a collaborative one is private). */
  const modifyScope = (playlist: { public: boolean }) => (playlist.public ? MODIFY_PUBLIC : MODIFY_PRIVATE);

  // Retired in the 2026 changes; Spotify answers 403 on them, not 404.
  app.post('/v1/users/:id/playlists', (c) => apiError(c, 403, 'Forbidden'));
  app.on(['POST', 'PUT', 'DELETE'], '/v1/playlists/:id/tracks', (c) => apiError(c, 403, 'Forbidden'));

  app.get('/v1/me', (c) => c.json(privateUserObject(wire(c), c.get('user'))));

  app.get('/v1/me/playlists', (c) => {
    const refused = missingScope(c, READ_PRIVATE);
    if (refused) return refused;
    const limit = intParam(c.req.query('limit'), 20, 1, 50);
    if (limit === null) return apiError(c, 400, 'Invalid limit');
    const offset = intParam(c.req.query('offset'), 0, 0, 100_000);
    if (offset === null) return apiError(c, 400, 'Invalid offset');
    const user = c.get('user');
    const ids = world.state.value.libraries[user.id] ?? [];
    const context = wire(c);
    const items = ids.slice(offset, offset + limit).flatMap((id) => {
      const playlist = findPlaylist(id);
      return playlist ? [simplifiedPlaylistObject(context, playlist, userById(playlist.ownerId))] : [];
    });
    return c.json(paging(c, items, offset, limit, ids.length));
  });

  app.post('/v1/me/playlists', async (c) => {
    const body = await c.req.json().catch(() => undefined);
    if (typeof body !== 'object' || body === null) return apiError(c, 400, 'Error parsing JSON.');
    const { name, description, public: isPublic, collaborative } = body as Record<string, unknown>;
    if (typeof name !== 'string' || name.trim() === '')
      return apiError(c, 400, 'Missing required field: name');
    if (collaborative === true && isPublic !== false) {
      return apiError(c, 400, 'Collaborative playlists can only be private.');
    }
    const refused = missingScope(c, modifyScope({ public: isPublic !== false }));
    if (refused) return refused;
    const user = c.get('user');
    const playlist: StoredPlaylist = {
      id: randomBase62Id(),
      name,
      description: typeof description === 'string' ? description : '',
      ownerId: user.id,
      public: isPublic !== false,
      collaborative: collaborative === true,
      version: 1,
      entries: [],
    };
    world.state.update((s) => {
      s.playlists[playlist.id] = playlist;
      s.libraries[user.id] = [playlist.id, ...(s.libraries[user.id] ?? [])];
    });
    const context = wire(c);
    return c.json(
      {
        ...simplifiedPlaylistObject(context, playlist, user),
        description: playlist.description === '' ? null : playlist.description,
        followers: { href: null, total: 0 },
        items: paging(c, [], 0, 100, 0),
      },
      201,
    );
  });

  app.get('/v1/playlists/:id', (c) => {
    const playlist = findPlaylist(c.req.param('id'));
    if (!playlist) return apiError(c, 404, 'Resource not found');
    const market = marketParam(c);
    if (market === null) return apiError(c, 400, 'Invalid market code');
    const user = c.get('user');
    const context = wire(c, market);
    const base = {
      ...simplifiedPlaylistObject(context, playlist, userById(playlist.ownerId)),
      followers: { href: null, total: playlist.ownerId === user.id ? 0 : 1 },
    };
    if (!canReadItems(playlist, user)) {
      // Development mode: metadata only; the items are reserved for owners and collaborators.
      const { items: _hidden, ...metadata } = base;
      return c.json(metadata);
    }
    const withEpisodes = (c.req.query('additional_types') ?? '').split(',').includes('episode');
    const itemsUrl = new URL(`${context.apiRoot}/v1/playlists/${playlist.id}/items`);
    for (const key of ['market', 'additional_types']) {
      const value = c.req.query(key);
      if (value) itemsUrl.searchParams.set(key, value);
    }
    const limit = 100;
    const pageAt = (offset: number) => {
      itemsUrl.searchParams.set('offset', String(offset));
      itemsUrl.searchParams.set('limit', String(limit));
      return itemsUrl.toString();
    };
    const total = playlist.entries.length;
    return c.json({
      ...base,
      items: {
        href: pageAt(0),
        items: playlist.entries.slice(0, limit).map((entry) => renderEntry(context, entry, withEpisodes)),
        limit,
        next: limit < total ? pageAt(limit) : null,
        offset: 0,
        previous: null,
        total,
      },
    });
  });

  app.get('/v1/playlists/:id/items', (c) => {
    const playlist = findPlaylist(c.req.param('id'));
    if (!playlist) return apiError(c, 404, 'Resource not found');
    if (!canReadItems(playlist, c.get('user'))) return apiError(c, 403, 'Forbidden');
    if (!playlist.public) {
      const refused = missingScope(c, READ_PRIVATE);
      if (refused) return refused;
    }
    return itemsPage(c, playlist, 50);
  });

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

  // Rename, describe, make public or private: 200 with an empty body.
  app.put('/v1/playlists/:id', async (c) => {
    const playlist = findPlaylist(c.req.param('id'));
    const refused = changeable(c, playlist);
    if (refused || !playlist) return refused ?? apiError(c, 404, 'Resource not found');
    const body = await c.req.json().catch(() => undefined);
    if (typeof body !== 'object' || body === null) return apiError(c, 400, 'Error parsing JSON.');
    const { name, description, public: isPublic, collaborative } = body as Record<string, unknown>;
    if (name !== undefined && (typeof name !== 'string' || name.trim() === '')) {
      return apiError(c, 400, 'Invalid name');
    }
    const nextPublic = typeof isPublic === 'boolean' ? isPublic : playlist.public;
    const nextCollaborative = typeof collaborative === 'boolean' ? collaborative : playlist.collaborative;
    if (nextCollaborative && nextPublic)
      return apiError(c, 400, 'Collaborative playlists can only be private.');
    world.state.update((s) => {
      const stored = s.playlists[playlist.id];
      if (!stored) return;
      if (typeof name === 'string') stored.name = name;
      if (typeof description === 'string') stored.description = description;
      stored.public = nextPublic;
      stored.collaborative = nextCollaborative;
      stored.version += 1;
    });
    return c.body(null, 200);
  });

  // Cover upload: the body is a base64 JPEG (at most 256 KB), answered 202 with no body.
  app.put('/v1/playlists/:id/images', async (c) => {
    const playlist = findPlaylist(c.req.param('id'));
    const refused = changeable(c, playlist, IMAGE_UPLOAD);
    if (refused || !playlist) return refused ?? apiError(c, 404, 'Resource not found');
    if (!(c.req.header('content-type') ?? '').startsWith('image/jpeg')) {
      return apiError(c, 400, 'Content-Type must be image/jpeg');
    }
    const text = (await c.req.text()).trim();
    const bytes = /^[A-Za-z0-9+/]+={0,2}$/.test(text) ? Buffer.from(text, 'base64') : undefined;
    if (bytes?.[0] !== 0xff || bytes[1] !== 0xd8) {
      return apiError(c, 400, 'Image must be a base64-encoded JPEG');
    }
    if (bytes.length > MAX_COVER_BYTES) return apiError(c, 413, 'Image too large (at most 256 KB)');
    world.state.update((s) => {
      const stored = s.playlists[playlist.id];
      if (!stored) return;
      stored.coverJpeg = text;
      stored.version += 1;
    });
    return c.body(null, 202);
  });

  app.get('/v1/playlists/:id/tracks', (c) => {
    // Renamed to /items in 2026; development-mode apps get 403 on the old name.
    if (development) return apiError(c, 403, 'Forbidden');
    const playlist = findPlaylist(c.req.param('id'));
    if (!playlist) return apiError(c, 404, 'Resource not found');
    return itemsPage(c, playlist, 100);
  });

  app.post('/v1/playlists/:id/items', async (c) => {
    const playlist = findPlaylist(c.req.param('id'));
    if (!playlist) return apiError(c, 404, 'Resource not found');
    const user = c.get('user');
    if (playlist.ownerId !== user.id && !playlist.collaborative) {
      return apiError(c, 403, "You cannot add tracks to a playlist you don't own.");
    }
    const refused = missingScope(c, modifyScope(playlist));
    if (refused) return refused;
    const text = await c.req.text();
    let body: Record<string, unknown> = {};
    if (text.trim() !== '') {
      try {
        const parsed: unknown = JSON.parse(text);
        if (typeof parsed === 'object' && parsed !== null) body = parsed as Record<string, unknown>;
      } catch {
        return apiError(c, 400, 'Error parsing JSON.');
      }
    }
    const queryUris = c.req.query('uris');
    const uris: unknown = queryUris !== undefined ? queryUris.split(',').map((uri) => uri.trim()) : body.uris;
    if (!Array.isArray(uris) || uris.length === 0 || !uris.every((uri) => typeof uri === 'string')) {
      return apiError(c, 400, 'No uris provided');
    }
    if (uris.length > MAX_ADD)
      return apiError(c, 400, `You can add a maximum of ${MAX_ADD} tracks per request.`);
    const trackIds: string[] = [];
    for (const uri of uris as string[]) {
      if (uri.startsWith('spotify:local:'))
        return apiError(c, 400, 'Local tracks cannot be added to a playlist.');
      const id = /^spotify:track:(.+)$/.exec(uri)?.[1];
      if (id === undefined) return apiError(c, 400, `Unsupported URL / URI: ${uri}`);
      if (!isBase62Id(id)) return apiError(c, 400, 'Invalid base62 id');
      if (!world.track(id)) return apiError(c, 400, 'Payload contains a non-existing ID');
      trackIds.push(id);
    }
    const rawPosition =
      c.req.query('position') ?? (body.position === undefined ? undefined : String(body.position));
    const position = intParam(rawPosition, playlist.entries.length, 0, playlist.entries.length);
    if (position === null) return apiError(c, 400, 'Index out of bounds');
    const addedAt = new Date(world.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const updated = world.state.update((s) => {
      const stored = s.playlists[playlist.id];
      if (!stored) return undefined;
      const entries: StoredEntry[] = trackIds.map((trackId) => ({
        kind: 'track',
        trackId,
        addedAt,
        addedBy: user.id,
      }));
      stored.entries.splice(position, 0, ...entries);
      stored.version += 1;
      return stored;
    });
    if (!updated) return apiError(c, 404, 'Resource not found');
    return c.json({ snapshot_id: snapshotId(updated) }, 201);
  });

  app.get('/v1/search', (c) => {
    const q = c.req.query('q');
    if (!q) return apiError(c, 400, 'No search query');
    const types = (c.req.query('type') ?? '').split(',').filter(Boolean);
    if (types.length === 0) return apiError(c, 400, 'Missing parameter type');
    const known = ['album', 'artist', 'playlist', 'track', 'show', 'episode', 'audiobook'];
    if (!types.every((type) => known.includes(type))) return apiError(c, 400, 'Bad search type field');
    const limit = intParam(c.req.query('limit'), development ? 5 : 20, 1, development ? 10 : 50);
    if (limit === null) return apiError(c, 400, 'Invalid limit');
    const offset = intParam(c.req.query('offset'), 0, 0, SEARCH_OFFSET_MAX);
    if (offset === null) return apiError(c, 400, 'Invalid offset');
    const market = marketParam(c);
    if (market === null) return apiError(c, 400, 'Invalid market code');
    if (!types.includes('track')) return c.json({});
    const matches = world.search(q, market);
    const total = Math.min(matches.length, SEARCH_OFFSET_MAX + limit);
    const context = wire(c, market);
    const items = matches
      .slice(offset, Math.min(offset + limit, total))
      .map((track) => trackObject(context, track, world.release(track)));
    return c.json({ tracks: paging(c, items, offset, limit, total) });
  });

  app.get('/v1/tracks/:id', (c) => {
    const id = c.req.param('id');
    if (!isBase62Id(id)) return apiError(c, 400, 'Invalid base62 id');
    const market = marketParam(c);
    if (market === null) return apiError(c, 400, 'Invalid market code');
    const track = world.track(id);
    if (!track) return apiError(c, 404, 'Resource not found');
    return c.json(trackObject(wire(c, market), track, world.release(track)));
  });

  app.get('/v1/tracks', (c) => {
    if (development) return apiError(c, 403, 'Forbidden');
    const ids = (c.req.query('ids') ?? '').split(',').filter(Boolean);
    if (ids.length === 0) return apiError(c, 400, 'Missing parameter ids');
    if (ids.length > 50) return apiError(c, 400, 'Too many ids requested');
    const market = marketParam(c);
    if (market === null) return apiError(c, 400, 'Invalid market code');
    const context = wire(c, market);
    return c.json({
      tracks: ids.map((id) => {
        const track = world.track(id);
        return track ? trackObject(context, track, world.release(track)) : null;
      }),
    });
  });

  acceptTrailingSlashes(app);
  app.all('/v1/*', (c) => apiError(c, 404, 'Service not found'));

  return new Hono().route('/', app);
}
