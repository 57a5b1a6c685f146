import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  FetchPlaylistTracksResponse,
  FriendPlaylist,
  PlaylistSummary,
} from '../../shared/api/playlists';
import type { MatchSetView } from '../../shared/api/transfer';
import { LIKED_SONGS_ID } from '../../shared/library-ids';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';

let server: TestServer;
let client: TestClient;
let playlists: PlaylistSummary[];
const message = (body: unknown) => (body as { message?: string }).message;

beforeAll(async () => {
  server = await startTestServer();
  client = server.newClient();
  await client.post('/api/auth/register', {
    username: 'sharer',
    email: 'sharer@example.com',
    password: 'secret-words',
  });
  await connectService(client, 'spotify');
  playlists = (await client.get('/api/playlists/spotify')).body as PlaylistSummary[];
}, 120_000);
afterAll(() => server.close());

describe('reading playlists from share URLs', () => {
  it('reads the person’s own Spotify playlist from any link form, reporting what is not a track', async () => {
    const oldPhone = playlists.find((playlist) => playlist.name === 'Old Phone Imports') as PlaylistSummary;
    for (const link of [
      `https://open.spotify.com/playlist/${oldPhone.id}?si=abc123`,
      `https://open.spotify.com/intl-de/playlist/${oldPhone.id}`,
      `spotify:playlist:${oldPhone.id}`,
    ]) {
      const response = await client.post('/api/fetch-playlist-tracks', { playlistUrl: link });
      expect(response.status).toBe(200);
      const body = response.body as FetchPlaylistTracksResponse;
      expect(body.playlist).toMatchObject({ name: 'Old Phone Imports', service: 'spotify' });
      expect(body.tracks.length + body.skipped.length).toBe(oldPhone.trackCount);
      expect(body.skipped.map((item) => item.reason)).toEqual(
        expect.arrayContaining(['local_file', 'unavailable']),
      );
    }
    const friend = await client.post('/api/fetch-friend-playlist', {
      shareUrl: `https://open.spotify.com/playlist/${oldPhone.id}`,
    });
    expect(friend.body as FriendPlaylist).toMatchObject({ name: 'Old Phone Imports', service: 'spotify' });
  });

  it('says plainly that development mode forbids someone else’s playlist, and points to CSV import', async () => {
    const followed = playlists.find((playlist) => playlist.isOwned === false) as PlaylistSummary;
    expect(followed).toBeDefined();
    const response = await client.post('/api/fetch-playlist-tracks', {
      playlistUrl: `https://open.spotify.com/playlist/${followed.id}`,
    });
    expect(response.status).toBe(403);
    expect(message(response.body)).toMatch(/development mode/i);
    expect(message(response.body)).toMatch(/CSV/);
  });

  it.each([
    [{ playlistUrl: '' }, 'Please enter a playlist URL to analyze'],
    [{ playlistUrl: 'https://evil.example/playlist/37i9dQZF1DXcBWIGoYBM5M' }, undefined],
    [{ playlistUrl: 'https://open.spotify.com.evil.example/playlist/37i9dQZF1DXcBWIGoYBM5M' }, undefined],
    [{ playlistUrl: 'https://open.spotify.com/album/37i9dQZF1DXcBWIGoYBM5M' }, undefined],
    [{}, 'playlistUrl is required'],
  ])('rejects %j with a 400 and a message, fetching nothing', async (body, expected) => {
    const response = await client.post('/api/fetch-playlist-tracks', body);
    expect(response.status).toBe(400);
    expect(message(response.body)).toBeTruthy();
    if (expected) expect(message(response.body)).toBe(expected);
  });

  it('asks a signed-out visitor to sign in for Spotify links', async () => {
    const response = await server.newClient().post('/api/fetch-playlist-tracks', {
      playlistUrl: `https://open.spotify.com/playlist/${playlists.find((p) => p.kind === 'playlist')?.id}`,
    });
    expect(response.status).toBe(401);
    expect(message(response.body)).toBe('Sign in and connect Spotify to read Spotify playlists.');
  });
});

describe('importing a CSV as a source playlist', () => {
  const exportify = [
    '"Track URI","Track Name","Artist Name(s)","Album Name","Duration (ms)","ISRC"',
    '"spotify:track:4uLU6hMCjMI75M1A2tKUQC","Never Gonna Give You Up","Rick Astley","Whenever You Need Somebody","213573","GBARL9300135"',
    '"","Take On Me","a-ha","Hunting High and Low","225280",""',
  ].join('\r\n');

  const upload = (text: string, fileName: string) =>
    client.post(`/api/import/csv?fileName=${encodeURIComponent(fileName)}`, undefined, {
      raw: text,
      headers: { 'content-type': 'text/csv' },
    });

  it('turns an Exportify file into a playlist listed with the person’s own', async () => {
    const response = await upload(exportify, 'eighties_mix.csv');
    expect(response.status).toBe(201);
    const { playlist } = response.body as { playlist: PlaylistSummary };
    expect(playlist).toMatchObject({ name: 'eighties mix', trackCount: 2 });
    expect(playlist.id.startsWith('import:')).toBe(true);
    const listed = (await client.get('/api/playlists/spotify')).body as PlaylistSummary[];
    expect(listed.some((item) => item.id === playlist.id && item.trackCount === 2)).toBe(true);
    // Every entry says what it is (issue 14): the service's playlists and imports are "playlist".
    expect(listed.find((item) => item.id === playlist.id)?.kind).toBe('playlist');
    expect(new Set(listed.map((item) => item.kind))).toEqual(new Set(['liked', 'album', 'playlist']));
  });

  it('answers a bad file with row-level problems', async () => {
    const response = await upload('"Album Name","Artist Name(s)"\r\n"Album","Artist"', 'broken.csv');
    expect(response.status).toBe(400);
    expect(message(response.body)).toBeTruthy();
    const empty = await upload('', 'empty.csv');
    expect(empty.status).toBe(400);
  });
});

