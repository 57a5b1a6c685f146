import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MatchSetView } from '../../shared/api/transfer';
import { connectService } from '../testing/connect-service';
import { startCountingProxy } from '../testing/counting-proxy';
import { startTestServer, type TestClient, type TestServer, testCatalog } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';

/**
 * What a match job costs the destination service, counted on the wire: our clients reach the emulators
 * through a counting proxy (real HTTP both ways), so every call the job makes is seen.
 */
let server: TestServer;
let client: TestClient;
let userId: string;
let proxy: Awaited<ReturnType<typeof startCountingProxy>>;
let calls: string[];
/**
 * An outage of Apple Music: after this many more Apple calls, the proxy answers every Apple call 503 until
 * it has refused one call five times (the client's first try and its four retries: that run fails).
 */
let appleCallsBeforeOutage = Number.POSITIVE_INFINITY;
const refusedInOutage = new Map<string, number>();
function inAppleOutage(call: string): boolean {
  const url = call.split(' ')[1] ?? '';
  if (!url.startsWith('/sandbox/apple/') || appleCallsBeforeOutage-- > 0) return false;
  const refused = (refusedInOutage.get(url) ?? 0) + 1;
  refusedInOutage.set(url, refused);
  if (refused === 5) appleCallsBeforeOutage = Number.POSITIVE_INFINITY;
  return true;
}

beforeAll(async () => {
  server = await startTestServer();
  client = server.newClient();
  const registered = await client.post('/api/auth/register', {
    username: 'counter',
    email: 'counter@example.com',
    password: 'secret-words',
  });
  userId = (registered.body as { user: { id: string } }).user.id;
  await connectService(client, 'spotify');
  await connectService(client, 'apple');
  proxy = await startCountingProxy(server.url, { refuse: inAppleOutage });
  calls = proxy.calls;
  server.deps.providers.internalOrigin = proxy.url;
}, 120_000);
afterAll(async () => {
  await proxy.close();
  await server.close();
});

/** Matches a Spotify playlist for Apple Music as step 3 does, and waits for the job to end. */
async function matchToApple(playlistId: string): Promise<MatchSetView> {
  const started = await client.post('/api/match', {
    sourceService: 'spotify',
    destinationService: 'apple',
    playlistId,
  });
  return waitUntil(
    async () =>
      (await client.get(`/api/match/${(started.body as MatchSetView).matchSetId}`)).body as MatchSetView,
    (view) => view.status !== 'matching',
    120_000,
  );
}

describe('a match job against Apple Music, counted on the wire', () => {
  it('sends full ISRC batches across chunk boundaries, and at most three searches per recording Apple lacks', async () => {
    const catalog = testCatalog();
    // 530 tracks: three chunks of the job (200, 200, 130), with tracks Apple lacks among them.
    const onSpotify = catalog.tracks.filter((track) => track.spotify !== null).slice(0, 530);
    const spotify = await server.deps.providers.forUser(userId, 'spotify');
    const playlist = await spotify.createPlaylist('Counted');
    await spotify.addTracks(
      playlist.id,
      onSpotify.map((track) => `spotify:track:${track.spotify?.id}`),
    );
    const isrcsOnApple = new Set(catalog.tracks.filter((t) => t.apple !== null).map((t) => t.isrc));
    const distinctIsrcs = new Set(onSpotify.map((track) => track.isrc));
    const absentIsrcs = [...distinctIsrcs].filter((isrc) => !isrcsOnApple.has(isrc));
    expect(absentIsrcs.length).toBeGreaterThanOrEqual(5);

    calls.length = 0;
    const matched = await matchToApple(playlist.id);
    expect(matched.status).toBe('ready');
    expect(matched.results).toHaveLength(530);

    const isrcCalls = calls.filter(
      (call) => call.includes('filter%5Bisrc%5D') || call.includes('filter[isrc]'),
    );
    const isrcsAsked = isrcCalls.flatMap((call) =>
      decodeURIComponent(
        new URL(call.split(' ')[1] ?? '', 'http://x').searchParams.get('filter[isrc]') ?? '',
      ).split(','),
    );
    // Every distinct ISRC asked once, 25 to a call, although the chunks hold 200, 200 and 130 tracks.
    expect(isrcsAsked.sort()).toEqual([...distinctIsrcs].sort());
    expect(isrcCalls).toHaveLength(Math.ceil(distinctIsrcs.size / 25));
    // Apple's empty answer for an ISRC leaves one search (title + artist) for that recording and, when it
    // finds nothing worth a review on a page full of look-alikes or for a name in another script, its
    // Latin form and the album it is on (decisions 0033 and 0044).
    const searches = calls.filter((call) => call.includes('/catalog/us/search'));
    expect(searches.length).toBeGreaterThanOrEqual(absentIsrcs.length);
    expect(searches.length).toBeLessThanOrEqual(3 * absentIsrcs.length);

    // A second run of the same playlist is answered from the shared lookup cache.
    calls.length = 0;
    await matchToApple(playlist.id);
    expect(calls.filter((call) => call.includes('/sandbox/apple/') && call.includes('/catalog/'))).toEqual(
      [],
    );
  });

  it('stops mid-way when Apple fails, still reads its source once, and finishes every row in order', async () => {
    // Tracks no earlier test matched (the lookup cache is shared): five chunks, so that the read is still
    // held back, pages short of the end, when the first run stops.
    const onSpotify = testCatalog()
      .tracks.filter((track) => track.spotify !== null)
      .slice(1_000, 2_000);
    const spotify = await server.deps.providers.forUser(userId, 'spotify');
    const playlist = await spotify.createPlaylist('Interrupted');
    await spotify.addTracks(
      playlist.id,
      onSpotify.map((track) => `spotify:track:${track.spotify?.id}`),
    );

    calls.length = 0;
    // Apple fails from its 13th call until one call has failed five times: the job's first run stops in an
    // early chunk, while the read of the source is still held back (decision 0046), and the job runs again.
    appleCallsBeforeOutage = 12;
    const matched = await matchToApple(playlist.id);
    expect(Math.max(...refusedInOutage.values())).toBe(5);
    expect(matched.status).toBe('ready');
    expect(matched.results.map((row) => row.sourceTrack?.id)).toEqual(onSpotify.map((t) => t.spotify?.id));

    // The source was read once, every page of it, though the first run stopped before it needed the last:
    // the playlist with its first 100 items (Spotify embeds them), then each later page of 50 once.
    const path = (call: string) => new URL(call.split(' ')[1] ?? '', 'http://x');
    const playlistReads = calls.filter((call) => path(call).pathname.endsWith(`/playlists/${playlist.id}`));
    expect(playlistReads).toHaveLength(1);
    const pages = calls.filter((call) => call.includes(`/playlists/${playlist.id}/items`));
    const offsets = pages.map((call) => Number(path(call).searchParams.get('offset')));
    expect(offsets.sort((a, b) => a - b)).toEqual(
      Array.from({ length: (onSpotify.length - 100) / 50 }, (_, page) => 100 + page * 50),
    );
  });
});
