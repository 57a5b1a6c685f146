import type { Context, Hono } from 'hono';
import {
  afterEdit,
  notChangedPage,
  type PlaylistPageModel,
  pageNumberOf,
  playlistPage,
  readPageEdit,
  servicePage,
  signInPage,
} from '../playlist-page';
import { escapeHtml } from '../web-session';
import { hash32 } from './apple-style';
import type { AppleCatalogIndex } from './catalog-index';
import type { AppleLibrary, LibraryPlaylist } from './library';
import type { AppleEnv } from './routes-common';
import { APPLE_ARTWORK_HOST } from './wire';

/**
 * Offline stand-ins for Apple's own hosts: cover art (is1-ssl.mzstatic.com) and the "Open in Apple Music"
 * pages (music.apple.com paths under /web). The wire builders keep Apple's real artwork host, as Apple
 * sends it; every JSON answer of the emulator then points it at the emulator itself, so no cover leaves the
 * machine.
 */

/** `<origin><mount prefix>` in front of `/v1`, `/artwork` or `/web`. */
export function emulatorRoot(c: Context): string {
  const url = new URL(c.req.url);
  const cut = url.pathname.search(/\/(v1|artwork|web)(\/|$)/);
  return `${url.origin}${cut >= 0 ? url.pathname.slice(0, cut) : ''}`;
}

/** Rewrites Apple's artwork host in a JSON answer to the emulator's own /artwork. */
export async function pointHostsAtEmulator(c: Context): Promise<void> {
  if (!(c.res.headers.get('content-type') ?? '').includes('application/json')) return;
  const text = await c.res.text();
  const root = emulatorRoot(c);
  // Catalog `url`s keep Apple's host: people copy them as share URLs, which the app reads by that host.
  // The same paths answer under the emulator's /web, where the app sends "Open in Apple Music" in sandbox mode.
  const rewritten = text.replaceAll(APPLE_ARTWORK_HOST, `${root}/artwork`);
  const headers = new Headers(c.res.headers);
  headers.delete('content-length');
  c.res = new Response(rewritten, { status: c.res.status, headers });
}

/** A generated cover: a square in a colour taken from the seed, the size Apple's template asked for. */
function cover(seed: string, size: number): string {
  const hue = hash32(seed) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 64 64"><rect width="64" height="64" fill="hsl(${hue} 50% 55%)"/><rect x="14" y="14" width="36" height="36" rx="6" fill="hsl(${(hue + 40) % 360} 45% 30%)"/><circle cx="32" cy="32" r="5" fill="#fafafa"/></svg>`;
}

const notFound = (c: Context, text: string) =>
  c.html(servicePage('Apple Music', 'Not found', `<p>${text}</p>`), 404);

/** Whose library the browser is signed in to (the sign-in page's cookie), with that library. */
export interface SignedInLibrary {
  library: AppleLibrary;
  name: string;
  storefront: string;
  formToken: string;
}

export function addSandboxPages(
  app: Hono<AppleEnv>,
  input: {
    index: AppleCatalogIndex;
    /** A shared playlist by its catalog (`pl.u-`) id, whoever made it. */
    findSharedPlaylist: (globalId: string) => LibraryPlaylist | undefined;
    /** The library of the browser's sandbox session, if it is signed in. */
    signedIn: (c: Context) => SignedInLibrary | undefined;
  },
): void {
  app.get('/artwork/:seed/:size', (c) => {
    const size = Number(/^(\d+)x\d+/.exec(c.req.param('size'))?.[1] ?? 600);
    const clamped = Number.isFinite(size) ? Math.min(3000, Math.max(16, size)) : 600;
    return c.body(cover(c.req.param('seed'), clamped), 200, {
      'content-type': 'image/svg+xml',
      'cache-control': 'public, max-age=86400',
    });
  });

  const songPage = (c: Context, songId: string | undefined) => {
    const song = songId ? input.index.song(songId, c.req.param('sf') ?? 'us') : undefined;
    if (!song) return notFound(c, 'No song with this id in this storefront.');
    const root = emulatorRoot(c);
    return c.html(
      servicePage(
        'Apple Music',
        song.name,
        `<img src="${root}/artwork/${escapeHtml(song.albumId)}/300x300bb" alt="" width="300" height="300"><p>${escapeHtml(song.artistName)}</p><p>${escapeHtml(song.albumName)}</p>`,
      ),
    );
  };
  const albumPage = (c: Context) => {
    const album = input.index.album(c.req.param('albumId') ?? '', c.req.param('sf') ?? 'us');
    if (!album) return notFound(c, 'No album with this id in this storefront.');
    const rows = album.songs.map((song) => `<li>${escapeHtml(song.name)}</li>`).join('');
    return c.html(
      servicePage(
        'Apple Music',
        album.name,
        `<img src="${emulatorRoot(c)}/artwork/${escapeHtml(album.id)}/300x300bb" alt="" width="300" height="300"><p>${escapeHtml(album.artistName)}</p><ol>${rows}</ol>`,
      ),
    );
  };
  // music.apple.com/{sf}/album/{slug}/{albumId}(?i={songId}) and music.apple.com/{sf}/song/{songId}
  app.get('/web/:sf/album/:slug/:albumId', (c) =>
    c.req.query('i') === undefined ? albumPage(c) : songPage(c, c.req.query('i')),
  );
  app.get('/web/:sf/song/:id', (c) => songPage(c, c.req.param('id')));
  // music.apple.com/{sf}/search?term=…: "Open in Apple Music" when no exact item is known (issue 23).
  app.get('/web/:sf/search', (c) => {
    const storefront = c.req.param('sf') ?? 'us';
    const term = (c.req.query('term') ?? '').trim().slice(0, 200);
    const root = emulatorRoot(c);
    const rows = (term ? input.index.search(term, storefront) : [])
      .slice(0, 10)
      .map(
        (song) =>
          `<li><a href="${root}/web/${escapeHtml(storefront)}/song/${escapeHtml(song.id)}">${escapeHtml(song.name)}</a> – ${escapeHtml(song.artistName)}</li>`,
      )
      .join('');
    return c.html(
      servicePage(
        'Apple Music',
        `Search: ${term}`,
        rows ? `<ol>${rows}</ol>` : '<p>Nothing found for this search.</p>',
      ),
    );
  });

  // A shared playlist's public page (music.apple.com/{sf}/playlist/…/pl.u-…): anyone may see it.
  const sharedPage = (c: Context, id: string) => {
    const playlist = id.startsWith('pl.u-') ? input.findSharedPlaylist(id) : undefined;
    if (!playlist) return notFound(c, 'No playlist with this id.');
    return c.html(
      playlistPage(playlistModel(playlist, input.signedIn(c)?.name), pageNumberOf(c, playlist.songs.length)),
    );
  };
  // The library's pages first: `/web/library/playlist/…` would match `/web/:sf/playlist/:id` too.
  addLibraryPlaylistPages(app, input);
  app.get('/web/:sf/playlist/:slug/:id', (c) => sharedPage(c, c.req.param('id')));
  app.get('/web/:sf/playlist/:id', (c) => sharedPage(c, c.req.param('id')));
}

