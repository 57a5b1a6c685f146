import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaylistSummary } from '../../shared/api/playlists';
import type { MatchSetView, TransferResult } from '../../shared/api/transfer';
import { providerConnections } from '../db/schema';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer, testCatalog } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';

// Issue 12: in sandbox mode every person signs in to an emulator account of their own, isolated as on the
// real services.
let server: TestServer;
const people: { client: TestClient; id: string }[] = [];

async function register(name: string) {
  const client = server.newClient();
  const registered = await client.post('/api/auth/register', {
    username: name,
    email: `${name}@example.com`,
    password: 'secret-words',
  });
  return { client, id: (registered.body as { user: { id: string } }).user.id };
}

const playlists = async (client: TestClient, service: 'spotify' | 'apple') => {
  const answer = await client.get(`/api/playlists/${service}`);
  expect(answer.status).toBe(200);
  return answer.body as PlaylistSummary[];
};

beforeAll(async () => {
  server = await startTestServer();
  // Two people, two scenarios: two different fixed libraries.
  for (const name of ['ada', 'bea']) {
    const person = await register(name);
    const own = { account: 'own', scenario: `sandbox-accounts-${name}` } as const;
    expect(await connectService(person.client, 'spotify', own)).toBe('/transfer?connected=spotify');
    expect(await connectService(person.client, 'apple', own)).toBe('/transfer?connected=apple');
    people.push(person);
  }
}, 120_000);
afterAll(() => server.close());

describe('a sandbox account per person', () => {
  it('gives each person their own Spotify user and Apple library, with a demo library that differs', async () => {
    const [ada, bea] = people as [(typeof people)[0], (typeof people)[0]];
    const adaSpotify = await server.deps.providers.connections.get(ada.id, 'spotify');
    const beaSpotify = await server.deps.providers.connections.get(bea.id, 'spotify');
    expect(adaSpotify?.providerUserId).toMatch(/^listener-/);
    expect(adaSpotify?.providerUserId).not.toBe(beaSpotify?.providerUserId);

    for (const service of ['spotify', 'apple'] as const) {
      const adaLists = await playlists(ada.client, service);
      const beaLists = await playlists(bea.client, service);
      // The same kinds of playlists (the demo plans), never the same ones.
      expect(adaLists.map((playlist) => playlist.name)).toContain('Road Trip');
      // Covers stay in the sandbox: the emulators' own images.
      for (const playlist of adaLists) {
        if (playlist.imageUrl) expect(playlist.imageUrl.startsWith(server.url)).toBe(true);
      }
      // (Liked Songs has one id for everyone, `library:liked`: it means "the signed-in person's".)
      const ownPlaylists = (list: PlaylistSummary[]) =>
        list.filter((playlist) => playlist.kind === 'playlist');
      const adaIds = new Set(ownPlaylists(adaLists).map((playlist) => playlist.id));
      expect(ownPlaylists(beaLists).length).toBeGreaterThan(0);
      expect(ownPlaylists(beaLists).some((playlist) => adaIds.has(playlist.id))).toBe(false);
      const tracksOf = async (person: typeof ada, list: PlaylistSummary[]) => {
        const roadTrip = list.find((playlist) => playlist.name === 'Road Trip') as PlaylistSummary;
        const provider = await server.deps.providers.forUser(person.id, service);
        const contents = await provider.getPlaylist(roadTrip.id);
        return contents.entries.flatMap((entry) => (entry.kind === 'track' ? [entry.track.id] : []));
      };
      expect(await tracksOf(ada, adaLists)).not.toEqual(await tracksOf(bea, beaLists));
    }
  });

  it('a playlist one person transfers never shows up for the other', async () => {
    const [ada, bea] = people as [(typeof people)[0], (typeof people)[0]];
    const source = (await playlists(ada.client, 'spotify')).find(
      (playlist) => playlist.name === 'Sunday Morning ☕',
    ) as PlaylistSummary;
    const started = await ada.client.post('/api/match', {
      sourceService: 'spotify',
      destinationService: 'apple',
      playlistId: source.id,
    });
    const matchSetId = (started.body as MatchSetView).matchSetId;
    await waitUntil(
      async () => (await ada.client.get(`/api/match/${matchSetId}`)).body as MatchSetView,
      (view) => view.status !== 'matching',
      120_000,
    );
    const transfer = await ada.client.post('/api/transfer', {
      sourceService: 'spotify',
      destinationService: 'apple',
      playlistId: source.id,
      matchSetId,
      createPlaylist: true,
    });
    const transferId = (transfer.body as TransferResult).transferId;
    const done = await waitUntil(
      async () => (await ada.client.get(`/api/transfers/${transferId}`)).body as TransferResult,
      (view) => view.status === 'succeeded' || view.status === 'failed',
      120_000,
    );
    expect(done.status, done.error ?? '').toBe('succeeded');
    // "Open in Apple Music" leads to the emulator's own page for the new playlist, shown to its owner only.
    expect(done.destinationUrl?.startsWith(server.url)).toBe(true);
    const pagePath = new URL(done.destinationUrl ?? '').pathname;
    const page = await ada.client.get(pagePath);
    expect(page.status).toBe(200);
    expect(page.text).toContain(source.name.replace('☕', ''));
    for (const stranger of [await bea.client.get(pagePath), await server.newClient().get(pagePath)]) {
      expect(stranger.status).toBe(401);
      expect(stranger.text).not.toContain(source.name.replace('☕', ''));
    }

    const adaApple = await playlists(ada.client, 'apple');
    expect(adaApple.filter((playlist) => playlist.name === source.name)).toHaveLength(2);
    expect(adaApple.map((playlist) => playlist.id)).toContain(done.playlistId);
    const beaApple = await playlists(bea.client, 'apple');
    expect(beaApple.filter((playlist) => playlist.name === source.name)).toHaveLength(1);
    expect(beaApple.map((playlist) => playlist.id)).not.toContain(done.playlistId);
    // Nor can the other person open it by id.
    const beaProvider = await server.deps.providers.forUser(bea.id, 'apple');
    await expect(beaProvider.getPlaylist(done.playlistId)).rejects.toThrow();
  });
});

