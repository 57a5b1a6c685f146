import type { KeyObject } from 'node:crypto';
import { type Context, Hono } from 'hono';
import type { JWK } from 'jose';
import { z } from 'zod';
import type { Catalog } from '../catalog/types';
import { StateFile } from '../state-file';
import { acceptTrailingSlashes } from '../trailing-slash';
import { authorizeErrorPage, authorizePage } from './authorize-page';
import { AppleCatalogIndex } from './catalog-index';
import { createDeveloperTokenVerifier, type VerifiedDeveloperToken } from './developer-token-check';
import { type AppleEmulatorState, AppleLibrary, initialAppleState, type StoredSong } from './library';
import { createRateLimiter } from './rate-limiter';
import { liveStorefronts, storefrontResource } from './storefronts';
import {
  type AppleErrorInput,
  badParameter,
  errorBody,
  notFound,
  renderCatalogPlaylist,
  renderLibraryPlaylist,
  renderLibrarySong,
  renderSong,
} from './wire';

export { MAX_DEVELOPER_TOKEN_LIFETIME_S } from './developer-token-check';
export type { AppleEmulatorState } from './library';

export interface AppleEmulatorOptions {
  catalog: Catalog;
  /** undefined = memory only; else durable state through StateFile. */
  stateFile?: string;
  /** The ES256 keys whose developer tokens are accepted. */
  developerKeys: { teamId: string; keyId: string; publicKey: CryptoKey | KeyObject | JWK }[];
  /** null/undefined = off. Apple answers 429 without Retry-After. */
  rateLimit?: { budget: number; windowMs: number } | null;
  now?: () => number;
  /** The demo user's storefront (default `us`). */
  storefront?: string;
  /** Library writes become visible to reads this many ms later, as on Apple (default 0). */
  writeLagMs?: number;
}

type AppleEnv = { Variables: { developer: VerifiedDeveloperToken } };

const MAX_LIBRARY_PAGE = 100;
const MAX_ISRCS = 25;
const MAX_IDS = 300;
const MAX_SEARCH_LIMIT = 25;
const MAX_APPEND = 100;

