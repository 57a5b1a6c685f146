import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateRegionPlaylistResponse, GeoAlternativesResponse } from '../../shared/api/geo-lock';
import type { FetchPlaylistTracksResponse, PlaylistSummary, Track } from '../../shared/api/playlists';
import { TARGET_REGIONS } from '../../shared/services';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';

let server: TestServer;
let sam: TestClient;
let samId: string;
let spotifyLists: PlaylistSummary[];
let appleLists: PlaylistSummary[];
const spotifyLink = (id: string) => `https://open.spotify.com/playlist/${id}`;
const appleLink = (id: string) => `https://music.apple.com/library/playlist/${id}`;

async function tracksOf(url: string) {
  const answer = await sam.post('/api/fetch-playlist-tracks', { playlistUrl: url });
  expect(answer.status, answer.text).toBe(200);
  return (answer.body as FetchPlaylistTracksResponse).tracks;
}
const find = (lists: PlaylistSummary[], name: string) => {
  const found = lists.find((playlist) => playlist.name === name);
  if (!found) throw new Error(`no demo playlist ${name}`);
  return found;
};

beforeAll(async () => {
  server = await startTestServer();
  sam = server.newClient();
  const registered = await sam.post('/api/auth/register', {
    username: 'sam',
    email: 'sam@example.com',
    password: 'secret123',
  });
  samId = (registered.body as { user: { id: string } }).user.id;
  await connectService(sam, 'spotify');
  await connectService(sam, 'apple');
  spotifyLists = (await sam.get('/api/playlists/spotify')).body as PlaylistSummary[];
  appleLists = (await sam.get('/api/playlists/apple')).body as PlaylistSummary[];
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const analyze = (client: TestClient, body: unknown) =>
  client.post('/api/claude/geo-locked-alternatives', body);

describe('POST /api/claude/geo-locked-alternatives: input', () => {
  it('rejects unknown regions, empty track lists and bad playlist URLs with a message', async () => {
    const tracks = await tracksOf(spotifyLink(find(spotifyLists, 'Road Trip').id));
    const unknownSource = await analyze(sam, { tracks, sourceRegion: 'XX', targetRegion: 'JP' });
    expect(unknownSource.status).toBe(400);
    expect((unknownSource.body as { message: string }).message).toBe(
      'Unknown source region: use one of US, GB, CA, AU, DE, FR.',
    );
    const unknownTarget = await analyze(sam, { tracks, sourceRegion: 'US', targetRegion: 'US' });
    expect(unknownTarget.status).toBe(400);
    expect((unknownTarget.body as { message: string }).message).toBe(
      'Unknown target region: use one of JP, KR, BR, IN, ZA, RU.',
    );
    const empty = await analyze(sam, { tracks: [], sourceRegion: 'US', targetRegion: 'JP' });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ message: 'This playlist has no tracks to analyze.' });

    const blank = await sam.post('/api/fetch-playlist-tracks', { playlistUrl: '   ' });
    expect(blank.body).toEqual({ message: 'Please enter a playlist URL to analyze' });
    const notAPlaylist = await sam.post('/api/fetch-playlist-tracks', {
      playlistUrl: 'https://example.com/x',
    });
    expect(notAPlaylist.status).toBe(400);
    const emptyPlaylist = await tracksOf(spotifyLink(find(spotifyLists, 'New Playlist').id));
    expect(emptyPlaylist).toEqual([]);
    expect(
      (await analyze(sam, { tracks: emptyPlaylist, sourceRegion: 'US', targetRegion: 'JP' })).status,
    ).toBe(400);
  });

  it('needs a sign-in (it spends the shared catalog quota), and checks Apple tracks without an Apple connection', async () => {
    const spotifyTracks = await tracksOf(spotifyLink(find(spotifyLists, 'Road Trip').id));
    const appleTracks = await tracksOf(appleLink(find(appleLists, 'Around the World').id));
    for (const tracks of [spotifyTracks, appleTracks]) {
      const anonymous = await analyze(server.newClient(), { tracks, sourceRegion: 'US', targetRegion: 'JP' });
      expect(anonymous.status).toBe(401);
    }
    const unconnected = server.newClient();
    await unconnected.post('/api/auth/register', {
      username: 'unconnected',
      email: 'unconnected@example.com',
      password: 'secret123',
    });
    const answer = await analyze(unconnected, {
      tracks: appleTracks,
      sourceRegion: 'US',
      targetRegion: 'JP',
    });
    expect(answer.status, answer.text).toBe(200);
    expect((answer.body as GeoAlternativesResponse).checked).toBe(new Set(appleTracks.map((t) => t.id)).size);
  });
});

