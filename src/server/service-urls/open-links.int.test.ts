import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LinkDto, PublicLink } from '../../shared/api/links';
import type { MergePlaylistsResponse, SavePlaylistResponse } from '../../shared/api/merge';
import type { PlaylistSummary } from '../../shared/api/playlists';
import type { MatchSetView, TransferResult } from '../../shared/api/transfer';
import { LIKED_SONGS_ID } from '../../shared/library-ids';
import type { ServiceId } from '../../shared/services';
import { users } from '../db/schema';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';

/**
 * Issue 23: every "Open in …" address and `destinationUrl` the app hands out in sandbox mode is the
 * emulator's own page for that object, and the emulator answers it with 200: a playlist transfer each way, a
 * saved album's transfer (the batch page's album rows show the same address), a merged playlist saved, a
 * geo-locked playlist created, and the public link page's exact items and searches.
 */
let server: TestServer;
let person: TestClient;
const handedOut: { flow: string; url: string }[] = [];

beforeAll(async () => {
  server = await startTestServer();
  person = server.newClient();
  const registered = await person.post('/api/auth/register', {
    username: 'walker',
    email: 'walker@example.com',
    password: 'secret-words',
  });
  const id = (registered.body as { user: { id: string } }).user.id;
  // Pro: several transfers in one month.
  await server.deps.db.update(users).set({ plan: 'pro' }).where(eq(users.id, id));
  const own = { account: 'own', scenario: 'open-links' } as const;
  expect(await connectService(person, 'spotify', own)).toBe('/transfer?connected=spotify');
  expect(await connectService(person, 'apple', own)).toBe('/transfer?connected=apple');
}, 120_000);
afterAll(() => server.close());

const listOf = async (service: ServiceId) =>
  (await person.get(`/api/playlists/${service}`)).body as PlaylistSummary[];

async function transfer(
  from: ServiceId,
  to: ServiceId,
  playlistId: string,
  createPlaylist = true,
): Promise<TransferResult> {
  const body = { sourceService: from, destinationService: to, playlistId };
  const started = await person.post('/api/match', body);
  expect(started.status, started.text).toBeLessThan(300);
  const matchSetId = (started.body as MatchSetView).matchSetId;
  await waitUntil(
    async () => (await person.get(`/api/match/${matchSetId}`)).body as MatchSetView,
    (view) => view.status !== 'matching',
    120_000,
  );
  // A library collection saved as liked songs names no playlist option.
  const moved = await person.post('/api/transfer', {
    ...body,
    matchSetId,
    ...(createPlaylist ? { createPlaylist } : {}),
  });
  expect(moved.status, moved.text).toBeLessThan(300);
  const transferId = (moved.body as TransferResult).transferId;
  const done = await waitUntil(
    async () => (await person.get(`/api/transfers/${transferId}`)).body as TransferResult,
    (view) => view.status === 'succeeded' || view.status === 'failed',
    120_000,
  );
  expect(done.status, done.error ?? '').toBe('succeeded');
  return done;
}

