import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  FetchPlaylistTracksResponse,
  FriendPlaylist,
  PlaylistSummary,
} from '../../shared/api/playlists';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';

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

describe('reading playlists from share links', () => {
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
      playlistUrl: `https://open.spotify.com/playlist/${playlists[0]?.id}`,
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
  });

  it('answers a bad file with row-level problems', async () => {
    const response = await upload('"Album Name","Artist Name(s)"\r\n"Album","Artist"', 'broken.csv');
    expect(response.status).toBe(400);
    expect(message(response.body)).toBeTruthy();
    const empty = await upload('', 'empty.csv');
    expect(empty.status).toBe(400);
  });
});
