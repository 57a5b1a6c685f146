import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECREATE_MESSAGES, type RecreateResponse } from '../../shared/api/recreate';
import type { MatchSetView } from '../../shared/api/transfer';
import { TRACK_LIST_MESSAGES } from '../import/track-list';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';

let server: TestServer;
let counter = 0;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function signedIn(): Promise<TestClient> {
  const client = server.newClient();
  const username = `recreate${Date.now().toString(36)}${counter++}`;
  const response = await client.post('/api/auth/register', {
    username,
    email: `${username}@example.com`,
    password: 'secret12',
  });
  expect(response.status).toBe(201);
  return client;
}

const message = (body: unknown) => (body as { message?: string }).message;

describe('POST /api/recreate (pasted list)', () => {
  it('needs sign-in', async () => {
    const response = await server.newClient().post('/api/recreate', { name: 'x', text: 'A - B' });
    expect(response.status).toBe(401);
  });

  it('turns the lines into an imported playlist the wizard lists, and reports garbage lines', async () => {
    const client = await signedIn();
    const text = [
      '1. Daft Punk - One More Time',
      '%%%%',
      'Hey Jude by The Beatles 7:11',
      'https://x.y/z',
    ].join('\n');
    const response = await client.post('/api/recreate', { name: 'Lost mix', text });
    expect(response.status, response.text).toBe(201);
    const body = response.body as RecreateResponse;
    expect(body.playlist).toMatchObject({ name: 'Lost mix', trackCount: 2 });
    expect(body.playlist.id).toMatch(/^import:/);
    expect(body.problems.map((problem) => problem.row)).toEqual([2, 4]);
    expect(body.problems[0]?.message).toBe("Line 2 doesn't look like a song.");

    await connectService(client, 'spotify');
    const playlists = await client.get('/api/playlists/spotify');
    expect(playlists.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: body.playlist.id, trackCount: 2 })]),
    );
  });

  it('refuses a list with no songs, with the row problems', async () => {
    const client = await signedIn();
    const response = await client.post('/api/recreate', { name: 'x', text: '!!!\n???' });
    expect(response.status).toBe(400);
    expect(message(response.body)).toBe(TRACK_LIST_MESSAGES.noSongs);
    expect((response.body as { problems: unknown[] }).problems).toHaveLength(2);
  });

  it.each([
    [{ name: '', text: 'A - B' }, RECREATE_MESSAGES.nameRequired],
    [{ name: 'x', text: '' }, TRACK_LIST_MESSAGES.empty],
    [{ name: 'x' }, RECREATE_MESSAGES.listRequired],
  ])('refuses %j', async (body, expected) => {
    const client = await signedIn();
    const response = await client.post('/api/recreate', body);
    expect(response.status).toBe(400);
    expect(message(response.body)).toBe(expected);
  });
});

describe('a recreated list in the transfer pipeline', () => {
  it('is matched like any playlist: typed "Artist - Title" lines find the songs on Apple Music', async () => {
    const client = await signedIn();
    await connectService(client, 'spotify');
    await connectService(client, 'apple');
    const playlists = await client.get('/api/playlists/spotify');
    const first = (playlists.body as { id: string; kind?: string }[]).find((p) => p.kind === 'playlist');
    const read = await client.post('/api/fetch-playlist-tracks', {
      playlistUrl: `https://open.spotify.com/playlist/${first?.id}`,
    });
    const songs = (read.body as { tracks: { name: string; artists: string[] }[] }).tracks.slice(0, 3);
    expect(songs).toHaveLength(3);
    const text = songs.map((song) => `${song.artists.join(', ')} - ${song.name}`).join('\n');
    const created = await client.post('/api/recreate', { name: 'From memory', text });
    const { playlist } = created.body as RecreateResponse;

    let view = (
      await client.post('/api/match', {
        sourceService: 'spotify',
        destinationService: 'apple',
        playlistId: playlist.id,
      })
    ).body as MatchSetView;
    for (let attempt = 0; view.status === 'matching' && attempt < 100; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      view = (await client.get(`/api/match/${view.matchSetId}`)).body as MatchSetView;
    }
    expect(view.status).toBe('ready');
    expect(view.playlistName).toBe('From memory');
    expect(view.results.map((row) => row.sourceTrack.name)).toEqual(songs.map((song) => song.name));
    expect(view.results.filter((row) => row.isMatched).length).toBeGreaterThanOrEqual(2);
    for (const row of view.results.filter((item) => item.isMatched)) {
      expect(row.destinationTrack?.name.toLowerCase()).toContain(
        row.sourceTrack.name.toLowerCase().slice(0, 5),
      );
    }
  });
});

describe('POST /api/recreate/from-link', () => {
  it('copies a playlist that still opens by its link into an imported playlist', async () => {
    const client = await signedIn();
    await connectService(client, 'spotify');
    const playlists = await client.get('/api/playlists/spotify');
    const first = (playlists.body as { id: string; name: string; trackCount: number; kind?: string }[]).find(
      (p) => p.kind === 'playlist',
    );
    const response = await client.post('/api/recreate/from-link', {
      playlistUrl: `https://open.spotify.com/playlist/${first?.id}`,
    });
    expect(response.status, response.text).toBe(201);
    const body = response.body as RecreateResponse;
    expect(body.playlist.id).toMatch(/^import:/);
    expect(body.playlist.name).toBe(first?.name);
    expect(body.playlist.trackCount + body.problems.length).toBe(first?.trackCount);
    expect(body.originService).toBe('spotify');
  });

  it.each([
    ['https://example.com/playlist/1', 'This is not a Spotify or Apple Music link.'],
    ['', 'Please enter a playlist URL'],
  ])('refuses %j', async (playlistUrl, expected) => {
    const client = await signedIn();
    const response = await client.post('/api/recreate/from-link', { playlistUrl });
    expect(response.status).toBe(400);
    expect(message(response.body)).toBe(expected);
  });

  it('asks to connect Spotify for a Spotify link', async () => {
    const client = await signedIn();
    const response = await client.post('/api/recreate/from-link', {
      playlistUrl: 'https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M',
    });
    expect(response.status).toBe(409);
  });
});
