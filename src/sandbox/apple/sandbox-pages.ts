import type { Context, Hono } from 'hono';
import { hash32 } from './apple-style';
import type { AppleCatalogIndex } from './catalog-index';
import type { LibraryPlaylist } from './library';
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
  // Catalog `url`s keep Apple's host: people copy them as share links, which the app reads by that host.
  // The same paths answer under the emulator's /web, where the app sends "Open in Apple Music" in sandbox mode.
  const rewritten = text.replaceAll(APPLE_ARTWORK_HOST, `${root}/artwork`);
  const headers = new Headers(c.res.headers);
  headers.delete('content-length');
  c.res = new Response(rewritten, { status: c.res.status, headers });
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} – Apple Music sandbox</title><style>body{font-family:-apple-system,system-ui,sans-serif;background:#f5f5f7;color:#1d1d1f;margin:0}main{max-width:40rem;margin:2rem auto;padding:0 1rem}li{padding:.2rem 0}</style></head><body><main><p>Apple Music sandbox</p><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

/** A generated cover: a square in a colour taken from the seed, the size Apple's template asked for. */
function cover(seed: string, size: number): string {
  const hue = hash32(seed) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 64 64"><rect width="64" height="64" fill="hsl(${hue} 50% 55%)"/><rect x="14" y="14" width="36" height="36" rx="6" fill="hsl(${(hue + 40) % 360} 45% 30%)"/><circle cx="32" cy="32" r="5" fill="#fafafa"/></svg>`;
}

export function addSandboxPages(
  app: Hono<AppleEnv>,
  input: {
    index: AppleCatalogIndex;
    /** A shared playlist by its `pl.u-` id, or a library playlist by its `p.` id, whoever owns it. */
    findPlaylist: (id: string) => LibraryPlaylist | undefined;
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
    if (!song) return c.html(page('Not found', '<p>No song with this id in this storefront.</p>'), 404);
    const root = emulatorRoot(c);
    return c.html(
      page(
        song.name,
        `<img src="${root}/artwork/${escapeHtml(song.albumId)}/300x300bb" alt="" width="300" height="300"><p>${escapeHtml(song.artistName)}</p><p>${escapeHtml(song.albumName)}</p>`,
      ),
    );
  };
  const albumPage = (c: Context) => {
    const album = input.index.album(c.req.param('albumId') ?? '', c.req.param('sf') ?? 'us');
    if (!album) return c.html(page('Not found', '<p>No album with this id in this storefront.</p>'), 404);
    const rows = album.songs.map((song) => `<li>${escapeHtml(song.name)}</li>`).join('');
    return c.html(
      page(
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

  const playlistPage = (c: Context, id: string) => {
    const playlist = input.findPlaylist(id);
    if (!playlist) return c.html(page('Not found', '<p>No playlist with this id.</p>'), 404);
    const rows = playlist.songs
      .slice(0, 500)
      .map((song) => `<li>${escapeHtml(song.name)} – ${escapeHtml(song.artistName)}</li>`)
      .join('');
    return c.html(
      page(
        playlist.name,
        `<p>${escapeHtml(playlist.curatorName)} · ${playlist.songs.length} songs</p><ol>${rows}</ol>`,
      ),
    );
  };
  app.get('/web/:sf/playlist/:slug/:id', (c) => playlistPage(c, c.req.param('id')));
  app.get('/web/:sf/playlist/:id', (c) => playlistPage(c, c.req.param('id')));
  app.get('/web/library/playlist/:id', (c) => playlistPage(c, c.req.param('id')));
}
