import { type Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { RollingWindowLimiter } from '../rate-limiter';
import { acceptTrailingSlashes } from '../trailing-slash';
import { isBase62Id, randomBase62Id } from './ids';
import type { DemoUser, StoredEntry, StoredPlaylist } from './state';
import {
  albumId,
  albumObject,
  episodeObject,
  localTrackObject,
  privateUserObject,
  simplifiedAlbumObject,
  simplifiedPlaylistObject,
  simplifiedTrackObject,
  snapshotId,
  trackObject,
  userObject,
  type WireContext,
} from './wire-objects';
import type { SpotifyAlbum, SpotifyWorld } from './world';

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
  const cut = url.pathname.search(/\/(v1|images|open)(\/|$)/);
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
  // Spotify's hrefs name the market it answered in (the token user's), `from_token` resolved.
  const market = url.searchParams.get('market');
  const country = (c.get('user') as DemoUser | undefined)?.country ?? (market === 'from_token' ? 'US' : null);
  if (market && country) url.searchParams.set('market', country);
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
const LIBRARY_READ = 'user-library-read';
const LIBRARY_MODIFY = 'user-library-modify';
/** PUT/DELETE /me/library and /me/library/contains take at most 40 URIs (the 2026 rules). */
const MAX_LIBRARY_URIS = 40;
const LIBRARY_URI = /^spotify:(track|album|episode|show|audiobook|user|playlist|artist):([^:]+)$/;
const MAX_COVER_BYTES = 256 * 1024;

/** What an app token (client credentials) may read: the catalog, never a user's data. */
const APP_TOKEN_PATHS = /^\/v1\/(search|tracks(\/[^/]+)?|albums\/[^/]+(\/tracks)?|playlists\/[^/]+)$/;
/** The caller behind an app token: no user, no country (so `market` is taken as given). */
const APP_CALLER: DemoUser = { id: '', displayName: '', registered: true };

export const OWNER_WITHOUT_PREMIUM_TEXT = 'Active premium subscription required for the owner of the app';

export interface ApiAppOptions {
  rateLimit?: { budget: number; windowMs: number } | null;
  /** False: the app owner's Premium lapsed, and development mode answers every call with 403. */
  ownerHasPremium?: boolean;
  /** The `dropped-adds` fault: which of the tracks of an add request are really stored. */
  dropAdds?: <T>(tracks: T[]) => T[];
}

export function createApiApp(world: SpotifyWorld, options: ApiAppOptions = {}): Hono {
  const { rateLimit } = options;
  const app = new Hono<Env>();
  const limiter = rateLimit
    ? new RollingWindowLimiter(rateLimit.budget, rateLimit.windowMs, world.now)
    : null;
  const development = world.mode === 'development';
  const userById = (id: string): DemoUser => world.user(id);

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

  // "Open in Spotify" in the sandbox: a small page showing the track or playlist, not the real site.
  app.get('/open/:type/:id', (c) => {
    const { type, id } = c.req.param();
    const root = apiRoot(c);
    if (type === 'track') {
      const track = world.track(id);
      if (!track) return c.html(openPage('Not found', '<p>Spotify has no track with this id.</p>'), 404);
      const release = world.release(track);
      return c.html(
        openPage(
          track.title,
          `<img src="${root}/images/${albumId(release?.key ?? `single-${track.key}`)}?size=300" alt="" width="300" height="300"><p>${escapeHtml(track.artists.join(', '))}</p><p>${escapeHtml(release?.name ?? '')}</p>`,
        ),
      );
    }
    if (type === 'playlist') {
      const playlist = findPlaylist(id);
      if (!playlist)
        return c.html(openPage('Not found', '<p>Spotify has no playlist with this id.</p>'), 404);
      const rows = playlist.entries
        .slice(0, 500)
        .map((entry) => {
          if (entry.kind === 'track') {
            const track = world.track(entry.trackId);
            return track
              ? `<li>${escapeHtml(track.title)} – ${escapeHtml(track.artists.join(', '))}</li>`
              : '';
          }
          if (entry.kind === 'local') return `<li>${escapeHtml(entry.title)} (local file)</li>`;
          if (entry.kind === 'episode') return `<li>${escapeHtml(entry.title)} (episode)</li>`;
          return '<li>Unavailable track</li>';
        })
        .join('');
      return c.html(
        openPage(
          playlist.name,
          `<p>By ${escapeHtml(userById(playlist.ownerId).displayName)} · ${playlist.entries.length} items</p><ol>${rows}</ol>`,
        ),
      );
    }
    if (type === 'album') {
      const album = world.album(id);
      if (!album) return c.html(openPage('Not found', '<p>Spotify has no album with this id.</p>'), 404);
      const rows = album.tracks.map((track) => `<li>${escapeHtml(track.title)}</li>`).join('');
      return c.html(
        openPage(
          album.release.name,
          `<img src="${root}/images/${album.id}?size=300" alt="" width="300" height="300"><p>${escapeHtml(album.release.artists.join(', '))}</p><ol>${rows}</ol>`,
        ),
      );
    }
    return c.html(openPage('Spotify sandbox', `<p>This ${escapeHtml(type)} has no sandbox page.</p>`), 404);
  });

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
    if (record.app) {
      // An app token reads the catalog only, for the `market` it names; everything of a user needs one.
      if (c.req.method !== 'GET' || !APP_TOKEN_PATHS.test(c.req.path.replace(/^.*?\/v1\//, '/v1/')))
        return apiError(c, 401, 'This request requires user authentication.');
      c.set('user', APP_CALLER);
      c.set('scopes', new Set());
      return next();
    }
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
      const kept = options.dropAdds ? options.dropAdds(trackIds) : trackIds;
      const entries: StoredEntry[] = kept.map((trackId) => ({
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

  // Remove Playlist Items: every occurrence of each uri goes (Spotify's rule), at most 100 per call.
  app.delete('/v1/playlists/:id/items', async (c) => {
    const playlist = findPlaylist(c.req.param('id'));
    if (!playlist) return apiError(c, 404, 'Resource not found');
    const user = c.get('user');
    if (playlist.ownerId !== user.id && !playlist.collaborative) {
      return apiError(c, 403, "You cannot remove tracks from a playlist you don't own.");
    }
    const refused = missingScope(c, modifyScope(playlist));
    if (refused) return refused;
    const body: unknown = await c.req.json().catch(() => undefined);
    const items = typeof body === 'object' && body !== null ? (body as { items?: unknown }).items : undefined;
    if (!Array.isArray(items) || items.length === 0) return apiError(c, 400, 'Missing required field: items');
    if (items.length > MAX_ADD)
      return apiError(c, 400, `You can remove a maximum of ${MAX_ADD} tracks per request.`);
    const trackIds = new Set<string>();
    for (const item of items) {
      const uri = typeof item === 'object' && item !== null ? (item as { uri?: unknown }).uri : undefined;
      const id = typeof uri === 'string' ? /^spotify:track:(.+)$/.exec(uri)?.[1] : undefined;
      if (id === undefined || !isBase62Id(id))
        return apiError(c, 400, `Unsupported URL / URI: ${String(uri)}`);
      trackIds.add(id);
    }
    const updated = world.state.update((s) => {
      const stored = s.playlists[playlist.id];
      if (!stored) return undefined;
      stored.entries = stored.entries.filter(
        (entry) => !(entry.kind === 'track' && trackIds.has(entry.trackId)),
      );
      stored.version += 1;
      return stored;
    });
    if (!updated) return apiError(c, 404, 'Resource not found');
    return c.json({ snapshot_id: snapshotId(updated) });
  });

  // --- The library: Liked Songs and saved albums (reads), /me/library (the 2026 writes) -----------------

  /** `limit` (1–50, default 20) and `offset`, or the 400 Spotify answers. */
  const pageParams = (c: ApiContext) => {
    const limit = intParam(c.req.query('limit'), 20, 1, 50);
    if (limit === null) return { refused: apiError(c, 400, 'Invalid limit') };
    const offset = intParam(c.req.query('offset'), 0, 0, 100_000);
    if (offset === null) return { refused: apiError(c, 400, 'Invalid offset') };
    return { limit, offset };
  };

  /** What a read of saved items checks first (scope, paging, market), or the answer Spotify gives. */
  const savedItemsRead = (c: ApiContext) => {
    const refused = missingScope(c, LIBRARY_READ);
    if (refused) return { refused };
    const page = pageParams(c);
    if ('refused' in page) return { refused: page.refused };
    const market = marketParam(c);
    if (market === null) return { refused: apiError(c, 400, 'Invalid market code') };
    return {
      limit: page.limit,
      offset: page.offset,
      context: wire(c, market),
      saved: world.saved(c.get('user').id),
    };
  };

  app.get('/v1/me/tracks', (c) => {
    const read = savedItemsRead(c);
    if ('refused' in read) return read.refused;
    const { context, ...page } = read;
    const saved = read.saved.tracks.filter((entry) => world.track(entry.id));
    const items = saved.slice(page.offset, page.offset + page.limit).flatMap((entry) => {
      const track = world.track(entry.id);
      return track
        ? [{ added_at: entry.addedAt, track: trackObject(context, track, world.release(track)) }]
        : [];
    });
    return c.json(paging(c, items, page.offset, page.limit, saved.length));
  });

  app.get('/v1/me/albums', (c) => {
    const read = savedItemsRead(c);
    if ('refused' in read) return read.refused;
    const { context, ...page } = read;
    const saved = read.saved.albums.filter((entry) => world.album(entry.id));
    const items = saved.slice(page.offset, page.offset + page.limit).flatMap((entry) => {
      const album = world.album(entry.id);
      return album
        ? [
            {
              added_at: entry.addedAt,
              album: albumObject(context, album.release, album.tracks, { limit: 50 }),
            },
          ]
        : [];
    });
    return c.json(paging(c, items, page.offset, page.limit, saved.length));
  });

  /** The `uris` of a library call, or the 400 Spotify answers (missing, more than 40, malformed). */
  const libraryUris = (c: ApiContext) => {
    const raw = c.req.query('uris');
    const uris = (raw ?? '')
      .split(',')
      .map((uri) => uri.trim())
      .filter(Boolean);
    if (uris.length === 0) return { refused: apiError(c, 400, 'Missing required parameter: uris') };
    if (uris.length > MAX_LIBRARY_URIS) {
      return { refused: apiError(c, 400, `Too many URIs: at most ${MAX_LIBRARY_URIS} per request.`) };
    }
    const parsed: { type: string; id: string }[] = [];
    for (const uri of uris) {
      const match = LIBRARY_URI.exec(uri);
      if (!match?.[1] || !match[2]) return { refused: apiError(c, 400, `Unsupported URL / URI: ${uri}`) };
      if (match[1] !== 'user' && !isBase62Id(match[2]))
        return { refused: apiError(c, 400, 'Invalid base62 id') };
      parsed.push({ type: match[1], id: match[2] });
    }
    return { uris: parsed };
  };

  /** Saves or removes tracks and albums (the sandbox models no other kind in the library). */
  const changeLibrary = (c: ApiContext, action: 'save' | 'remove') => {
    const refused = missingScope(c, LIBRARY_MODIFY);
    if (refused) return refused;
    const parsed = libraryUris(c);
    if ('refused' in parsed) return parsed.refused;
    for (const { type, id } of parsed.uris) {
      if (type !== 'track' && type !== 'album') {
        return apiError(c, 400, `The sandbox library holds tracks and albums only, not ${type}s.`);
      }
      if (action === 'save' && (type === 'track' ? !world.track(id) : !world.album(id))) {
        return apiError(c, 400, 'Payload contains a non-existing ID');
      }
    }
    const addedAt = new Date(world.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    // The `dropped-adds` fault leaves out saved tracks too (the answer still says done).
    const tracks = parsed.uris.filter((uri) => uri.type === 'track');
    const kept = new Set(action === 'save' && options.dropAdds ? options.dropAdds(tracks) : tracks);
    const uris = parsed.uris.filter((uri) => uri.type !== 'track' || kept.has(uri));
    world.updateSaved(c.get('user').id, (saved) => {
      for (const { type, id } of uris) {
        const list = type === 'track' ? saved.tracks : saved.albums;
        const at = list.findIndex((entry) => entry.id === id);
        if (action === 'remove' && at >= 0) list.splice(at, 1);
        // Each saved item goes on top, in the order given; one already saved stays where it is.
        if (action === 'save' && at < 0) list.unshift({ id, addedAt });
      }
    });
    return c.body(null, 200);
  };
  app.put('/v1/me/library', (c) => changeLibrary(c, 'save'));
  app.delete('/v1/me/library', (c) => changeLibrary(c, 'remove'));

  app.get('/v1/me/library/contains', (c) => {
    const refused = missingScope(c, LIBRARY_READ);
    if (refused) return refused;
    const parsed = libraryUris(c);
    if ('refused' in parsed) return parsed.refused;
    const saved = world.saved(c.get('user').id);
    const tracks = new Set(saved.tracks.map((entry) => entry.id));
    const albums = new Set(saved.albums.map((entry) => entry.id));
    return c.json(
      parsed.uris.map(({ type, id }) =>
        type === 'track' ? tracks.has(id) : type === 'album' ? albums.has(id) : false,
      ),
    );
  });

  // --- Albums: one album and its tracks survive in development mode; the batch lookup does not ---------

  const findAlbum = (c: ApiContext): SpotifyAlbum | Response => {
    const id = c.req.param('id') ?? '';
    if (!isBase62Id(id)) return apiError(c, 400, 'Invalid base62 id');
    return world.album(id) ?? apiError(c, 404, 'Resource not found');
  };

  app.get('/v1/albums', (c) => {
    if (development) return apiError(c, 403, 'Forbidden');
    const ids = (c.req.query('ids') ?? '').split(',').filter(Boolean);
    if (ids.length === 0) return apiError(c, 400, 'Missing parameter ids');
    if (ids.length > 20) return apiError(c, 400, 'Too many ids requested');
    const market = marketParam(c);
    if (market === null) return apiError(c, 400, 'Invalid market code');
    const context = wire(c, market);
    return c.json({
      albums: ids.map((id) => {
        const album = world.album(id);
        return album ? albumObject(context, album.release, album.tracks, { limit: 50 }) : null;
      }),
    });
  });

  app.get('/v1/albums/:id', (c) => {
    const album = findAlbum(c);
    if (album instanceof Response) return album;
    const market = marketParam(c);
    if (market === null) return apiError(c, 400, 'Invalid market code');
    return c.json(albumObject(wire(c, market), album.release, album.tracks, { limit: 50 }));
  });

  app.get('/v1/albums/:id/tracks', (c) => {
    const album = findAlbum(c);
    if (album instanceof Response) return album;
    const page = pageParams(c);
    if ('refused' in page) return page.refused;
    const market = marketParam(c);
    if (market === null) return apiError(c, 400, 'Invalid market code');
    const context = wire(c, market);
    const items = album.tracks
      .slice(page.offset, page.offset + page.limit)
      .map((track) => simplifiedTrackObject(context, track));
    return c.json(paging(c, items, page.offset, page.limit, album.tracks.length));
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
    const context = wire(c, market);
    const answer: Record<string, unknown> = {};
    if (types.includes('track')) {
      // Search always shows what the token user can play, market or not.
      const matches = world.search(q, market ?? c.get('user').country);
      const total = Math.min(matches.length, SEARCH_OFFSET_MAX + limit);
      const items = matches
        .slice(offset, Math.min(offset + limit, total))
        .map((track) => trackObject(context, track, world.release(track)));
      answer.tracks = paging(c, items, offset, limit, total);
    }
    if (types.includes('album')) {
      const albums = world.searchAlbums(q, market ?? c.get('user').country);
      const total = Math.min(albums.length, SEARCH_OFFSET_MAX + limit);
      const items = albums
        .slice(offset, Math.min(offset + limit, total))
        .map((album) => simplifiedAlbumObject(context, album.release, album.tracks));
      answer.albums = paging(c, items, offset, limit, total);
    }
    return c.json(answer);
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

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function openPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} – Spotify sandbox</title><style>body{font-family:system-ui,sans-serif;background:#121212;color:#fff;margin:0}main{max-width:40rem;margin:2rem auto;padding:0 1rem}li{padding:.2rem 0}</style></head><body><main><p>Spotify sandbox</p><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}
