import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { albumIdFor } from '../../../sandbox/apple/apple-style';
import { generateCatalog } from '../../../sandbox/catalog/generator';
import type { Catalog } from '../../../sandbox/catalog/types';
import { albumCollectionId, LIKED_SONGS_ID } from '../../../shared/library-ids';
import { type AppleSandboxHarness, startAppleSandbox } from '../../testing/apple-sandbox';

/**
 * The library (favourite songs and saved albums) through the real Apple client, over HTTP, against the
 * emulator with a small generated catalog whose demo listener has the demo library's favourites and
 * albums, and Apple's write lag switched on.
 */

const WRITE_LAG_MS = 60_000;
/** The emulator's clock runs with the real one, and jumps ahead when a test has waited out the lag. */
let skipped = 0;
let catalog: Catalog;
let sandbox: AppleSandboxHarness;
beforeAll(async () => {
  catalog = generateCatalog({ seed: 'library', trackCount: 3000 });
  sandbox = await startAppleSandbox({ catalog, writeLagMs: WRITE_LAG_MS, now: () => Date.now() + skipped });
});
afterAll(() => sandbox?.close());

const saved = () => {
  const library = catalog.demoLibraries.saved?.apple;
  if (!library) throw new Error('the generated catalog has no saved library');
  return library;
};
const appleIdOf = (trackKey: string) => catalog.tracks.find((t) => t.key === trackKey)?.apple?.id;
const inUs = (trackKey: string) =>
  catalog.tracks.find((t) => t.key === trackKey)?.apple?.storefronts.some((s) => s.toLowerCase() === 'us') ??
  false;