describe('geo-lock properties over the sandbox catalog', () => {
  it.each(['spotify', 'apple'] as const)(
    '%s: alternatives only for tracks locked in the region, each playable there',
    async (service) => {
      const lists = service === 'spotify' ? spotifyLists : appleLists;
      const link = service === 'spotify' ? spotifyLink : appleLink;
      const provider = await server.deps.providers.forUser(samId, service);
      let alternativesSeen = 0;
      for (const name of ['Around the World', 'K-Pop Favourites', 'Late Night Jazz']) {
        const tracks: Track[] = await tracksOf(link(find(lists, name).id));
        for (const region of TARGET_REGIONS) {
          const answer = await analyze(sam, { tracks, sourceRegion: 'US', targetRegion: region });
          expect(answer.status, answer.text).toBe(200);
          const result = answer.body as GeoAlternativesResponse;
          const ids = [...new Set(tracks.map((t) => t.id))];
          const available = await provider.getAvailability(ids, region);
          const locked = ids.filter((id) => available.get(id) !== true);
          expect(result.checked).toBe(ids.length);
          expect(result.unavailable).toBe(locked.length);
          expect(result.alternatives.map((a) => a.original.id).sort()).toEqual([...locked].sort());
          const offered = result.alternatives.flatMap((a) => (a.alternative ? [a.alternative.id] : []));
          const playable = await provider.getAvailability(offered, region);
          for (const id of offered) expect(playable.get(id), `${name} ${region} ${id}`).toBe(true);
          for (const entry of result.alternatives) {
            expect(entry.explanation.length).toBeGreaterThan(0);
            if (entry.alternative === null) expect(entry).toMatchObject({ kind: 'none', confidence: 0 });
            else expect(entry.kind).not.toBe('none');
          }
          alternativesSeen += offered.length;
        }
      }
      // The sandbox locks tracks only where another release is available, so there is something to find.
      expect(alternativesSeen).toBeGreaterThan(0);
    },
    120_000,
  );

  it('offers the same recording first: same ISRC, full confidence', async () => {
    const tracks = await tracksOf(spotifyLink(find(spotifyLists, 'Around the World').id));
    const result = (await analyze(sam, { tracks, sourceRegion: 'US', targetRegion: 'JP' }))
      .body as GeoAlternativesResponse;
    const provider = await server.deps.providers.forUser(samId, 'spotify');
    const sameRecording = result.alternatives.filter((a) => a.kind === 'same_recording');
    expect(sameRecording.length).toBeGreaterThan(0);
    for (const entry of sameRecording) {
      const original = await provider.getTrack(entry.original.id);
      const alternative = await provider.getTrack(entry.alternative?.id ?? '');
      expect(alternative?.isrc).toBe(original?.isrc);
      expect(entry.confidence).toBeGreaterThanOrEqual(95);
    }
  });
});

