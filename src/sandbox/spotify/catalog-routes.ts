import { type ApiApp, type ApiContext, type ApiKit, apiError, intParam, paging } from './api-kit';
import { isBase62Id } from './ids';
import { pageParams } from './library-routes';
import { albumObject, simplifiedAlbumObject, simplifiedTrackObject, trackObject } from './wire-objects';
import type { SpotifyAlbum } from './world';

const SEARCH_OFFSET_MAX = 1000;

/** The catalog: albums, tracks and search (what an app token may read too). */
export function addCatalogRoutes(app: ApiApp, kit: ApiKit): void {
  const { world } = kit;
  // --- Albums: one album and its tracks survive in development mode; the batch lookup does not ---------

  const findAlbum = (c: ApiContext): SpotifyAlbum | Response => {
    const id = c.req.param('id') ?? '';
    if (!isBase62Id(id)) return apiError(c, 400, 'Invalid base62 id');
    return world.album(id) ?? apiError(c, 404, 'Resource not found');
  };

  app.get('/v1/albums', (c) => {
    if (kit.development) return apiError(c, 403, 'Forbidden');
    const ids = (c.req.query('ids') ?? '').split(',').filter(Boolean);
    if (ids.length === 0) return apiError(c, 400, 'Missing parameter ids');
    if (ids.length > 20) return apiError(c, 400, 'Too many ids requested');
    const market = kit.marketParam(c);
    if (market === null) return apiError(c, 400, 'Invalid market code');
    const context = kit.wire(c, market);
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
    const market = kit.marketParam(c);
    if (market === null) return apiError(c, 400, 'Invalid market code');
    return c.json(albumObject(kit.wire(c, market), album.release, album.tracks, { limit: 50 }));
  });

  app.get('/v1/albums/:id/tracks', (c) => {
    const album = findAlbum(c);
    if (album instanceof Response) return album;
    const page = pageParams(c);
    if ('refused' in page) return page.refused;
    const market = kit.marketParam(c);
    if (market === null) return apiError(c, 400, 'Invalid market code');
    const context = kit.wire(c, market);
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
    const limit = intParam(c.req.query('limit'), kit.development ? 5 : 20, 1, kit.development ? 10 : 50);
    if (limit === null) return apiError(c, 400, 'Invalid limit');
    const offset = intParam(c.req.query('offset'), 0, 0, SEARCH_OFFSET_MAX);
    if (offset === null) return apiError(c, 400, 'Invalid offset');
    const market = kit.marketParam(c);
    if (market === null) return apiError(c, 400, 'Invalid market code');
    const context = kit.wire(c, market);
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
    const market = kit.marketParam(c);
    if (market === null) return apiError(c, 400, 'Invalid market code');
    const track = world.track(id);
    if (!track) return apiError(c, 404, 'Resource not found');
    return c.json(trackObject(kit.wire(c, market), track, world.release(track)));
  });

  app.get('/v1/tracks', (c) => {
    if (kit.development) return apiError(c, 403, 'Forbidden');
    const ids = (c.req.query('ids') ?? '').split(',').filter(Boolean);
    if (ids.length === 0) return apiError(c, 400, 'Missing parameter ids');
    if (ids.length > 50) return apiError(c, 400, 'Too many ids requested');
    const market = kit.marketParam(c);
    if (market === null) return apiError(c, 400, 'Invalid market code');
    const context = kit.wire(c, market);
    return c.json({
      tracks: ids.map((id) => {
        const track = world.track(id);
        return track ? trackObject(context, track, world.release(track)) : null;
      }),
    });
  });
}
