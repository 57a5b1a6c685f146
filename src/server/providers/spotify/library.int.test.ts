import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCatalog } from '../../../sandbox/catalog/generator';
import type { Catalog } from '../../../sandbox/catalog/types';
import { createAddDropper } from '../../../sandbox/faults';
import { albumId } from '../../../sandbox/spotify/wire-objects';
import { albumCollectionId, LIKED_SONGS_ID } from '../../../shared/library-ids';
import {
  CLIENT_ID,
  connect,
  connectedProvider,
  REDIRECT_URI,
  type SandboxServer,
  startSandbox,
  submitConsent,
} from '../../testing/spotify-sandbox';
import { ProviderError } from '../http';
import { MISSING_SCOPE_MESSAGE } from './errors';
import { createSpotifyAuthorization, exchangeSpotifyCode } from './oauth';

/**
 * The library (Liked Songs and saved albums) through the real client, over HTTP, against the emulator with
 * a small generated catalog whose demo listener has the demo library's liked songs and albums.
 */

let catalog: Catalog;
let sandbox: SandboxServer;
beforeAll(async () => {
  catalog = generateCatalog({ seed: 'library', trackCount: 3000 });
  sandbox = await startSandbox({ catalog });
});
afterAll(() => sandbox?.close());

const demoSaved = () => {
  const saved = catalog.demoLibraries.saved?.spotify;
  if (!saved) throw new Error('the generated catalog has no saved library');
  return saved;
};
const spotifyIdOf = (trackKey: string) => catalog.tracks.find((t) => t.key === trackKey)?.spotify?.id;