const trackRefs = z.array(z.object({ id: z.string().min(1), type: z.string() }));
const createPlaylistBody = z.object({
  attributes: z.object({
    name: z.string().trim().min(1),
    description: z.string().optional(),
    isPublic: z.boolean().optional(),
  }),
  relationships: z.object({ tracks: z.object({ data: trackRefs }).optional() }).optional(),
});
const appendBody = z.object({ data: trackRefs });

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
  const library = new AppleLibrary(options.catalog, index, state, now, options.writeLagMs ?? 0);
  const verify = createDeveloperTokenVerifier(options.developerKeys, now);
  const allow = createRateLimiter(options.rateLimit, now);
  const storefronts = liveStorefronts(index.storefronts);
  const app = new Hono<AppleEnv>();

  const fail = (c: Context, error: AppleErrorInput) =>
    c.json(errorBody(error), error.status as 400 | 403 | 404 | 405 | 429);

  function issueMusicUserToken(teamId: string): string {
    const token = `sandbox-mut.${Buffer.from(crypto.getRandomValues(new Uint8Array(48))).toString('base64url')}`;
    state.update((current) => {
      current.userTokens[token] = { teamId, issuedAt: new Date(now()).toISOString() };
    });
    return token;
  }

  // --- MusicKit-style sign-in -------------------------------------------------------------------------
  type AuthorizeInput =
    | { error: string; status: 400 | 401 }
    | { developer: VerifiedDeveloperToken; developerToken: string; redirectUri: string; state: string };

  async function checkAuthorizeInput(input: Record<string, unknown>): Promise<AuthorizeInput> {
    const developerToken = typeof input.developer_token === 'string' ? input.developer_token : '';
    const redirectUri = typeof input.redirect_uri === 'string' ? input.redirect_uri : '';
    const stateParam = typeof input.state === 'string' ? input.state : '';
    if (!/^https?:\/\//.test(redirectUri) || !URL.canParse(redirectUri)) {
      return { error: 'The app sent no valid redirect address.', status: 400 };
    }
    const developer = await verify(developerToken);
    if (!developer) return { error: 'The app’s developer token is not valid.', status: 401 };
    return { developer, developerToken, redirectUri, state: stateParam };
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
      target.searchParams.set('music_user_token', issueMusicUserToken(checked.developer.teamId));
    } else target.searchParams.set('error', 'access_denied');
    target.searchParams.set('state', checked.state);
    return c.redirect(target.toString(), 302);
  });

  // --- Every /v1 call: developer token, then the rate limit --------------------------------------------
  app.use('/v1/*', async (c, next) => {
    const token = /^Bearer (\S+)$/.exec(c.req.header('authorization') ?? '')?.[1];
    const developer = token ? await verify(token) : undefined;
    // Apple's 401 has no defined body; it is empty here so clients cannot rely on one.
    if (!developer) return c.body(null, 401);
    if (!allow(developer.keyId)) {
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
  app.get('/v1/me/storefront', (c) => c.json({ data: [storefrontResource(userStorefront)] }));

  app.get('/v1/storefronts/:id', (c) => {
    const id = c.req.param('id').toLowerCase();
    if (!storefronts.has(id)) return fail(c, notFound(`No storefront with id ${id}`));
    return c.json({ data: [storefrontResource(id)] });
  });

  // --- Library -----------------------------------------------------------------------------------------
  app.get('/v1/me/library/playlists', (c) => {
    const all = library.playlists();
    const ids = c.req.query('ids');
    if (ids !== undefined) {
      const wanted = new Set(ids.split(','));
      const found = all.filter((playlist) => wanted.has(playlist.id));
      if (found.length === 0) return fail(c, notFound('No library playlists with these ids'));
      return c.json({ data: found.map(renderLibraryPlaylist) });
    }
    const paging = readPaging(c, 25, MAX_LIBRARY_PAGE);
    if ('error' in paging) return fail(c, paging.error);
    if (all.length === 0) return fail(c, notFound('The library has no playlists'));
    const { offset, limit } = paging;
    return c.json({
      data: all.slice(offset, offset + limit).map(renderLibraryPlaylist),
      ...nextLink('/v1/me/library/playlists', offset, limit, all.length),
      meta: { total: all.length },
    });
  });

  app.get('/v1/me/library/playlists/:id', (c) => {
    const playlist = library.playlist(c.req.param('id'));
    if (!playlist) return fail(c, notFound(`No library playlist with id ${c.req.param('id')}`));
    const include = (c.req.query('include') ?? '').split(',');
    const resource = renderLibraryPlaylist(playlist);
    if (!include.includes('tracks')) return c.json({ data: [resource] });
    const songs = playlist.songs.slice(0, MAX_LIBRARY_PAGE);
    const href = `/v1/me/library/playlists/${playlist.id}/tracks`;
    return c.json({
      data: [
        {
          ...resource,
          relationships: {
            tracks: {
              href,
              data: songs.map((song) => renderLibrarySong(song, userStorefront, include.includes('catalog'))),
              ...nextLink(href, 0, MAX_LIBRARY_PAGE, playlist.songs.length),
              meta: { total: playlist.songs.length },
            },
          },
        },
      ],
    });
  });

  app.get('/v1/me/library/playlists/:id/tracks', (c) => {
    const playlist = library.playlist(c.req.param('id'));
    if (!playlist) return fail(c, notFound(`No library playlist with id ${c.req.param('id')}`));
    const paging = readPaging(c, MAX_LIBRARY_PAGE, MAX_LIBRARY_PAGE);
    if ('error' in paging) return fail(c, paging.error);
    // Apple answers 404 rather than an empty list for an empty playlist.
    if (playlist.songs.length === 0) return fail(c, notFound('The playlist has no tracks'));
    const includeCatalog = (c.req.query('include') ?? '').split(',').includes('catalog');
    const { offset, limit } = paging;
    return c.json({
      data: playlist.songs
        .slice(offset, offset + limit)
        .map((song) => renderLibrarySong(song, userStorefront, includeCatalog)),
      ...nextLink(`/v1/me/library/playlists/${playlist.id}/tracks`, offset, limit, playlist.songs.length),
      meta: { total: playlist.songs.length },
    });
  });

  app.post('/v1/me/library/playlists', async (c) => {
    const parsed = createPlaylistBody.safeParse(await readJson(c));
    if (!parsed.success) {
      return fail(c, {
        status: 400,
        code: '40007',
        title: 'Invalid Request Body',
        detail: 'The body needs attributes.name (a non-empty string).',
      });
    }
    const refs = parsed.data.relationships?.tracks?.data ?? [];
    const songs = resolveRefs(refs);
    if ('error' in songs) return fail(c, songs.error);
    const created = library.createPlaylist({
      name: parsed.data.attributes.name,
      description: parsed.data.attributes.description ?? '',
      isPublic: parsed.data.attributes.isPublic ?? false,
      songs: songs.songs,
    });
    if (!created) throw new Error('A created playlist could not be read back');
    return c.json({ data: [renderLibraryPlaylist(created)] }, 201);
  });

  app.post('/v1/me/library/playlists/:id/tracks', async (c) => {
    const playlist = library.writablePlaylist(c.req.param('id'));
    if (!playlist) return fail(c, notFound(`No library playlist with id ${c.req.param('id')}`));
    const parsed = appendBody.safeParse(await readJson(c));
    if (!parsed.success || parsed.data.data.length === 0) {
      return fail(c, {
        status: 400,
        code: '40007',
        title: 'Invalid Request Body',
        detail: 'The body needs data: a non-empty list of {id, type}.',
      });
    }
    if (!playlist.canEdit) {
      return fail(c, {
        status: 400,
        code: '40015',
        title: 'Insufficient Privileges',
        detail: 'This playlist belongs to someone else and cannot be changed.',
      });
    }
    const songs = resolveRefs(parsed.data.data);
    if ('error' in songs) return fail(c, songs.error);
    library.append(playlist.id, songs.songs);
    return c.body(null, 204);
  });

  function resolveRefs(
    refs: { id: string; type: string }[],
  ): { songs: StoredSong[] } | { error: AppleErrorInput } {
    if (refs.length > MAX_APPEND) {
      return {
        error: {
          status: 400,
          code: '40007',
          title: 'Invalid Request Body',
          detail: `At most ${MAX_APPEND} tracks can be added in one request.`,
        },
      };
    }
    const songs: StoredSong[] = [];
    for (const ref of refs) {
      const song = library.resolve(ref.id, ref.type);
      if (!song) {
        return {
          error: {
            status: 400,
            code: '40007',
            title: 'Invalid Request Body',
            detail: `Unknown ${ref.type} id ${ref.id}.`,
          },
        };
      }
      songs.push(song);
    }
    return { songs };
  }

  // --- Catalog ----------------------------------------------------------------------------------------
  app.use('/v1/catalog/:sf/*', async (c, next) => {
    const storefront = c.req.param('sf');
    if (!storefronts.has(storefront)) return fail(c, notFound(`No storefront with id ${storefront}`));
    await next();
  });

  app.get('/v1/catalog/:sf/songs', (c) => {
    const storefront = c.req.param('sf');
    const isrcFilter = c.req.query('filter[isrc]');
    if (isrcFilter !== undefined) {
      const isrcs = splitList(isrcFilter).map((isrc) => isrc.toUpperCase());
      if (isrcs.length === 0) return fail(c, badParameter('filter[isrc]', 'No ISRC given.'));
      if (isrcs.length > MAX_ISRCS) {
        return fail(c, badParameter('filter[isrc]', `At most ${MAX_ISRCS} ISRCs per request.`));
      }
      const data = new Map<string, ReturnType<typeof renderSong>>();
      const filter: Record<string, { id: string; type: 'songs'; href: string }[]> = {};
      for (const isrc of new Set(isrcs)) {
        const songs = index.songsByIsrc(isrc, storefront);
        if (songs.length === 0) continue;
        filter[isrc] = songs.map((song) => {
          const rendered = renderSong(song, storefront);
          data.set(song.id, rendered);
          return { id: song.id, type: 'songs', href: rendered.href };
        });
      }
      return c.json({ data: [...data.values()], meta: { filters: { isrc: filter } } });
    }
    const ids = c.req.query('ids');
    if (ids === undefined) {
      return fail(c, badParameter('ids', 'One of ids or filter[isrc] is required.'));
    }
    const wanted = splitList(ids);
    if (wanted.length > MAX_IDS) return fail(c, badParameter('ids', `At most ${MAX_IDS} ids per request.`));
    return c.json({
      data: wanted.flatMap((id) => {
        const song = index.song(id, storefront);
        return song ? [renderSong(song, storefront)] : [];
      }),
    });
  });

  app.get('/v1/catalog/:sf/songs/:id', (c) => {
    const storefront = c.req.param('sf');
    const song = index.song(c.req.param('id'), storefront);
    if (!song) return fail(c, notFound(`No song with id ${c.req.param('id')} in storefront ${storefront}`));
    return c.json({ data: [renderSong(song, storefront)] });
  });

  app.get('/v1/catalog/:sf/search', (c) => {
    const storefront = c.req.param('sf');
    const term = c.req.query('term');
    const types = c.req.query('types');
    if (!term?.trim()) return fail(c, badParameter('term', 'term is required.'));
    if (!types) return fail(c, badParameter('types', 'types is required.'));
    const paging = readPaging(c, 5, MAX_SEARCH_LIMIT);
    if ('error' in paging) return fail(c, paging.error);
    const empty = { results: {}, meta: { results: { order: [], rawOrder: [] } } };
    if (!splitList(types).includes('songs')) return c.json(empty);
    const { offset, limit } = paging;
    const found = index.search(term, storefront);
    const page = found.slice(offset, offset + limit);
    if (page.length === 0) return c.json(empty);
    const query = `term=${encodeURIComponent(term).replace(/%20/g, '+')}&types=songs`;
    const base = `/v1/catalog/${storefront}/search`;
    return c.json({
      results: {
        songs: {
          href: `${base}?limit=${limit}&${query}`,
          ...(offset + limit < found.length ? { next: `${base}?offset=${offset + limit}&${query}` } : {}),
          data: page.map((song) => renderSong(song, storefront)),
        },
      },
      meta: { results: { order: ['songs'], rawOrder: ['songs'] } },
    });
  });

  function sharedSongs(globalId: string, storefront: string) {
    const playlist = library.sharedPlaylist(globalId);
    if (!playlist) return undefined;
    // A catalog playlist shows only what the storefront carries.
    const songs = playlist.songs.flatMap((song) =>
      song.source.kind === 'catalog' && song.source.record.storefronts.has(storefront)
        ? [song.source.record]
        : [],
    );
    return { playlist, songs };
  }

  app.get('/v1/catalog/:sf/playlists/:id', (c) => {
    const storefront = c.req.param('sf');
    const id = c.req.param('id');
    const shared = sharedSongs(id, storefront);
    if (!shared) return fail(c, notFound(`No playlist with id ${id}`));
    const resource = renderCatalogPlaylist(shared.playlist, id, storefront);
    if (!(c.req.query('include') ?? '').split(',').includes('tracks')) return c.json({ data: [resource] });
    const href = `/v1/catalog/${storefront}/playlists/${id}/tracks`;
    return c.json({
      data: [
        {
          ...resource,
          relationships: {
            tracks: {
              href,
              data: shared.songs.slice(0, 100).map((song) => renderSong(song, storefront)),
              ...nextLink(href, 0, 100, shared.songs.length),
            },
          },
        },
      ],
    });
  });

  app.get('/v1/catalog/:sf/playlists/:id/tracks', (c) => {
    const storefront = c.req.param('sf');
    const id = c.req.param('id');
    const shared = sharedSongs(id, storefront);
    if (!shared) return fail(c, notFound(`No playlist with id ${id}`));
    const paging = readPaging(c, 100, 300);
    if ('error' in paging) return fail(c, paging.error);
    if (shared.songs.length === 0) return fail(c, notFound('The playlist has no tracks'));
    const { offset, limit } = paging;
    return c.json({
      data: shared.songs.slice(offset, offset + limit).map((song) => renderSong(song, storefront)),
      ...nextLink(`/v1/catalog/${storefront}/playlists/${id}/tracks`, offset, limit, shared.songs.length),
    });
  });

  acceptTrailingSlashes(app);
  app.all('/v1/*', (c) => fail(c, notFound(`No resource at ${new URL(c.req.url).pathname}`)));

  return { app, issueMusicUserToken };
}

/** Apple's `next` does not carry `limit`: clients send it again with every page. */
function nextLink(path: string, offset: number, limit: number, total: number) {
  return offset + limit < total ? { next: `${path}?offset=${offset + limit}` } : {};
}

function readPaging(
  c: Context,
  defaultLimit: number,
  maxLimit: number,
): { offset: number; limit: number } | { error: AppleErrorInput } {
  const limitText = c.req.query('limit');
  const offsetText = c.req.query('offset');
  const limit = limitText === undefined ? defaultLimit : Number(limitText);
  const offset = offsetText === undefined ? 0 : Number(offsetText);
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) {
    return { error: badParameter('limit', `Value must be an integer between 1 and ${maxLimit}.`) };
  }
  if (!Number.isInteger(offset) || offset < 0) {
    return { error: badParameter('offset', 'Value must be a non-negative integer.') };
  }
  return { offset, limit };
}

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

async function readJson(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    return undefined;
  }
}
