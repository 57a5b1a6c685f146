import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaylistSummary } from '../../shared/api/playlists';
import { FOLLOWED_PLAYLIST_MESSAGE, type MatchSetView } from '../../shared/api/transfer';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';

/** Flows that used to end in "Please try again" for something that can never work. */
let server: TestServer;
let client: TestClient;
let playlists: PlaylistSummary[];

beforeAll(async () => {
  server = await startTestServer();
  client = server.newClient();
  await client.post('/api/auth/register', {
    username: 'stuck',
    email: 'stuck@example.com',
    password: 'secret-words',
  });
  await connectService(client, 'spotify');
  await connectService(client, 'apple');
  playlists = (await client.get('/api/playlists/spotify')).body as PlaylistSummary[];
}, 120_000);
afterAll(() => server.close());

async function match(playlistId: string) {
  const started = await client.post('/api/match', {
    sourceService: 'spotify',
    destinationService: 'apple',
    playlistId,
  });
  expect([200, 202]).toContain(started.status);
  const { matchSetId } = started.body as MatchSetView;
  return waitUntil(
    async () => (await client.get(`/api/match/${matchSetId}`)).body as MatchSetView,
    (view) => view.status !== 'matching',
    60_000,
  );
}

describe('a followed playlist under Spotify development mode', () => {
  it('is marked on the playlist list, with why, before anyone picks it', () => {
    const followed = playlists.filter((playlist) => playlist.isOwned === false);
    expect(followed.length).toBeGreaterThan(0);
    for (const playlist of followed) expect(playlist.unreadableReason).toBe(FOLLOWED_PLAYLIST_MESSAGE);
    for (const playlist of playlists.filter((p) => p.isOwned !== false)) {
      expect(playlist.unreadableReason).toBeUndefined();
    }
  });

  it('fails its match with the stored reason and the way out, not an empty error', async () => {
    const followed = playlists.find((playlist) => playlist.isOwned === false) as PlaylistSummary;
    const view = await match(followed.id);
    expect(view.status).toBe('failed');
    expect(view.error).toBe(FOLLOWED_PLAYLIST_MESSAGE);
  });
});

describe('an empty playlist', () => {
  it('matches to an empty, ready result (the page says there is nothing to match)', async () => {
    const empty = playlists.find((playlist) => playlist.trackCount === 0) as PlaylistSummary;
    const view = await match(empty.id);
    expect(view.status).toBe('ready');
    expect(view.results).toEqual([]);
  });
});
