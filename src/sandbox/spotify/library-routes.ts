import {
  type ApiApp,
  type ApiContext,
  type ApiKit,
  apiError,
  intParam,
  isoSeconds,
  paging,
  SCOPES,
} from './api-kit';
import { isBase62Id } from './ids';
import { albumObject, trackObject } from './wire-objects';

/** PUT/DELETE /me/library and /me/library/contains take at most 40 URIs (the 2026 rules). */
const MAX_LIBRARY_URIS = 40;
const LIBRARY_URI = /^spotify:(track|album|episode|show|audiobook|user|playlist|artist):([^:]+)$/;

/** `limit` (1–50, default 20) and `offset`, or the 400 Spotify answers. */
export function pageParams(c: ApiContext) {
  const limit = intParam(c.req.query('limit'), 20, 1, 50);
  if (limit === null) return { refused: apiError(c, 400, 'Invalid limit') };
  const offset = intParam(c.req.query('offset'), 0, 0, 100_000);
  if (offset === null) return { refused: apiError(c, 400, 'Invalid offset') };
  return { limit, offset };
}

/** The library: Liked Songs and saved albums (reads), /me/library (the 2026 writes). */
export function addLibraryRoutes(app: ApiApp, kit: ApiKit): void {
  const { world } = kit;
  /** What a read of saved items checks first (scope, paging, market), or the answer Spotify gives. */
  const savedItemsRead = (c: ApiContext) => {
    const refused = kit.missingScope(c, SCOPES.libraryRead);
    if (refused) return { refused };
    const page = pageParams(c);
    if ('refused' in page) return { refused: page.refused };
    const market = kit.marketParam(c);
    if (market === null) return { refused: apiError(c, 400, 'Invalid market code') };
    return {
      limit: page.limit,
      offset: page.offset,
      context: kit.wire(c, market),
      saved: world.store.saved(c.get('user').id),
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
    const refused = kit.missingScope(c, SCOPES.libraryModify);
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
    const addedAt = isoSeconds(world.now());
    // The `dropped-adds` fault leaves out saved tracks too (the answer still says done).
    const tracks = parsed.uris.filter((uri) => uri.type === 'track');
    const kept = new Set(action === 'save' && kit.options.dropAdds ? kit.options.dropAdds(tracks) : tracks);
    const uris = parsed.uris.filter((uri) => uri.type !== 'track' || kept.has(uri));
    world.store.changeSaved(c.get('user').id, (saved) => {
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
    const refused = kit.missingScope(c, SCOPES.libraryRead);
    if (refused) return refused;
    const parsed = libraryUris(c);
    if ('refused' in parsed) return parsed.refused;
    const saved = world.store.saved(c.get('user').id);
    const tracks = new Set(saved.tracks.map((entry) => entry.id));
    const albums = new Set(saved.albums.map((entry) => entry.id));
    return c.json(
      parsed.uris.map(({ type, id }) =>
        type === 'track' ? tracks.has(id) : type === 'album' ? albums.has(id) : false,
      ),
    );
  });
}
