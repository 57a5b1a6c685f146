import type { Context, Hono } from 'hono';
import {
  afterEdit,
  notChangedPage,
  type PlaylistRow,
  pageNumberOf,
  playlistPage,
  readPageEdit,
  servicePage,
  signInPage,
} from '../playlist-page';
import { escapeHtml, webSessionCookie } from '../web-session';
import { apiRoot } from './api-kit';
import { insertTracks, moveItems, removeItemAt } from './playlist-edits';
import type { StoredEntry, StoredPlaylist, WebSession } from './state';
import { albumId } from './wire-objects';
import type { SpotifyWorld } from './world';

/** The web player's session cookie, set by the consent page for everything under the emulator's prefix. */
export const SPOTIFY_SESSION_COOKIE = 'sandbox_spotify_session';
/** Segments right below the Spotify emulator's prefix. */
export const SPOTIFY_PREFIX_END = /\/(accounts|api)(\/|$)/;
const SEARCH_RESULTS = 10;

/**
 * "Open in Spotify" in the sandbox: the emulator's own pages for a track, an album or a playlist. A
 * private playlist shows its items only to its owner's sandbox session (set at consent); the owner can
 * also add, remove and reorder, applied to the emulator's state as the Web API applies its writes.
 */
export function addWebPages(app: Hono, world: SpotifyWorld): void {
  const viewer = (c: Context): WebSession | undefined =>
    world.store.webSession(webSessionCookie(c, SPOTIFY_SESSION_COOKIE));

  app.get('/open/track/:id', (c) => {
    const track = world.track(c.req.param('id'));
    if (!track)
      return c.html(servicePage('Spotify', 'Not found', '<p>Spotify has no track with this id.</p>'), 404);
    const release = world.release(track);
    const cover = `${apiRoot(c)}/images/${albumId(release?.key ?? `single-${track.key}`)}?size=300`;
    return c.html(
      servicePage(
        'Spotify',
        track.title,
        `<img src="${cover}" alt="" width="300" height="300"><p>${escapeHtml(track.artists.join(', '))}</p><p>${escapeHtml(release?.name ?? '')}</p>`,
      ),
    );
  });

  app.get('/open/album/:id', (c) => {
    const album = world.album(c.req.param('id'));
    if (!album)
      return c.html(servicePage('Spotify', 'Not found', '<p>Spotify has no album with this id.</p>'), 404);
    const rows = album.tracks.map((track) => `<li>${escapeHtml(track.title)}</li>`).join('');
    return c.html(
      servicePage(
        'Spotify',
        album.release.name,
        `<img src="${apiRoot(c)}/images/${album.id}?size=300" alt="" width="300" height="300"><p>${escapeHtml(album.release.artists.join(', '))}</p><ol>${rows}</ol>`,
      ),
    );
  });

  app.get('/open/playlist/:id', (c) => {
    const playlist = world.store.playlist(c.req.param('id'));
    if (!playlist)
      return c.html(servicePage('Spotify', 'Not found', '<p>Spotify has no playlist with this id.</p>'), 404);
    const session = viewer(c);
    const signedInAs = session ? world.user(session.userId).displayName : undefined;
    const owner = session?.userId === playlist.ownerId;
    if (!playlist.public && !owner) return c.html(signInPage('Spotify', signedInAs), 401);
    const rows = playlistRows(world, playlist);
    const query = owner ? (c.req.query('q') ?? '').trim().slice(0, 200) : '';
    const country = session ? world.user(session.userId).country : undefined;
    const results = query
      ? world
          .search(query, country)
          .slice(0, SEARCH_RESULTS)
          .map((track) => ({
            id: track.spotify?.id ?? '',
            title: track.title,
            detail: track.artists.join(', '),
          }))
      : [];
    const model = {
      service: 'Spotify' as const,
      name: playlist.name,
      byline: `By ${world.user(playlist.ownerId).displayName} · ${playlist.entries.length} items`,
      signedInAs,
      rows,
      ...(owner && session
        ? {
            edit: {
              action: pagePath(c, playlist.id),
              formToken: session.formToken,
              query,
              results,
              focus: c.req.query('focus'),
              done: c.req.query('done'),
            },
          }
        : {}),
    };
    return c.html(playlistPage(model, pageNumberOf(c, rows.length)));
  });

  addLikedSongsPage(app, world, viewer);

  app.post('/open/playlist/:id/:edit{add|remove|move-up|move-down}', async (c) => {
    const playlist = world.store.playlist(c.req.param('id'));
    const session = viewer(c);
    if (!playlist || session?.userId !== playlist.ownerId) {
      return c.html(signInPage('Spotify', session ? world.user(session.userId).displayName : undefined), 401);
    }
    const rows = playlistRows(world, playlist);
    const edit = await readPageEdit(c, c.req.param('edit'), session.formToken, rows);
    const back = pagePath(c, playlist.id);
    if ('refused' in edit) return c.html(notChangedPage('Spotify', edit.refused, back), edit.status);
    if (edit.kind === 'add') {
      if (!world.track(edit.trackId))
        return c.html(notChangedPage('Spotify', 'Spotify has no such track.', back), 400);
      insertTracks(world, playlist.id, session.userId, [edit.trackId]);
    } else if (edit.kind === 'remove') removeItemAt(world, playlist.id, edit.position);
    else {
      const insertBefore = edit.kind === 'move-up' ? edit.position - 1 : edit.position + 2;
      moveItems(world, playlist.id, { rangeStart: edit.position, insertBefore, rangeLength: 1 });
    }
    const count = world.store.playlist(playlist.id)?.entries.length ?? 0;
    return c.redirect(afterEdit(new URL(back, c.req.url).toString(), edit, count), 303);
  });

  // open.spotify.com/search/{terms}: "Open in Spotify" when no exact item is known (issue 23).
  app.get('/open/search/:terms', (c) => {
    const terms = (c.req.param('terms') ?? '').trim().slice(0, 200);
    const session = viewer(c);
    const country = session ? world.user(session.userId).country : undefined;
    const rows = world
      .search(terms, country)
      .slice(0, SEARCH_RESULTS)
      .filter((track) => track.spotify)
      .map(
        (track) =>
          `<li><a href="${apiRoot(c)}/open/track/${escapeHtml(track.spotify?.id ?? '')}">${escapeHtml(track.title)}</a> – ${escapeHtml(track.artists.join(', '))}</li>`,
      )
      .join('');
    return c.html(
      servicePage(
        'Spotify',
        `Search: ${terms}`,
        rows ? `<ol>${rows}</ol>` : '<p>Nothing found for this search.</p>',
      ),
    );
  });

  app.get('/open/:type/:id', (c) =>
    c.html(
      servicePage(
        'Spotify',
        'Spotify sandbox',
        `<p>This ${escapeHtml(c.req.param('type'))} has no sandbox page.</p>`,
      ),
      404,
    ),
  );

  app.get('/images/:id', (c) => {
    const cover = /^cover-([A-Za-z0-9]+)-v\d+$/.exec(c.req.param('id'))?.[1];
    const uploaded = cover ? world.store.playlist(cover)?.coverJpeg : undefined;
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
}

/** open.spotify.com/collection/tracks: the signed-in person's Liked Songs, newest first (owner only). */
function addLikedSongsPage(app: Hono, world: SpotifyWorld, viewer: (c: Context) => WebSession | undefined) {
  app.get('/open/collection/tracks', (c) => {
    const session = viewer(c);
    if (!session) return c.html(signInPage('Spotify', undefined), 401);
    const user = world.user(session.userId);
    const rows = world.store.saved(session.userId).tracks.map((saved) => {
      const track = world.track(saved.id);
      return {
        key: saved.id,
        title: track?.title ?? 'Unavailable track',
        detail: track?.artists.join(', ') ?? '',
      };
    });
    const model = {
      service: 'Spotify' as const,
      name: 'Liked Songs',
      byline: `${user.displayName} · ${rows.length} songs`,
      signedInAs: user.displayName,
      rows,
    };
    return c.html(playlistPage(model, pageNumberOf(c, rows.length)));
  });
}

/** The page's own path (`<prefix>/api/open/playlist/<id>`), for its forms and redirects. */
function pagePath(c: Context, id: string): string {
  return `${new URL(apiRoot(c)).pathname.replace(/\/$/, '')}/open/playlist/${id}`;
}

function playlistRows(world: SpotifyWorld, playlist: StoredPlaylist): PlaylistRow[] {
  return playlist.entries.map((entry) => ({ key: entryKey(entry), ...describeEntry(world, entry) }));
}

const entryKey = (entry: StoredEntry) =>
  entry.kind === 'track' ? entry.trackId : `${entry.kind}:${entry.addedAt}`;

function describeEntry(world: SpotifyWorld, entry: StoredEntry): { title: string; detail: string } {
  if (entry.kind === 'track') {
    const track = world.track(entry.trackId);
    return track
      ? { title: track.title, detail: track.artists.join(', ') }
      : { title: 'Unavailable track', detail: '' };
  }
  if (entry.kind === 'local') return { title: entry.title, detail: `${entry.artist} (local file)` };
  if (entry.kind === 'episode') return { title: entry.title, detail: `${entry.show} (episode)` };
  return { title: 'Unavailable track', detail: '' };
}
