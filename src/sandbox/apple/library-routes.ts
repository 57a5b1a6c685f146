import type { Hono } from 'hono';
import { z } from 'zod';
import type { AppleLibrary, LibraryPlaylist, StoredSong } from './library';
import { type AppleEnv, fail, nextLink, readJson, readPaging, splitList } from './routes-common';
import {
  type AppleErrorInput,
  badParameter,
  notFound,
  renderLibraryAlbum,
  renderLibraryPlaylist,
  renderLibrarySong,
} from './wire';

const MAX_LIBRARY_PAGE = 100;
const MAX_APPEND = 100;
/** Ids per type in one POST /v1/me/library, and per ratings lookup. */
const MAX_LIBRARY_IDS = 100;
const ratingBody = z.object({
  type: z.literal('rating'),
  attributes: z.object({ value: z.union([z.literal(1), z.literal(-1)]) }),
});

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

export interface LibraryRouteOptions {
  /** The `dropped-adds` fault: which of an add request's (or a creation's) songs are really stored. */
  dropAdds?: (<T>(tracks: T[]) => T[]) | undefined;
  /** A public playlist was created: the catalog must find it by its `pl.u-` id. */
  onShared?: ((library: AppleLibrary, globalId: string, playlistId: string) => void) | undefined;
}

/** The person's library: playlists, songs, albums and ratings. */
export function addLibraryRoutes(app: Hono<AppleEnv>, options: LibraryRouteOptions = {}): void {
  addPlaylistReadRoutes(app);
  addPlaylistWriteRoutes(app, options);
  addCollectionRoutes(app, options);
  addRatingRoutes(app);
}

/** List and read library playlists. */
function addPlaylistReadRoutes(app: Hono<AppleEnv>): void {
  app.get('/v1/me/library/playlists', (c) => {
    const all = c.get('library').playlists();
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
    const playlist = c.get('library').playlist(c.req.param('id'));
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
              data: songs.map((song) =>
                renderLibrarySong(song, c.get('storefront'), include.includes('catalog')),
              ),
              ...nextLink(href, 0, MAX_LIBRARY_PAGE, playlist.songs.length),
              ...playlistTotal(playlist),
            },
          },
        },
      ],
    });
  });

  app.get('/v1/me/library/playlists/:id/tracks', (c) => {
    const playlist = c.get('library').playlist(c.req.param('id'));
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
        .map((song) => renderLibrarySong(song, c.get('storefront'), includeCatalog)),
      ...nextLink(`/v1/me/library/playlists/${playlist.id}/tracks`, offset, limit, playlist.songs.length),
      ...playlistTotal(playlist),
    });
  });
}

/** Songs and albums of the library, and adding catalog songs and albums to it. */
function addCollectionRoutes(app: Hono<AppleEnv>, faults: LibraryRouteOptions): void {
  /** A library collection as Apple lists it: paged, `include=catalog`, 404 rather than an empty list. */
  const listCollection = <Item>(
    path: string,
    what: string,
    items: (library: AppleLibrary) => Item[],
    render: (item: Item, storefront: string, includeCatalog: boolean) => unknown,
  ) =>
    app.get(path, (c) => {
      const paging = readPaging(c, 25, MAX_LIBRARY_PAGE);
      if ('error' in paging) return fail(c, paging.error);
      const all = items(c.get('library'));
      if (all.length === 0) return fail(c, notFound(`The library has no ${what}`));
      const includeCatalog = (c.req.query('include') ?? '').split(',').includes('catalog');
      const { offset, limit } = paging;
      return c.json({
        data: all
          .slice(offset, offset + limit)
          .map((item) => render(item, c.get('storefront'), includeCatalog)),
        ...nextLink(path, offset, limit, all.length),
        meta: { total: all.length },
      });
    });
  listCollection('/v1/me/library/songs', 'songs', (library) => library.songsInLibrary(), renderLibrarySong);
  listCollection(
    '/v1/me/library/albums',
    'albums',
    (library) => library.albumsInLibrary(),
    renderLibraryAlbum,
  );

  app.get('/v1/me/library/albums/:id', (c) => {
    const album = c.get('library').libraryAlbum(c.req.param('id'));
    if (!album) return fail(c, notFound(`No library album with id ${c.req.param('id')}`));
    const includeCatalog = (c.req.query('include') ?? '').split(',').includes('catalog');
    return c.json({ data: [renderLibraryAlbum(album, c.get('storefront'), includeCatalog)] });
  });

  app.get('/v1/me/library/albums/:id/tracks', (c) => {
    const library = c.get('library');
    const album = library.libraryAlbum(c.req.param('id'));
    if (!album) return fail(c, notFound(`No library album with id ${c.req.param('id')}`));
    const paging = readPaging(c, MAX_LIBRARY_PAGE, MAX_LIBRARY_PAGE);
    if ('error' in paging) return fail(c, paging.error);
    const songs = library.libraryAlbumSongs(album);
    const includeCatalog = (c.req.query('include') ?? '').split(',').includes('catalog');
    const { offset, limit } = paging;
    return c.json({
      data: songs
        .slice(offset, offset + limit)
        .map((song) => renderLibrarySong(song, c.get('storefront'), includeCatalog)),
      ...nextLink(`/v1/me/library/albums/${album.id}/tracks`, offset, limit, songs.length),
      meta: { total: songs.length },
    });
  });

  // Add to library: `ids[songs]` and `ids[albums]` (catalog ids); 202, shown after the write lag.
  app.post('/v1/me/library', (c) => {
    const library = c.get('library');
    const songs = splitList(c.req.query('ids[songs]') ?? '');
    const albums = splitList(c.req.query('ids[albums]') ?? '');
    if (songs.length + albums.length === 0) {
      return fail(c, badParameter('ids', 'Give catalog ids as ids[songs] or ids[albums].'));
    }
    for (const [type, ids] of [
      ['songs', songs],
      ['albums', albums],
    ] as const) {
      if (ids.length > MAX_LIBRARY_IDS)
        return fail(c, badParameter(`ids[${type}]`, `At most ${MAX_LIBRARY_IDS} ids per type.`));
      const unknown = ids.find((id) =>
        type === 'songs' ? !library.resolve(id, 'songs') : !c.get('library').hasCatalogAlbum(id),
      );
      if (unknown !== undefined)
        return fail(
          c,
          badParameter(`ids[${type}]`, `No ${type === 'songs' ? 'song' : 'album'} with id ${unknown}.`),
        );
    }
    // The `dropped-adds` fault leaves out added songs too (the answer still says done).
    library.addToLibrary(faults.dropAdds ? faults.dropAdds(songs) : songs, albums);
    return c.body(null, 202);
  });
}