describe('the country of a sandbox account', () => {
  it('is derived from what Spotify answers, and a DE account is matched with DE availability', async () => {
    const person = await register('carl');
    await connectService(person.client, 'spotify', {
      account: 'own',
      scenario: 'sandbox-carl',
      country: 'DE',
    });
    await connectService(person.client, 'apple', { account: 'own', scenario: 'sandbox-carl' });
    // Development-mode /me has no country; the app found it in the answer to a `from_token` search.
    const spotify = await server.deps.providers.connections.get(person.id, 'spotify');
    expect(spotify?.region).toBe('de');

    const source = (await playlists(person.client, 'apple')).find(
      (playlist) => playlist.name === 'Around the World',
    ) as PlaylistSummary;
    const started = await person.client.post('/api/match', {
      sourceService: 'apple',
      destinationService: 'spotify',
      playlistId: source.id,
    });
    expect(started.status).toBeLessThan(300);
    const matchSetId = (started.body as MatchSetView).matchSetId;
    const view = await waitUntil(
      async () => (await person.client.get(`/api/match/${matchSetId}`)).body as MatchSetView,
      (current) => current.status !== 'matching',
      120_000,
    );
    const markets = new Map(
      testCatalog().tracks.flatMap((track) =>
        track.spotify ? [[track.spotify.id, track.spotify.markets]] : [],
      ),
    );
    const chosen = view.results.flatMap((row) => (row.destinationTrack ? [row.destinationTrack.id] : []));
    expect(chosen.length).toBeGreaterThan(10);
    for (const id of chosen) expect(markets.get(id)).toContain('DE');
    // The geo-locked tracks the playlist holds include some Spotify has in the US but not in DE.
    const usOnly = [...markets.values()].filter((list) => list.includes('US') && !list.includes('DE'));
    expect(usOnly.length).toBeGreaterThan(0);
  });

  it('asks the person once when it cannot be derived, and then uses what they said', async () => {
    const person = await register('dana');
    await connectService(person.client, 'spotify', { account: 'own', scenario: 'sandbox-dana' });
    await connectService(person.client, 'apple', { account: 'own', scenario: 'sandbox-dana' });
    // As if Spotify had given nothing away.
    await server.deps.db
      .update(providerConnections)
      .set({ region: null })
      .where(and(eq(providerConnections.userId, person.id), eq(providerConnections.service, 'spotify')));
    const source = (await playlists(person.client, 'apple'))[0] as PlaylistSummary;
    const request = { sourceService: 'apple', destinationService: 'spotify', playlistId: source.id };
    const refused = await person.client.post('/api/match', request);
    expect(refused.status).toBe(409);
    expect((refused.body as { message: string }).message).toMatch(/which country your account is in/);

    const bad = await person.client.send('PUT', '/api/auth/spotify/region', { region: 'Germany' });
    expect(bad.status).toBe(400);
    const set = await person.client.send('PUT', '/api/auth/spotify/region', { region: 'JP' });
    expect(set.status).toBe(200);
    expect((await server.deps.providers.connections.get(person.id, 'spotify'))?.region).toBe('jp');
    expect((await person.client.post('/api/match', request)).status).toBeLessThan(300);
  });
});