describe('every "Open in …" address in sandbox mode', () => {
  it('a playlist moved each way, and a saved album moved', async () => {
    const spotifyRoadTrip = (await listOf('spotify')).find((playlist) => playlist.name === 'Road Trip');
    const toApple = await transfer('spotify', 'apple', spotifyRoadTrip?.id ?? '');
    handedOut.push({ flow: 'playlist to Apple Music', url: toApple.destinationUrl });
    const appleJazz = (await listOf('apple')).find((playlist) => playlist.name === 'Late Night Jazz');
    const toSpotify = await transfer('apple', 'spotify', appleJazz?.id ?? '');
    handedOut.push({ flow: 'playlist to Spotify', url: toSpotify.destinationUrl });
    for (const [from, to] of [
      ['spotify', 'apple'],
      ['apple', 'spotify'],
    ] as const) {
      const album = (await listOf(from)).find((playlist) => playlist.kind === 'album');
      expect(album, `a saved album on ${from}`).toBeDefined();
      const saved = await transfer(from, to, album?.id ?? '');
      handedOut.push({ flow: `saved album to ${to}`, url: saved.destinationUrl });
    }
    // Liked Songs saved as liked songs on the other side: the person's Liked / Favourite Songs page.
    for (const [from, to] of [
      ['spotify', 'apple'],
      ['apple', 'spotify'],
    ] as const) {
      const liked = await transfer(from, to, LIKED_SONGS_ID, false);
      expect(liked.destinationUrl, `liked songs to ${to}`).toMatch(
        to === 'apple'
          ? /\/sandbox\/apple\/web\/library\/songs$/
          : /\/sandbox\/spotify\/api\/open\/collection\/tracks$/,
      );
      handedOut.push({ flow: `liked songs to ${to}`, url: liked.destinationUrl });
    }
    // The history (and a batch's rows) hand out the same addresses.
    const history = (await person.get('/api/transfers')).body as TransferResult[];
    for (const entry of history)
      handedOut.push({ flow: `history: ${entry.name}`, url: entry.destinationUrl });
  }, 400_000);

  it('a merged playlist saved, and a geo-locked playlist created', async () => {
    const appleJazz = (await listOf('apple')).find((playlist) => playlist.name === 'Late Night Jazz');
    const spotifyRoadTrip = (await listOf('spotify')).find((playlist) => playlist.name === 'Road Trip');
    const merged = await person.post('/api/claude/merge-playlists', {
      userPlaylistId: `spotify:${spotifyRoadTrip?.id}`,
      friendPlaylistId: `https://music.apple.com/library/playlist/${appleJazz?.id}`,
      mixRatio: [50, 50],
      includeBridgeTracks: false,
    });
    expect(merged.status, merged.text).toBe(200);
    const merge = merged.body as MergePlaylistsResponse;
    for (const service of ['spotify', 'apple'] as const) {
      const saved = await person.post('/api/save-playlist', {
        playlistName: `Our Mix on ${service}`,
        tracks: merge.tracks.map((track) => track.id),
        newPlaylistId: merge.newPlaylistId,
        service,
      });
      expect(saved.status, saved.text).toBe(200);
      handedOut.push({ flow: `merge saved to ${service}`, url: (saved.body as SavePlaylistResponse).url });
    }
    const region = await person.post('/api/create-region-optimized-playlist', {
      playlistUrl: `https://open.spotify.com/playlist/${spotifyRoadTrip?.id}`,
      targetRegion: 'JP',
      replacements: [],
    });
    expect(region.status, region.text).toBe(200);
    handedOut.push({ flow: 'geo-locked playlist', url: (region.body as { url: string }).url });
  }, 200_000);

  it('the public link page: exact items and searches, in the owner’s storefront', async () => {
    const spotifyRoadTrip = (await listOf('spotify')).find((playlist) => playlist.name === 'Road Trip');
    const tracks = (
      (
        await person.post('/api/fetch-playlist-tracks', {
          playlistUrl: `https://open.spotify.com/playlist/${spotifyRoadTrip?.id}`,
        })
      ).body as { tracks: { id: string }[] }
    ).tracks;
    const links: LinkDto[] = [];
    for (const body of [
      { name: 'A track', url: `https://open.spotify.com/track/${tracks[0]?.id}` },
      { name: 'Road Trip', url: `https://open.spotify.com/playlist/${spotifyRoadTrip?.id}` },
      { name: 'Just a name' },
    ]) {
      const created = await person.post('/api/links', body);
      expect(created.status, created.text).toBe(201);
      links.push(created.body as LinkDto);
    }
    for (const link of links) {
      // A visitor who is not signed in, and the owner.
      for (const reader of [server.newClient(), person]) {
        const page = (await reader.get(`/api/public/links/${link.slug}`)).body as PublicLink;
        for (const service of ['spotify', 'apple'] as const) {
          const open = page.open[service];
          handedOut.push({ flow: `link ${link.name} on ${service}`, url: open?.url ?? '' });
          if (service === 'apple' && open && !open.exact)
            expect(open.url).toMatch(/\/web\/[a-z]{2}\/search\?/);
        }
      }
    }
  }, 120_000);

  it('is an emulator page that answers 200, for every one of them', async () => {
    expect(handedOut.length).toBeGreaterThan(20);
    for (const { flow, url } of handedOut) {
      expect(url, flow).not.toBe('');
      expect(url.startsWith(`${server.url}/sandbox/`), `${flow}: ${url}`).toBe(true);
      const page = await person.get(url.slice(server.url.length));
      expect(page.status, `${flow}: ${url}`).toBe(200);
      if (flow.startsWith('liked songs')) {
        // The page lists the songs the transfer saved, and only their owner sees it.
        expect(page.text).toMatch(/Liked Songs|Favourite Songs/);
        expect(page.text).toMatch(/[1-9]\d* songs/);
        expect((await server.newClient().get(url.slice(server.url.length))).status).toBe(401);
      }
    }
  });
});