describe('the library above the playlists (issue 14)', () => {
  it('lists Liked Songs / Favourite Songs, then the saved albums, then the playlists, each with its kind', async () => {
    await connectService(client, 'apple');
    for (const [service, likedName] of [
      ['spotify', 'Liked Songs'],
      ['apple', 'Favourite Songs'],
    ] as const) {
      const listed = (await client.get(`/api/playlists/${service}`)).body as PlaylistSummary[];
      const kinds = listed.map((item) => item.kind);
      expect(listed[0]).toMatchObject({ id: LIKED_SONGS_ID, name: likedName, kind: 'liked' });
      expect(listed[0]?.name).toMatch(/liked|favou?rite/i);
      expect(listed[0]?.trackCount).toBeGreaterThanOrEqual(60);
      const albums = listed.filter((item) => item.kind === 'album');
      expect(albums.length).toBeGreaterThanOrEqual(5);
      for (const album of albums) {
        expect(album.name).toMatch(/album/i);
        expect(album.id.startsWith('library:album:')).toBe(true);
        expect(album.trackCount).toBeGreaterThan(0);
      }
      // Liked first, the albums next, the playlists after them.
      expect(kinds.slice(1, 1 + albums.length)).toEqual(albums.map(() => 'album'));
      expect(kinds.slice(1 + albums.length).every((kind) => kind === 'playlist')).toBe(true);
      expect(listed.some((item) => item.name === 'Road Trip' && item.kind === 'playlist')).toBe(true);
      expect(new Set(listed.map((item) => item.id)).size).toBe(listed.length);
    }
  });

  it('gives each person’s own sandbox account its own liked songs and albums, the same on both services', async () => {
    const person = server.newClient();
    await person.post('/api/auth/register', {
      username: 'collector',
      email: 'collector@example.com',
      password: 'secret-words',
    });
    await connectService(person, 'spotify', { account: 'own', scenario: 'playlist-routes' });
    await connectService(person, 'apple', { account: 'own', scenario: 'playlist-routes' });
    const spotify = (await person.get('/api/playlists/spotify')).body as PlaylistSummary[];
    const apple = (await person.get('/api/playlists/apple')).body as PlaylistSummary[];
    const shared = (await client.get('/api/playlists/spotify')).body as PlaylistSummary[];
    for (const listed of [spotify, apple]) {
      expect(listed[0]?.kind).toBe('liked');
      expect(listed[0]?.trackCount).toBeGreaterThanOrEqual(55);
      expect(listed[0]?.trackCount).toBeLessThanOrEqual(150);
    }
    const albumNames = (listed: PlaylistSummary[]) =>
      listed.filter((item) => item.kind === 'album').map((item) => item.name);
    // Apple may list an album Spotify lacks (and the other way round); the rest is the same music.
    const onBoth = albumNames(spotify).filter((name) => albumNames(apple).includes(name));
    expect(onBoth.length).toBeGreaterThanOrEqual(5);
    expect(albumNames(spotify)).not.toEqual(albumNames(shared));
  });

  it('keeps listing the playlists of a Spotify connection made before the library scopes, and says to reconnect', async () => {
    const person = server.newClient();
    await person.post('/api/auth/register', {
      username: 'early-bird',
      email: 'early@example.com',
      password: 'secret-words',
    });
    await connectService(person, 'spotify', {
      scopes: ['playlist-read-private', 'playlist-read-collaborative', 'playlist-modify-private'],
    });
    const listed = await person.get('/api/playlists/spotify');
    expect(listed.status).toBe(200);
    const entries = listed.body as PlaylistSummary[];
    expect(entries[0]).toMatchObject({
      id: LIKED_SONGS_ID,
      kind: 'liked',
      unreadableReason: 'Reconnect Spotify to let Crossfade read your Liked Songs and saved albums.',
    });
    expect(entries.filter((item) => item.kind === 'album')).toEqual([]);
    expect(entries.some((item) => item.name === 'Road Trip')).toBe(true);
  });

  it('matches Liked Songs through the spec API like any playlist', async () => {
    const listed = (await client.get('/api/playlists/spotify')).body as PlaylistSummary[];
    const liked = listed[0] as PlaylistSummary;
    const started = await client.post('/api/match', {
      sourceService: 'spotify',
      destinationService: 'apple',
      playlistId: LIKED_SONGS_ID,
    });
    expect([200, 202], message(started.body)).toContain(started.status);
    const view = await waitUntil(
      async () =>
        (await client.get(`/api/match/${(started.body as MatchSetView).matchSetId}`)).body as MatchSetView,
      (current) => current.status !== 'matching',
      120_000,
    );
    expect(view.status).toBe('ready');
    expect(view.results).toHaveLength(liked.trackCount);
    expect(view.results.filter((row) => row.status === 'accepted').length / liked.trackCount).toBeGreaterThan(
      0.8,
    );
  });
});