describe('a person on their own Spotify account (their country answers their token)', () => {
  it('is told what is locked in the target region, not in their own country', async () => {
    const kim = server.newClient();
    const registered = await kim.post('/api/auth/register', {
      username: 'kim-own',
      email: 'kim-own@example.com',
      password: 'secret123',
    });
    const kimId = (registered.body as { user: { id: string } }).user.id;
    await connectService(kim, 'spotify', { account: 'own', scenario: 'geo-lock-kim' });
    const ownLists = (await kim.get('/api/playlists/spotify')).body as PlaylistSummary[];
    const own = await server.deps.providers.forUser(kimId, 'spotify');
    const catalog = server.deps.providers.spotifyCatalog();
    if (!catalog) throw new Error('the sandbox has an app client secret');
    let differs = 0;
    for (const playlist of ownLists
      .filter((list) => list.kind === 'playlist' && list.trackCount > 0)
      .slice(0, 3)) {
      const answer = await kim.post('/api/fetch-playlist-tracks', { playlistUrl: spotifyLink(playlist.id) });
      const tracks = (answer.body as FetchPlaylistTracksResponse).tracks;
      const ids = [...new Set(tracks.map((t) => t.id))];
      for (const region of TARGET_REGIONS) {
        const result = (await analyze(kim, { tracks, sourceRegion: 'US', targetRegion: region }))
          .body as GeoAlternativesResponse;
        const inRegion = await catalog.getAvailability(ids, region);
        const lockedThere = ids.filter((id) => inRegion.get(id) !== true);
        expect(result.unavailable, `${playlist.name} ${region}`).toBe(lockedThere.length);
        // The person's own token answers for their country: it would have given another count here.
        const asAsked = await own.getAvailability(ids, region);
        if (ids.filter((id) => asAsked.get(id) !== true).length !== lockedThere.length) differs += 1;
      }
    }
    expect(differs, 'the regions differ from the person’s country somewhere').toBeGreaterThan(0);
  });
});

describe('POST /api/create-region-optimized-playlist', () => {
  it('creates the playlist with the chosen alternatives swapped in', async () => {
    const source = find(spotifyLists, 'Around the World');
    const tracks = await tracksOf(spotifyLink(source.id));
    const result = (await analyze(sam, { tracks, sourceRegion: 'US', targetRegion: 'JP' }))
      .body as GeoAlternativesResponse;
    const withAlternative = result.alternatives.filter((a) => a.alternative !== null);
    expect(withAlternative.length).toBeGreaterThan(1);
    const [chosen, kept] = withAlternative;
    if (!chosen || !kept) throw new Error('need two alternatives');

    const created = await sam.post('/api/create-region-optimized-playlist', {
      playlistUrl: spotifyLink(source.id),
      targetRegion: 'JP',
      replacements: [chosen.original.id],
    });
    expect(created.status, created.text).toBe(200);
    const answer = created.body as CreateRegionPlaylistResponse;
    expect(answer.replaced).toBe(1);
    const made = await tracksOf(spotifyLink(answer.playlistId));
    const ids = made.map((t) => t.id);
    expect(ids).toContain(chosen.alternative?.id);
    expect(ids).not.toContain(chosen.original.id);
    expect(ids).toContain(kept.original.id);
    expect(ids.indexOf(chosen.alternative?.id ?? '')).toBe(
      tracks.findIndex((t) => t.id === chosen.original.id),
    );
    const lists = (await sam.get('/api/playlists/spotify')).body as PlaylistSummary[];
    expect(lists.some((p) => p.id === answer.playlistId && p.name === 'Around the World (JP)')).toBe(true);
  }, 60_000);

  it('validates sign-in, URL and region', async () => {
    expect(
      (
        await server
          .newClient()
          .post('/api/create-region-optimized-playlist', { playlistUrl: 'x', targetRegion: 'JP' })
      ).status,
    ).toBe(401);
    const blank = await sam.post('/api/create-region-optimized-playlist', {
      playlistUrl: '',
      targetRegion: 'JP',
    });
    expect(blank.body).toEqual({ message: 'Please enter a playlist URL to analyze' });
    const region = await sam.post('/api/create-region-optimized-playlist', {
      playlistUrl: spotifyLink(find(spotifyLists, 'Road Trip').id),
      targetRegion: 'FR',
    });
    expect(region.status).toBe(400);
    const bad = await sam.post('/api/create-region-optimized-playlist', {
      playlistUrl: 'https://example.com/x',
      targetRegion: 'JP',
    });
    expect(bad.status).toBe(400);
  });
});
