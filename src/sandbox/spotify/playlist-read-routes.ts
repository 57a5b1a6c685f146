import { type ApiApp, type ApiKit, apiError, intParam, paging, SCOPES } from './api-kit';
import { privateUserObject, simplifiedPlaylistObject } from './wire-objects';

/** The current user and reading playlists: /me, /me/playlists, one playlist and its items. */
export function addPlaylistReadRoutes(app: ApiApp, kit: ApiKit): void {
  const { world } = kit;

  app.get('/v1/me', (c) => c.json(privateUserObject(kit.wire(c), c.get('user'))));

  app.get('/v1/me/playlists', (c) => {
    const refused = kit.missingScope(c, SCOPES.readPrivate);
    if (refused) return refused;
    const limit = intParam(c.req.query('limit'), 20, 1, 50);
    if (limit === null) return apiError(c, 400, 'Invalid limit');
    const offset = intParam(c.req.query('offset'), 0, 0, 100_000);
    if (offset === null) return apiError(c, 400, 'Invalid offset');
    const ids = world.store.libraryOf(c.get('user').id);
    const context = kit.wire(c);
    const items = ids.slice(offset, offset + limit).flatMap((id) => {
      const playlist = kit.findPlaylist(id);
      return playlist ? [simplifiedPlaylistObject(context, playlist, world.user(playlist.ownerId))] : [];
    });
    return c.json(paging(c, items, offset, limit, ids.length));
  });

  app.get('/v1/playlists/:id', (c) => {
    const playlist = kit.findPlaylist(c.req.param('id'));
    if (!playlist) return apiError(c, 404, 'Resource not found');
    const market = kit.marketParam(c);
    if (market === null) return apiError(c, 400, 'Invalid market code');
    const user = c.get('user');
    const context = kit.wire(c, market);
    const base = {
      ...simplifiedPlaylistObject(context, playlist, world.user(playlist.ownerId)),
      followers: { href: null, total: playlist.ownerId === user.id ? 0 : 1 },
    };
    if (!kit.canReadItems(playlist, user)) {
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
        items: playlist.entries.slice(0, limit).map((entry) => kit.renderEntry(context, entry, withEpisodes)),
        limit,
        next: limit < total ? pageAt(limit) : null,
        offset: 0,
        previous: null,
        total,
      },
    });
  });

  app.get('/v1/playlists/:id/items', (c) => {
    const playlist = kit.findPlaylist(c.req.param('id'));
    if (!playlist) return apiError(c, 404, 'Resource not found');
    if (!kit.canReadItems(playlist, c.get('user'))) return apiError(c, 403, 'Forbidden');
    if (!playlist.public) {
      const refused = kit.missingScope(c, SCOPES.readPrivate);
      if (refused) return refused;
    }
    return kit.itemsPage(c, playlist, 50);
  });

  app.get('/v1/playlists/:id/tracks', (c) => {
    // Renamed to /items in 2026; development-mode apps get 403 on the old name.
    if (kit.development) return apiError(c, 403, 'Forbidden');
    const playlist = kit.findPlaylist(c.req.param('id'));
    if (!playlist) return apiError(c, 404, 'Resource not found');
    return kit.itemsPage(c, playlist, 100);
  });
}