async function call(path: string, init: RequestInit & { mut?: boolean } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${await sandbox.developerToken()}` };
  if (init.mut !== false) headers['music-user-token'] = sandbox.musicUserToken;
  if (init.body) headers['content-type'] = 'application/json';
  const response = await fetch(`${sandbox.apiBaseUrl}${path}`, { ...init, headers });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

describe('AppleMusicProvider: the library', () => {
  it('lists Favourite Songs and the saved albums with their catalog UPCs', async () => {
    const library = await sandbox.provider().listLibrary();
    expect(library.liked).toMatchObject({
      id: LIKED_SONGS_ID,
      name: 'Favourite Songs',
      trackCount: saved().liked.length,
    });
    expect(library.albums.map((a) => a.album.id)).toEqual(
      saved().albums.map((a) => albumIdFor(a.releaseKey)),
    );
    for (const { summary, album } of library.albums) {
      expect(summary).toMatchObject({ id: albumCollectionId(album.id), trackCount: album.trackCount });
      expect(summary.name).toMatch(/album/i);
      const release = catalog.releases.get(
        saved().albums.find((a) => albumIdFor(a.releaseKey) === album.id)?.releaseKey ?? '',
      );
      expect(album.upc).toBe(release?.appleUpc ?? release?.upc);
    }
  });

  it('reads the favourites past one page of library songs: only the songs rated 1, newest first', async () => {
    const provider = sandbox.provider();
    const liked = await provider.getPlaylist(LIKED_SONGS_ID);
    expect(liked.playlist.name).toBe('Favourite Songs');
    expect(liked.entries).toHaveLength(saved().liked.length);
    const expected = saved()
      .liked.filter((e) => inUs(e.trackKey))
      .map((e) => appleIdOf(e.trackKey));
    expect(liked.entries.flatMap((e) => (e.kind === 'track' ? [e.track.id] : []))).toEqual(expected);
    // The library holds the albums' songs too (more than one page), but those are not favourites.
    const songs = (await call('/me/library/songs?limit=100')) as {
      body: { meta: { total: number }; next?: string };
    };
    expect(songs.body.meta.total).toBeGreaterThan(100);
    expect(songs.body.next).toBe('/v1/me/library/songs?offset=100');
  });

  it('reads a saved album in album order, and the catalog album the same way', async () => {
    const provider = sandbox.provider();
    const { albums } = await provider.listLibrary();
    const first = albums[0];
    if (!first) throw new Error('no saved album');
    const release = saved().albums[0]?.releaseKey;
    const expected = catalog.tracks
      .filter((t) => t.releaseKey === release && t.apple?.storefronts.some((s) => s.toLowerCase() === 'us'))
      .sort((a, b) => a.discNumber - b.discNumber || a.trackNumber - b.trackNumber)
      .map((t) => t.isrc);
    const contents = await provider.getPlaylist(first.summary.id);
    expect(contents.playlist).toMatchObject({ id: first.summary.id, name: first.summary.name });
    expect(contents.entries.map((e) => (e.kind === 'track' ? e.track.isrc : e.reason))).toEqual(expected);
    expect((await provider.getAlbumTracks(first.album.id)).map((t) => t.isrc)).toEqual(expected);
    // The album's share URL answers under the emulator's /web, where sandbox mode opens Apple Music.
    expect(first.album.url?.startsWith('https://music.apple.com/us/album/')).toBe(true);
    const page = (first.album.url ?? '').replace(
      'https://music.apple.com',
      `${sandbox.origin}/sandbox/apple/web`,
    );
    expect((await fetch(page)).status).toBe(200);
  });

  it('saves songs as favourites and albums to the library; reads show them after the write lag', async () => {
    const provider = sandbox.provider();
    const before = await provider.listLibrary();
    const liked = new Set(saved().liked.map((e) => appleIdOf(e.trackKey)));
    const fresh = catalog.tracks
      .filter((t) => t.apple?.storefronts.some((s) => s.toLowerCase() === 'us') && !liked.has(t.apple.id))
      .slice(0, 120)
      .map((t) => t.apple?.id ?? '');
    const progress: number[] = [];
    await provider.saveTracks(fresh, ({ added }) => {
      progress.push(added);
    });
    expect(progress).toEqual([100, 120]);
    const savedAlbums = new Set(before.albums.map((a) => a.album.id));
    const extra = [...catalog.releases.values()]
      .filter((r) => r.type === 'album' && !savedAlbums.has(albumIdFor(r.key)))
      .map((r) => albumIdFor(r.key))
      .slice(0, 1);
    await provider.saveAlbums(extra);

    // Apple's library writes show after a delay: not yet.
    expect((await provider.listLibrary()).liked.trackCount).toBe(before.liked.trackCount);
    skipped += WRITE_LAG_MS + 1000;
    const after = await provider.listLibrary();
    expect(after.albums[0]?.album.id).toBe(extra[0]);
    const favourites = await provider.getPlaylist(LIKED_SONGS_ID);
    expect(favourites.entries).toHaveLength(before.liked.trackCount + 120);
    expect(
      new Set(favourites.entries.slice(0, 120).map((e) => (e.kind === 'track' ? e.track.id : ''))),
    ).toEqual(new Set(fresh));
    // The saved album's songs joined the library, unrated: not favourites.
    const albumSong = catalog.tracks.find((t) => albumIdFor(t.releaseKey) === extra[0] && t.apple)?.apple?.id;
    expect(
      favourites.entries.some(
        (e) => e.kind === 'track' && e.track.id === albumSong && !fresh.includes(albumSong ?? ''),
      ),
    ).toBe(false);
  });

  it('finds albums by UPC, and by title and artist when Apple lists another UPC', async () => {
    const provider = sandbox.provider();
    const release = [...catalog.releases.values()].find(
      (r) => r.appleUpc !== undefined && catalog.tracks.some((t) => t.releaseKey === r.key && t.apple),
    );
    const appleUpc = release?.appleUpc;
    if (!release || !appleUpc) throw new Error('the catalog has no reissued album');
    expect((await provider.findAlbums({ upc: appleUpc })).map((a) => a.id)).toEqual([
      albumIdFor(release.key),
    ]);
    expect(await provider.findAlbums({ upc: release.upc })).toEqual([]);
    const byTitle = await provider.findAlbums({
      upc: release.upc,
      title: release.name,
      artist: release.artists[0] ?? '',
    });
    expect(byTitle.map((a) => a.id)).toContain(albumIdFor(release.key));
    expect(byTitle.find((a) => a.id === albumIdFor(release.key))?.upc).toBe(appleUpc);
  });
});

describe('the Apple emulator refuses what Apple refuses', () => {
  it('limits, bad ids and bodies, a missing Music-User-Token', async () => {
    expect(await call('/me/library/songs?limit=101')).toMatchObject({
      status: 400,
      body: { errors: [{ status: '400', code: '40005', source: { parameter: 'limit' } }] },
    });
    expect((await call('/me/library/albums?limit=0')).status).toBe(400);
    expect((await call('/me/library/songs', { mut: false })).status).toBe(403);
    expect((await call('/me/library', { method: 'POST' })).status).toBe(400);
    expect((await call('/me/library?ids[songs]=999', { method: 'POST' })).status).toBe(400);
    const ids = Array.from({ length: 101 }, (_, i) => String(i)).join(',');
    expect((await call(`/me/ratings/songs?ids=${ids}`)).status).toBe(400);
    const song =
      catalog.tracks.find((t) => t.apple?.storefronts.some((s) => s.toLowerCase() === 'us'))?.apple?.id ?? '';
    expect(
      (await call(`/me/ratings/songs/${song}`, { method: 'PUT', body: JSON.stringify({ value: 1 }) })).status,
    ).toBe(400);
    expect(
      (
        await call(`/me/ratings/songs/${song}`, {
          method: 'PUT',
          body: JSON.stringify({ type: 'rating', attributes: { value: 1 } }),
        })
      ).body,
    ).toMatchObject({ data: [{ id: song, type: 'ratings', attributes: { value: 1 } }] });
    expect(await call('/catalog/us/albums/123')).toMatchObject({
      status: 404,
      body: { errors: [{ status: '404', code: '40400' }] },
    });
    expect((await call('/catalog/us/albums')).status).toBe(400);
  });
});