/** Ratings (favourites): read, set, remove. */
function addRatingRoutes(app: Hono<AppleEnv>): void {
  app.get('/v1/me/ratings/songs', (c) => {
    const ids = splitList(c.req.query('ids') ?? '');
    if (ids.length === 0) return fail(c, badParameter('ids', 'ids is required.'));
    if (ids.length > MAX_LIBRARY_IDS)
      return fail(c, badParameter('ids', `At most ${MAX_LIBRARY_IDS} ids per request.`));
    const library = c.get('library');
    return c.json({
      data: ids.flatMap((id) => {
        const value = library.rating(id);
        return value === undefined ? [] : [renderRating(id, value)];
      }),
    });
  });

  app.get('/v1/me/ratings/songs/:id', (c) => {
    const value = c.get('library').rating(c.req.param('id'));
    if (value === undefined) return fail(c, notFound(`No rating for song ${c.req.param('id')}`));
    return c.json({ data: [renderRating(c.req.param('id'), value)] });
  });

  app.put('/v1/me/ratings/songs/:id', async (c) => {
    const id = c.req.param('id');
    const library = c.get('library');
    if (!library.resolve(id, 'songs')) return fail(c, notFound(`No song with id ${id}`));
    const parsed = ratingBody.safeParse(await readJson(c));
    if (!parsed.success) {
      return fail(c, {
        status: 400,
        code: '40007',
        title: 'Invalid Request Body',
        detail: "The body needs {type: 'rating', attributes: {value: 1 or -1}}.",
      });
    }
    library.rate(id, parsed.data.attributes.value);
    return c.json({ data: [renderRating(id, parsed.data.attributes.value)] });
  });

  app.delete('/v1/me/ratings/songs/:id', (c) => {
    c.get('library').rate(c.req.param('id'), undefined);
    return c.body(null, 204);
  });
}

/** Apple's only playlist writes: create one, append songs. */
function addPlaylistWriteRoutes(app: Hono<AppleEnv>, options: LibraryRouteOptions): void {
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
    const songs = resolveRefs(c.get('library'), refs);
    if ('error' in songs) return fail(c, songs.error);
    const created = c.get('library').createPlaylist({
      name: parsed.data.attributes.name,
      description: parsed.data.attributes.description ?? '',
      isPublic: parsed.data.attributes.isPublic ?? false,
      // The songs a creation carries are a write like an append's: the same silent losses.
      songs: options.dropAdds ? options.dropAdds(songs.songs) : songs.songs,
    });
    if (!created) throw new Error('A created playlist could not be read back');
    if (created.globalId) options.onShared?.(c.get('library'), created.globalId, created.id);
    return c.json({ data: [renderLibraryPlaylist(created)] }, 201);
  });

  app.post('/v1/me/library/playlists/:id/tracks', async (c) => {
    const playlist = c.get('library').writablePlaylist(c.req.param('id'));
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
    const songs = resolveRefs(c.get('library'), parsed.data.data);
    if ('error' in songs) return fail(c, songs.error);
    c.get('library').append(playlist.id, options.dropAdds ? options.dropAdds(songs.songs) : songs.songs);
    return c.body(null, 204);
  });
}

function resolveRefs(
  library: AppleLibrary,
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

/**
 * `meta.total` of a playlist's tracks. Apple does not always send it (clients must not read a one-song
 * page's length as the count): the emulator leaves it out for playlists the person only follows, so the
 * clients' counting without it is exercised on every listing.
 */
function playlistTotal(playlist: LibraryPlaylist): { meta?: { total: number } } {
  return playlist.canEdit ? { meta: { total: playlist.songs.length } } : {};
}

function renderRating(songId: string, value: number) {
  return {
    id: songId,
    type: 'ratings' as const,
    href: `/v1/me/ratings/songs/${songId}`,
    attributes: { value },
  };
}