async function call(token: string, path: string, init: RequestInit = {}) {
  const response = await fetch(`${sandbox.apiBaseUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}` },
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

describe('SpotifyProvider: the library', () => {
  it('lists Liked Songs and the saved albums, and reads Liked Songs past one page, newest first', async () => {
    const { provider } = await connectedProvider(sandbox, { market: 'US' });
    const saved = demoSaved();
    const library = await provider.listLibrary();
    expect(library.liked).toMatchObject({
      id: LIKED_SONGS_ID,
      name: 'Liked Songs',
      trackCount: saved.liked.length,
    });
    expect(saved.liked.length).toBeGreaterThan(50);
    expect(library.albums.map((a) => a.album.id)).toEqual(saved.albums.map((a) => albumId(a.releaseKey)));
    for (const { summary, album } of library.albums) {
      expect(summary.id).toBe(albumCollectionId(album.id));
      expect(summary.name).toMatch(/album/i);
      expect(summary.name).toContain(album.name);
      expect(album.upc).toMatch(/^\d+$/);
      expect(album.trackCount).toBeGreaterThan(0);
    }

    const pages: number[] = [];
    const liked = await provider.getPlaylist(LIKED_SONGS_ID, { onPage: (read) => pages.push(read) });
    expect(pages.length).toBeGreaterThan(1);
    expect(liked.playlist).toMatchObject({ id: LIKED_SONGS_ID, name: 'Liked Songs' });
    expect(liked.entries.map((e) => (e.kind === 'track' ? e.track.id : e.reason))).toEqual(
      saved.liked.map((entry) => spotifyIdOf(entry.trackKey)),
    );
    // Geo-locked liked songs come back as tracks Spotify cannot play in the person's market.
    const tracks = liked.entries.flatMap((e) => (e.kind === 'track' ? [e.track] : []));
    expect(tracks.every((track) => track.isrc)).toBe(true);
  });

  it('reads a saved album in album order with ISRCs, and the catalog album the same way', async () => {
    const { provider } = await connectedProvider(sandbox);
    const { albums } = await provider.listLibrary();
    const first = albums[0];
    if (!first) throw new Error('no saved album');
    const contents = await provider.getPlaylist(first.summary.id);
    expect(contents.playlist).toMatchObject({ id: first.summary.id, name: first.summary.name });
    const release = catalog.releases.get(demoSaved().albums[0]?.releaseKey ?? '');
    const expected = catalog.tracks
      .filter((t) => t.releaseKey === release?.key && (t.spotify?.markets.length ?? 0) > 0)
      .sort((a, b) => a.discNumber - b.discNumber || a.trackNumber - b.trackNumber);
    expect(contents.entries.map((e) => (e.kind === 'track' ? e.track.isrc : e.reason))).toEqual(
      expected.map((t) => t.isrc),
    );
    // "Open in Spotify" opens the sandbox's own album page.
    const page = await fetch(first.album.url ?? '');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(release?.name.replace(/&/g, '&#38;').replace(/'/g, '&#39;'));
    const tracks = await provider.getAlbumTracks(first.album.id);
    expect(tracks.map((t) => t.id)).toEqual(expected.map((t) => t.spotify?.id));
  });

  it('reads album tracks with the batch lookup under extended quota', async () => {
    const extended = await startSandbox({ catalog, mode: 'extended' });
    try {
      const { provider } = await connectedProvider(extended, { mode: 'extended' });
      const releaseKey = demoSaved().albums[0]?.releaseKey;
      const expected = catalog.tracks
        .filter((t) => t.releaseKey === releaseKey && (t.spotify?.markets.length ?? 0) > 0)
        .sort((a, b) => a.discNumber - b.discNumber || a.trackNumber - b.trackNumber);
      const before = extended.apiCalls;
      const tracks = await provider.getAlbumTracks(albumId(releaseKey ?? ''));
      expect(tracks.map((t) => t.isrc)).toEqual(expected.map((t) => t.isrc));
      // One call for the album, one for its tracks in full.
      expect(extended.apiCalls - before).toBe(2);
    } finally {
      await extended.close();
    }
  });

  it('saves tracks in batches of 40 and albums, and reads them back', async () => {
    const { provider } = await connectedProvider(sandbox);
    const before = await provider.listLibrary();
    const liked = new Set(demoSaved().liked.map((e) => spotifyIdOf(e.trackKey)));
    const fresh = catalog.tracks
      .filter((t) => (t.spotify?.markets.length ?? 0) > 0 && !liked.has(t.spotify?.id))
      .slice(0, 45)
      .map((t) => `spotify:track:${t.spotify?.id}`);
    const progress: number[] = [];
    let before_ = 0;
    await provider.saveTracks(
      fresh,
      ({ added }) => {
        progress.push(added);
      },
      async () => {
        before_++;
      },
    );
    expect(progress).toEqual([40, 45]);
    expect(before_).toBe(2);
    const after = await provider.getPlaylist(LIKED_SONGS_ID);
    expect(after.entries).toHaveLength(before.liked.trackCount + 45);
    // Each saved track goes on top in the order given: the last one saved is the newest.
    expect(after.entries.slice(0, 45).map((e) => (e.kind === 'track' ? e.track.uri : ''))).toEqual(
      [...fresh].reverse(),
    );

    const savedAlbums = new Set(before.albums.map((a) => a.album.id));
    const extra = [...catalog.releases.values()]
      .filter((r) => r.type === 'album' && !savedAlbums.has(albumId(r.key)))
      .slice(0, 2)
      .map((r) => albumId(r.key));
    await provider.saveAlbums(extra);
    const listed = await provider.listLibrary();
    expect(
      listed.albums
        .slice(0, 2)
        .map((a) => a.album.id)
        .sort(),
    ).toEqual([...extra].sort());
  });

  it('leaves out saved tracks under the dropped-adds fault, while answering done', async () => {
    const faulty = await startSandbox({ catalog, dropAdds: createAddDropper(2) });
    try {
      const { provider } = await connectedProvider(faulty);
      const before = (await provider.listLibrary()).liked.trackCount;
      const liked = new Set(demoSaved().liked.map((e) => spotifyIdOf(e.trackKey)));
      const fresh = catalog.tracks
        .filter((t) => (t.spotify?.markets.length ?? 0) > 0 && !liked.has(t.spotify?.id))
        .slice(0, 3)
        .map((t) => `spotify:track:${t.spotify?.id}`);
      await provider.saveTracks(fresh);
      const after = await provider.getPlaylist(LIKED_SONGS_ID);
      expect(after.entries).toHaveLength(before + 1);
      expect(after.entries[0]?.kind === 'track' && after.entries[0].track.uri).toBe(fresh[2]);
    } finally {
      await faulty.close();
    }
  });

  it('finds albums by UPC, and by title and artist when the UPC is unknown there', async () => {
    const { provider } = await connectedProvider(sandbox);
    const release = [...catalog.releases.values()].find((r) => r.appleUpc !== undefined);
    const appleUpc = release?.appleUpc;
    if (!release || !appleUpc) throw new Error('the catalog has no reissued album');
    const byUpc = await provider.findAlbums({ upc: release.upc });
    expect(byUpc.map((a) => a.id)).toEqual([albumId(release.key)]);
    expect(byUpc[0]).toMatchObject({ name: release.name, upc: release.upc });
    // Apple's UPC is not Spotify's: the title and artist find it instead.
    const fallback = await provider.findAlbums({
      upc: appleUpc,
      title: release.name,
      artist: release.artists[0] ?? '',
    });
    expect(fallback.map((a) => a.id)).toContain(albumId(release.key));
    expect(await provider.findAlbums({ upc: appleUpc })).toEqual([]);
  });
});

describe('the Spotify emulator refuses what Spotify refuses', () => {
  it('limits, more than 40 URIs, malformed and unknown ids', async () => {
    const { accessToken } = await connect(sandbox);
    expect((await call(accessToken, '/me/tracks?limit=51')).status).toBe(400);
    expect((await call(accessToken, '/me/albums?limit=0')).status).toBe(400);
    const ids = catalog.tracks
      .flatMap((t) => (t.spotify ? [`spotify:track:${t.spotify.id}`] : []))
      .slice(0, 41);
    const tooMany = await call(accessToken, `/me/library/contains?uris=${ids.join(',')}`);
    expect(tooMany).toMatchObject({ status: 400, body: { error: { status: 400 } } });
    const put = await call(accessToken, `/me/library?uris=${ids.join(',')}`, { method: 'PUT' });
    expect(put.status).toBe(400);
    const contains = await call(accessToken, `/me/library/contains?uris=${ids.slice(0, 40).join(',')}`);
    expect(contains.status).toBe(200);
    expect(contains.body).toHaveLength(40);
    expect((await call(accessToken, '/me/library?uris=spotify:track:nope!', { method: 'PUT' })).status).toBe(
      400,
    );
    expect((await call(accessToken, '/me/library', { method: 'PUT' })).status).toBe(400);
    expect((await call(accessToken, '/albums/not-an-id')).status).toBe(400);
    expect(await call(accessToken, `/albums/${'A'.repeat(22)}`)).toMatchObject({
      status: 404,
      body: { error: { status: 404, message: 'Resource not found' } },
    });
    // Development mode lost the several-albums lookup.
    expect((await call(accessToken, `/albums?ids=${'A'.repeat(22)}`)).status).toBe(403);
  });

  it('401 without a valid token, 429 with Retry-After past the rate limit, as on every route', async () => {
    expect(await call('not-a-token', '/me/tracks')).toMatchObject({
      status: 401,
      body: { error: { status: 401, message: 'Invalid access token' } },
    });
    const limited = await startSandbox({ catalog, rateLimit: { budget: 2, windowMs: 60_000 } });
    try {
      const { accessToken } = await connect(limited);
      let answer = await fetch(`${limited.apiBaseUrl}/me/albums`, {
        headers: { authorization: `Bearer ${accessToken}` },
      });
      while (answer.status !== 429) {
        answer = await fetch(`${limited.apiBaseUrl}/me/albums`, {
          headers: { authorization: `Bearer ${accessToken}` },
        });
      }
      expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await answer.json()).toEqual({
        error: { status: 429, message: 'Too many requests', reason: 'QUOTA_EXCEEDED' },
      });
    } finally {
      await limited.close();
    }
  });

  it('answers 403 without the library scopes, and the client says why', async () => {
    const config = {
      accountsBaseUrl: sandbox.accountsBaseUrl,
      clientId: CLIENT_ID,
      redirectUri: REDIRECT_URI,
    };
    const request = await createSpotifyAuthorization({ ...config, scopes: ['playlist-read-private'] });
    const callback = await submitConsent(request.url, { decision: 'agree' });
    const tokens = await exchangeSpotifyCode({
      ...config,
      callback,
      expectedState: request.state,
      codeVerifier: request.codeVerifier,
    });
    for (const [path, method] of [
      ['/me/tracks', 'GET'],
      ['/me/albums', 'GET'],
      [`/me/library/contains?uris=spotify:album:${'A'.repeat(22)}`, 'GET'],
      [`/me/library?uris=spotify:album:${'A'.repeat(22)}`, 'PUT'],
    ] as const) {
      expect(await call(tokens.accessToken, path, { method })).toMatchObject({
        status: 403,
        body: { error: { status: 403, message: 'Insufficient client scope' } },
      });
    }
    const { SpotifyProvider } = await import('./client');
    const provider = new SpotifyProvider({
      apiBaseUrl: sandbox.apiBaseUrl,
      mode: 'development',
      tokens: { getAccessToken: async () => tokens.accessToken, refresh: async () => tokens.accessToken },
    });
    const error = await provider.listLibrary().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe('forbidden');
    expect((error as ProviderError).message).toBe(MISSING_SCOPE_MESSAGE);
    // Liked Songs read for a match says the same.
    const read = await provider.getPlaylist(LIKED_SONGS_ID).catch((e: unknown) => e);
    expect((read as ProviderError).message).toBe(MISSING_SCOPE_MESSAGE);
  });
});