/**
 * A library playlist (music.apple.com/library/playlist/p.…): only its owner's sandbox session sees it, and
 * can add, remove and reorder songs as the Music app can (the API can only append).
 */
function addLibraryPlaylistPages(
  app: Hono<AppleEnv>,
  input: { index: AppleCatalogIndex; signedIn: (c: Context) => SignedInLibrary | undefined },
): void {
  // music.apple.com/library/songs: the person's songs; favourites (what "Favourite Songs" moves) first.
  app.get('/web/library/songs', (c) => {
    const viewer = input.signedIn(c);
    if (!viewer) return c.html(signInPage('Apple Music', undefined), 401);
    const favourites = viewer.library.favouriteSongs();
    const model: PlaylistPageModel = {
      service: 'Apple Music',
      name: 'Favourite Songs',
      byline: `${viewer.name} · ${favourites.length} songs`,
      signedInAs: viewer.name,
      rows: favourites.map((song) => ({ key: song.id, title: song.name, detail: song.artistName })),
    };
    return c.html(playlistPage(model, pageNumberOf(c, favourites.length)));
  });

  app.get('/web/library/playlist/:id', (c) => {
    const viewer = input.signedIn(c);
    const playlist = viewer?.library.appPlaylist(c.req.param('id'));
    if (!viewer || !playlist) return c.html(signInPage('Apple Music', viewer?.name), 401);
    const model = playlistModel(playlist, viewer.name);
    if (playlist.canEdit) {
      const query = (c.req.query('q') ?? '').trim().slice(0, 200);
      const results = query
        ? input.index
            .search(query, viewer.storefront)
            .slice(0, SEARCH_RESULTS)
            .map((song) => ({ id: song.id, title: song.name, detail: song.artistName }))
        : [];
      model.edit = {
        action: libraryPagePath(c, playlist.id),
        formToken: viewer.formToken,
        query,
        results,
        focus: c.req.query('focus'),
        done: c.req.query('done'),
      };
    }
    return c.html(playlistPage(model, pageNumberOf(c, playlist.songs.length)));
  });

  app.post('/web/library/playlist/:id/:edit{add|remove|move-up|move-down}', async (c) => {
    const viewer = input.signedIn(c);
    const playlist = viewer?.library.appPlaylist(c.req.param('id'));
    if (!viewer || !playlist?.canEdit) return c.html(signInPage('Apple Music', viewer?.name), 401);
    const rows = playlistModel(playlist, viewer.name).rows;
    const edit = await readPageEdit(c, c.req.param('edit'), viewer.formToken, rows);
    const back = libraryPagePath(c, playlist.id);
    if ('refused' in edit) return c.html(notChangedPage('Apple Music', edit.refused, back), edit.status);
    if (edit.kind === 'add') {
      if (!viewer.library.resolve(edit.trackId, 'songs'))
        return c.html(notChangedPage('Apple Music', 'Apple Music has no such song.', back), 400);
      viewer.library.append(playlist.id, [{ catalogId: edit.trackId }]);
    } else if (edit.kind === 'remove') viewer.library.editSongs(playlist.id, { remove: edit.position });
    else {
      const to = edit.kind === 'move-up' ? edit.position - 1 : edit.position + 1;
      viewer.library.editSongs(playlist.id, { from: edit.position, to });
    }
    const count = viewer.library.appPlaylist(playlist.id)?.songs.length ?? 0;
    return c.redirect(afterEdit(new URL(back, c.req.url).toString(), edit, count), 303);
  });
}

const SEARCH_RESULTS = 10;

const libraryPagePath = (c: Context, id: string) =>
  `${new URL(emulatorRoot(c)).pathname.replace(/\/$/, '')}/web/library/playlist/${id}`;

function playlistModel(playlist: LibraryPlaylist, signedInAs: string | undefined): PlaylistPageModel {
  return {
    service: 'Apple Music',
    name: playlist.name,
    byline: `${playlist.curatorName} · ${playlist.songs.length} songs`,
    signedInAs,
    rows: playlist.songs.map((song) => ({ key: song.id, title: song.name, detail: song.artistName })),
  };
}
