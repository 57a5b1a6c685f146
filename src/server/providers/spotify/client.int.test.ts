import { afterEach, describe, expect, it } from 'vitest';
import { demoPlaylistId, FOLLOWED_PLAYLIST_ID, UNREGISTERED_USER } from '../../../sandbox/spotify';
import {
  buildFixtureCatalog,
  FIXTURE_KEYS,
  fixtureSpotifyId,
  LONG_PLAYLIST_KEY,
  LONG_PLAYLIST_LENGTH,
  ROAD_TRIP_KEY,
} from '../../../sandbox/spotify/fixture-catalog';
import {
  connect,
  connectedProvider,
  cookieHeader,
  RefreshingTokens,
  type SandboxServer,
  startSandbox,
} from '../../testing/spotify-sandbox';
import { ProviderError } from '../http';
import type { PlaylistEntry } from '../types';
import { SpotifyProvider } from './client';
import { OWNER_WITHOUT_PREMIUM_MESSAGE } from './errors';

let sandbox: SandboxServer | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ProviderError)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error;
}

describe('SpotifyProvider against the sandbox', () => {
  it('reads the signed-in person and their playlists, owned and followed', async () => {
    sandbox = await startSandbox();
    const { provider } = await connectedProvider(sandbox);
    const me = await provider.getCurrentUser();
    expect(me).toMatchObject({ id: 'crossfade-demo', displayName: 'Demo Listener' });

    const playlists = await provider.listPlaylists();
    expect(playlists.map((p) => p.name)).toEqual(['Road Trip', 'Long Haul', "Friends' Mixtape"]);
    expect(playlists[1]).toMatchObject({ trackCount: LONG_PLAYLIST_LENGTH, isOwned: true });
    expect(playlists[2]).toMatchObject({ isOwned: false, ownerName: 'Mixtape Maker' });
  });

  it('reads a playlist in order and reports unavailable, local and episode entries as skipped', async () => {
    sandbox = await startSandbox();
    const { provider } = await connectedProvider(sandbox, { market: 'JP' });
    const { playlist, entries } = await provider.getPlaylist(demoPlaylistId(ROAD_TRIP_KEY));
    expect(playlist).toMatchObject({ name: 'Road Trip', trackCount: 8, isOwned: true });
    expect(entries.map((e) => (e.kind === 'track' ? e.track.name : `skipped:${e.reason}`))).toEqual([
      'Heaven',
      'Golden Hour',
      'skipped:unavailable',
      'skipped:local_file',
      'skipped:episode',
      'Neon Rain',
      'skipped:unavailable',
      'Déjà Vu',
    ]);
    expect(entries.map((e) => e.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const local = entries[3];
    expect(local).toMatchObject({
      name: 'Garage Demo',
      artists: ['The Basement'],
      album: 'Tapes & Things',
      durationMs: 185_000,
    });
    const heaven = entries[0];
    expect(heaven?.kind === 'track' && heaven.track).toMatchObject({
      id: fixtureSpotifyId(FIXTURE_KEYS.heaven),
      uri: `spotify:track:${fixtureSpotifyId(FIXTURE_KEYS.heaven)}`,
      artists: ['Aurora Vale'],
      album: 'Northern Lights',
      isrc: 'USAV12100001',
      releaseDate: '2021-03-19',
      albumType: 'album',
      availability: { playable: true },
    });
    // Neon Rain is not sold in Japan: still a track, marked unplayable there.
    const neon = entries[5];
    expect(neon?.kind === 'track' && neon.track.availability).toEqual({ playable: false });
  });

  it('reads a 120-track playlist: the first 100 with the playlist, the rest page by page at 50', async () => {
    sandbox = await startSandbox();
    const { provider } = await connectedProvider(sandbox);
    const heard: PlaylistEntry[][] = [];
    const { entries } = await provider.getPlaylist(demoPlaylistId(LONG_PLAYLIST_KEY), {
      onEntries: (fresh) => heard.push(fresh),
    });
    expect(entries).toHaveLength(LONG_PLAYLIST_LENGTH);
    // The pages are read a few at a time, yet heard in order, each entry once, as they come.
    expect(heard.length).toBeGreaterThan(1);
    expect(heard.flat()).toEqual(entries);
    expect(entries.every((e, i) => e.kind === 'track' && e.track.name.startsWith(`Mile ${i + 1} `))).toBe(
      true,
    );
    expect(provider.http.callCounts.get('GET /sandbox/spotify/api/v1/playlists/{id}')).toBe(1);
    expect(provider.http.callCounts.get('GET /sandbox/spotify/api/v1/playlists/{id}/items')).toBe(1);
  });

  it('finds a song by title and artist, the plain version first', async () => {
    sandbox = await startSandbox();
    const { provider } = await connectedProvider(sandbox);
    const found = await provider.searchTracks({ title: 'Heaven', artist: 'Aurora Vale' });
    expect(found.map((t) => t.name)).toEqual(['Heaven', 'Heaven - Acoustic']);
    const accents = await provider.searchTracks({ title: 'deja vu', artist: 'Elodie Marchand' });
    expect(accents[0]?.name).toBe('Déjà Vu');
    expect(await provider.searchTracks({ title: 'Nothing Like This', artist: 'Nobody' })).toEqual([]);
  });

  it('finds a title and artist with apostrophes, though Spotify’s field filters find nothing with them', async () => {
    const catalog = buildFixtureCatalog();
    const neonRain = catalog.tracks.find((track) => track.key === FIXTURE_KEYS.neonRain);
    if (!neonRain) throw new Error('no Neon Rain in the fixture catalog');
    const key = 'carissas-song';
    catalog.tracks.push({
      ...neonRain,
      key,
      isrc: 'GBKM12300099',
      title: 'Carissa’s Song',
      artists: ["Mary's Band"],
      spotify: { id: fixtureSpotifyId(key), markets: ['US', 'GB'] },
    });
    sandbox = await startSandbox({ catalog });
    const { provider, tokens } = await connectedProvider(sandbox);
    // The emulator is as strict as Spotify: an apostrophe inside a field filter finds nothing at all.
    const raw = new URL(`${sandbox.apiBaseUrl}/search`);
    raw.search = new URLSearchParams({ q: `track:"Carissa's Song"`, type: 'track', market: 'US' }).toString();
    const strict = (await (
      await fetch(raw, { headers: { authorization: `Bearer ${await tokens.getAccessToken()}` } })
    ).json()) as { tracks: { items: unknown[] } };
    expect(strict.tracks.items).toEqual([]);

    const found = await provider.searchTracks({ title: "Carissa's Song", artist: 'Mary’s Band' });
    expect(found.map((track) => track.id)).toEqual([fixtureSpotifyId(key)]);
  });

  it('hides tracks that cannot be played in the region it searches for', async () => {
    sandbox = await startSandbox();
    const { provider } = await connectedProvider(sandbox);
    expect(await provider.searchTracks({ title: 'Neon Rain' }, { region: 'us' })).toHaveLength(1);
    expect(await provider.searchTracks({ title: 'Neon Rain' }, { region: 'jp' })).toHaveLength(0);
  });

  it('looks up ISRCs one search each and returns every track carrying one', async () => {
    sandbox = await startSandbox();
    const { provider } = await connectedProvider(sandbox);
    const found = await provider.lookupIsrcs(['KRJP12000001', 'USAV12100001', 'ZZZZ00000000']);
    expect(
      found
        .get('KRJP12000001')
        ?.map((t) => t.album)
        .sort(),
    ).toEqual(['Flight Paths', 'Paper Planes']);
    expect(found.get('USAV12100001')?.map((t) => t.name)).toEqual(['Heaven']);
    expect(found.get('ZZZZ00000000')).toEqual([]);
    expect(provider.http.callCounts.get('GET /sandbox/spotify/api/v1/search')).toBe(3);
  });

  it('gets one track, and null for one Spotify does not have', async () => {
    sandbox = await startSandbox();
    const { provider } = await connectedProvider(sandbox);
    const track = await provider.getTrack(fixtureSpotifyId(FIXTURE_KEYS.goldenHour), { region: 'GB' });
    expect(track).toMatchObject({
      name: 'Golden Hour',
      explicit: true,
      artists: ['Milo Reyes', 'Aurora Vale'],
    });
    expect(await provider.getTrack(fixtureSpotifyId(FIXTURE_KEYS.withdrawn))).toBeNull();
  });

  it('creates a playlist and adds 250 tracks in batches of 100, in order', async () => {
    sandbox = await startSandbox();
    const { provider } = await connectedProvider(sandbox);
    const created = await provider.createPlaylist('From Apple Music', 'Moved by Crossfade');
    // "Open in Spotify" leads to the emulator's own page for the playlist, never the real site.
    expect(created.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/.*/open/playlist/${created.id}$`));
    // A private playlist: its page shows it to its owner's browser, and asks anyone else to log in.
    const page = await fetch(created.url, { headers: { cookie: cookieHeader(sandbox.browserCookies) } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('From Apple Music');
    const stranger = await fetch(created.url);
    expect(stranger.status).toBe(401);
    expect(await stranger.text()).not.toContain('From Apple Music');
    const ids = Array.from({ length: LONG_PLAYLIST_LENGTH }, (_, i) => fixtureSpotifyId(`long-${i + 1}`));
    const uris = [...ids, ...ids, ...ids.slice(0, 10)].map((id) => `spotify:track:${id}`);
    const progress: number[] = [];
    await provider.addTracks(created.id, uris, ({ added, total }) => {
      expect(total).toBe(250);
      progress.push(added);
    });
    expect(progress).toEqual([100, 200, 250]);
    const { entries, playlist } = await provider.getPlaylist(created.id);
    expect(playlist).toMatchObject({
      name: 'From Apple Music',
      description: 'Moved by Crossfade',
      isOwned: true,
    });
    expect(entries.map((e) => (e.kind === 'track' ? e.track.uri : null))).toEqual(uris);
    expect((await provider.listPlaylists())[0]?.name).toBe('From Apple Music');
  });

  it('refuses to add a local file', async () => {
    sandbox = await startSandbox();
    const { provider } = await connectedProvider(sandbox);
    const created = await provider.createPlaylist('Locals');
    const error = await rejection(
      provider.addTracks(created.id, ['spotify:local:The+Basement:Tapes:Garage+Demo:185']),
    );
    expect(error.kind).toBe('bad_request');
    expect(error.message).toContain('Local tracks cannot be added');
  });

  it('reports availability per track for a region, one call each in development mode', async () => {
    sandbox = await startSandbox();
    const { provider } = await connectedProvider(sandbox);
    const neon = fixtureSpotifyId(FIXTURE_KEYS.neonRain);
    const heaven = fixtureSpotifyId(FIXTURE_KEYS.heaven);
    const withdrawn = fixtureSpotifyId(FIXTURE_KEYS.withdrawn);
    const availability = await provider.getAvailability([neon, heaven, withdrawn], 'jp');
    expect(Object.fromEntries(availability)).toEqual({ [neon]: false, [heaven]: true, [withdrawn]: false });
    expect(provider.http.callCounts.get('GET /sandbox/spotify/api/v1/tracks/{id}')).toBe(3);
  });

  it('uses batch lookups and full market lists in extended mode', async () => {
    sandbox = await startSandbox({ mode: 'extended' });
    const { provider } = await connectedProvider(sandbox, { mode: 'extended' });
    const neon = fixtureSpotifyId(FIXTURE_KEYS.neonRain);
    const availability = await provider.getAvailability([neon], 'GB');
    expect(availability.get(neon)).toBe(true);
    expect(provider.http.callCounts.get('GET /sandbox/spotify/api/v1/tracks')).toBe(1);
    const track = await provider.getTrack(neon);
    expect(track?.availability?.regions).toEqual(['US', 'GB']);
    // Extended quota also reads other people's playlists.
    const shared = await provider.readSharedPlaylist({ service: 'spotify', id: FOLLOWED_PLAYLIST_ID });
    expect(shared.entries).toHaveLength(12);
  });

  it("explains that development mode cannot read someone else's shared playlist", async () => {
    sandbox = await startSandbox();
    const { provider } = await connectedProvider(sandbox);
    const error = await rejection(
      provider.readSharedPlaylist({ service: 'spotify', id: FOLLOWED_PLAYLIST_ID }),
    );
    expect(error.kind).toBe('forbidden');
    expect(error.message).toContain("development mode does not let apps read other people's playlists");
    expect(error.message).toContain('Exportify');
  });

  it('says when the app owner lost Premium, instead of blaming the playlist', async () => {
    sandbox = await startSandbox({ ownerHasPremium: false });
    const { provider } = await connectedProvider(sandbox);
    const error = await rejection(provider.getPlaylist(demoPlaylistId(ROAD_TRIP_KEY)));
    expect(error.kind).toBe('forbidden');
    expect(error.message).toBe(OWNER_WITHOUT_PREMIUM_MESSAGE);
    expect(error.message).not.toContain('Exportify');
  });

  it('tells a person who is not on the allow-list what the app owner must do', async () => {
    sandbox = await startSandbox();
    const { provider } = await connectedProvider(sandbox, { account: UNREGISTERED_USER.id });
    const error = await rejection(provider.listPlaylists());
    expect(error.kind).toBe('not_registered');
    expect(error.message).toContain('Developer Dashboard');
    expect(error.message).toContain('at most 5');
  });

  it('refreshes once on an expired access token and carries on', async () => {
    sandbox = await startSandbox();
    const { provider, tokens } = await connectedProvider(sandbox);
    tokens.spoilAccessToken();
    expect((await provider.getCurrentUser()).id).toBe('crossfade-demo');
    expect(tokens.refreshes).toBe(1);
  });

  it('asks the person to reconnect when the refresh token no longer works', async () => {
    let clock = Date.parse('2026-01-10T10:00:00Z');
    sandbox = await startSandbox({ now: () => clock });
    const tokens = new RefreshingTokens(await connect(sandbox), sandbox.accountsBaseUrl);
    const provider = new SpotifyProvider({ apiBaseUrl: sandbox.apiBaseUrl, mode: 'development', tokens });
    clock = Date.parse('2026-07-11T10:00:00Z');
    const error = await rejection(provider.listPlaylists());
    expect(error.kind).toBe('reconnect_required');
    expect(error.message).toContain('reconnect Spotify');
  });

  it('rides out a 429 storm while reading a 120-track playlist, waiting as told', async () => {
    let clock = 1_000_000;
    sandbox = await startSandbox({ rateLimit: { budget: 2, windowMs: 1000 }, now: () => clock });
    const tokens = new RefreshingTokens(await connect(sandbox), sandbox.accountsBaseUrl);
    const waits: number[] = [];
    const provider = new SpotifyProvider({
      apiBaseUrl: sandbox.apiBaseUrl,
      mode: 'development',
      tokens,
      onRateLimit: ({ waitMs }) => waits.push(waitMs),
      // The emulator's clock is the only clock: waiting moves it on.
      http: {
        sleep: async (ms) => {
          clock += ms;
        },
      },
    });
    const heard: PlaylistEntry[][] = [];
    const { entries } = await provider.getPlaylist(demoPlaylistId(LONG_PLAYLIST_KEY), {
      onEntries: (fresh) => heard.push(fresh),
    });
    expect(entries).toHaveLength(LONG_PLAYLIST_LENGTH);
    // The pages are read a few at a time, yet heard in order, each entry once, as they come.
    expect(heard.length).toBeGreaterThan(1);
    expect(heard.flat()).toEqual(entries);
    // After the first 429 the client holds every request back for the Retry-After, so later pages need
    // not be refused first.
    expect(waits.length).toBeGreaterThanOrEqual(1);
    expect(waits.every((ms) => ms === 1000)).toBe(true);
  });

  it('retries server errors and succeeds', async () => {
    sandbox = await startSandbox();
    const { provider } = await connectedProvider(sandbox);
    sandbox.faults.failNext(3, 502);
    const before = sandbox.apiCalls;
    expect((await provider.listPlaylists()).length).toBe(3);
    expect(sandbox.apiCalls - before).toBe(5); // 3 failures, then /me and /me/playlists
  });

  it('gives up with "unavailable" when the errors do not stop', async () => {
    sandbox = await startSandbox();
    const { provider } = await connectedProvider(sandbox, { http: { maxRetries: 2 } });
    sandbox.faults.failNext(10);
    const error = await rejection(provider.getCurrentUser());
    expect(error.kind).toBe('unavailable');
  });

  it('reports an answer that is not JSON as malformed', async () => {
    sandbox = await startSandbox();
    const { provider } = await connectedProvider(sandbox);
    sandbox.faults.malformNext(1);
    const error = await rejection(provider.getCurrentUser());
    expect(error.kind).toBe('malformed');
  });

  it('keeps search within the development-mode limit of 10', async () => {
    sandbox = await startSandbox();
    const { provider } = await connectedProvider(sandbox);
    const found = await provider.searchTracks({ text: 'mile' }, { limit: 40 });
    expect(found).toHaveLength(10);
  });
});
