import type { Hono } from 'hono';
import type { AppleCatalogIndex } from './catalog-index';
import type { LibraryPlaylist } from './library';
import { type AppleEnv, fail, nextLink, readPaging, splitList } from './routes-common';
import { badParameter, notFound, renderAlbum, renderCatalogPlaylist, renderSong } from './wire';

const MAX_ISRCS = 25;
const MAX_IDS = 300;
const MAX_SEARCH_LIMIT = 25;
const MAX_ALBUM_IDS = 100;
const MAX_UPCS = 25;

export interface CatalogRouteInput {
  index: AppleCatalogIndex;
  storefronts: ReadonlySet<string>;
  /** A shared playlist by its catalog (`pl.u-`) id, whoever made it. */
  findSharedPlaylist: (globalId: string) => LibraryPlaylist | undefined;
}

/** The per-storefront catalog: songs by id and ISRC, albums, search, and shared playlists. */
export function addCatalogRoutes(app: Hono<AppleEnv>, input: CatalogRouteInput): void {
  app.use('/v1/catalog/:sf/*', async (c, next) => {
    const storefront = c.req.param('sf');
    if (!input.storefronts.has(storefront)) return fail(c, notFound(`No storefront with id ${storefront}`));
    await next();
  });
  addSongRoutes(app, input.index);
  addAlbumRoutes(app, input.index);
  addSearchRoutes(app, input.index);
  addSharedPlaylistRoutes(app, input.findSharedPlaylist);
}

function addSongRoutes(app: Hono<AppleEnv>, index: AppleCatalogIndex): void {
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
}

function addAlbumRoutes(app: Hono<AppleEnv>, index: AppleCatalogIndex): void {
  app.get('/v1/catalog/:sf/albums', (c) => {
    const storefront = c.req.param('sf');
    const upcFilter = c.req.query('filter[upc]');
    if (upcFilter !== undefined) {
      const upcs = splitList(upcFilter);
      if (upcs.length === 0) return fail(c, badParameter('filter[upc]', 'No UPC given.'));
      if (upcs.length > MAX_UPCS) {
        return fail(c, badParameter('filter[upc]', `At most ${MAX_UPCS} UPCs per request.`));
      }
      const albums = [...new Set(upcs)].flatMap((upc) => index.albumsByUpc(upc, storefront));
      return c.json({ data: albums.map((album) => renderAlbum(album, storefront)) });
    }
    const ids = c.req.query('ids');
    if (ids === undefined) return fail(c, badParameter('ids', 'One of ids or filter[upc] is required.'));
    const wanted = splitList(ids);
    if (wanted.length > MAX_ALBUM_IDS)
      return fail(c, badParameter('ids', `At most ${MAX_ALBUM_IDS} ids per request.`));
    return c.json({
      data: wanted.flatMap((id) => {
        const album = index.album(id, storefront);
        return album ? [renderAlbum(album, storefront)] : [];
      }),
    });
  });

  app.get('/v1/catalog/:sf/albums/:id', (c) => {
    const storefront = c.req.param('sf');
    const album = index.album(c.req.param('id'), storefront);
    if (!album) return fail(c, notFound(`No album with id ${c.req.param('id')} in storefront ${storefront}`));
    const songs = album.songs.filter((song) => song.storefronts.has(storefront));
    const href = `/v1/catalog/${storefront}/albums/${album.id}/tracks`;
    return c.json({
      data: [
        {
          ...renderAlbum(album, storefront),
          relationships: {
            tracks: {
              href,
              data: songs.slice(0, 300).map((song) => renderSong(song, storefront)),
              ...nextLink(href, 0, 300, songs.length),
            },
          },
        },
      ],
    });
  });

  app.get('/v1/catalog/:sf/albums/:id/tracks', (c) => {
    const storefront = c.req.param('sf');
    const album = index.album(c.req.param('id'), storefront);
    if (!album) return fail(c, notFound(`No album with id ${c.req.param('id')} in storefront ${storefront}`));
    const paging = readPaging(c, 100, 300);
    if ('error' in paging) return fail(c, paging.error);
    const songs = album.songs.filter((song) => song.storefronts.has(storefront));
    const { offset, limit } = paging;
    return c.json({
      data: songs.slice(offset, offset + limit).map((song) => renderSong(song, storefront)),
      ...nextLink(`/v1/catalog/${storefront}/albums/${album.id}/tracks`, offset, limit, songs.length),
    });
  });
}

function addSearchRoutes(app: Hono<AppleEnv>, index: AppleCatalogIndex): void {
  app.get('/v1/catalog/:sf/search', (c) => {
    const storefront = c.req.param('sf');
    const term = c.req.query('term');
    const types = c.req.query('types');
    if (!term?.trim()) return fail(c, badParameter('term', 'term is required.'));
    if (!types) return fail(c, badParameter('types', 'types is required.'));
    const paging = readPaging(c, 5, MAX_SEARCH_LIMIT);
    if ('error' in paging) return fail(c, paging.error);
    const { offset, limit } = paging;
    const wanted = splitList(types);
    const base = `/v1/catalog/${storefront}/search`;
    const results: Record<string, unknown> = {};
    const order: string[] = [];
    const addResults = <T>(type: 'songs' | 'albums', found: T[], render: (item: T) => unknown) => {
      const page = found.slice(offset, offset + limit);
      // A type with nothing found is left out of `results` altogether.
      if (page.length === 0) return;
      const query = `term=${encodeURIComponent(term).replace(/%20/g, '+')}&types=${type}`;
      results[type] = {
        href: `${base}?limit=${limit}&${query}`,
        ...(offset + limit < found.length ? { next: `${base}?offset=${offset + limit}&${query}` } : {}),
        data: page.map(render),
      };
      order.push(type);
    };
    if (wanted.includes('songs'))
      addResults('songs', index.search(term, storefront), (song) => renderSong(song, storefront));
    if (wanted.includes('albums'))
      addResults('albums', index.searchAlbums(term, storefront), (album) => renderAlbum(album, storefront));
    return c.json({ results, meta: { results: { order, rawOrder: order } } });
  });
}

function addSharedPlaylistRoutes(
  app: Hono<AppleEnv>,
  findSharedPlaylist: (globalId: string) => LibraryPlaylist | undefined,
): void {
  function sharedSongs(globalId: string, storefront: string) {
    const playlist = findSharedPlaylist(globalId);
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
}
