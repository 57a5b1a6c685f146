import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaylistSummary } from '../../shared/api/playlists';
import type { MatchSetView, TransferResult } from '../../shared/api/transfer';
import { users } from '../db/schema';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';

/** Decision 0006: nothing from the review band (70-89) is written until the person accepts it. */
let server: TestServer;
let client: TestClient;
let userId: string;

beforeAll(async () => {
  server = await startTestServer();
  client = server.newClient();
  const registered = await client.post('/api/auth/register', {
    username: 'reviewer',
    email: 'reviewer@example.com',
    password: 'secret-words',
  });
  userId = (registered.body as { user: { id: string } }).user.id;
  await server.deps.db.update(users).set({ plan: 'pro' }).where(eq(users.id, userId));
  await connectService(client, 'spotify');
  await connectService(client, 'apple');
}, 120_000);
afterAll(() => server.close());

async function match(playlistId: string) {
  const started = await client.post('/api/match', {
    sourceService: 'spotify',
    destinationService: 'apple',
    playlistId,
  });
  const { matchSetId } = started.body as MatchSetView;
  return waitUntil(
    async () => (await client.get(`/api/match/${matchSetId}`)).body as MatchSetView,
    (view) => view.status !== 'matching',
    120_000,
  );
}

async function transfer(playlistId: string, matchSetId: string) {
  const started = await client.post('/api/transfer', {
    sourceService: 'spotify',
    destinationService: 'apple',
    playlistId,
    includeUnmatched: false,
    matchSetId,
  });
  expect([200, 202]).toContain(started.status);
  const result = await waitUntil(
    async () =>
      (await client.get(`/api/transfers/${(started.body as TransferResult).transferId}`))
        .body as TransferResult,
    (current) => current.status === 'succeeded' || current.status === 'failed',
    120_000,
  );
  expect(result.status, result.error ?? '').toBe('succeeded');
  const apple = await server.deps.providers.forUser(userId, 'apple');
  const written = await apple.getPlaylist(result.playlistId);
  return written.entries.flatMap((entry) => (entry.kind === 'track' ? [entry.track.id] : []));
}

describe('the review band', () => {
  it('adds review rows only once the person accepts them, all at once with one call', async () => {
    // A playlist file whose first rows are catalog songs with a typo in the title and 4 s off: the same
    // song with fuzzier metadata, which the engine proposes for review rather than accepting.
    const playlists = (await client.get('/api/playlists/spotify')).body as PlaylistSummary[];
    const road = playlists.find((p) => p.name === 'Road Trip') as PlaylistSummary;
    const tracks = (
      (
        await client.post('/api/fetch-playlist-tracks', {
          playlistUrl: `https://open.spotify.com/playlist/${road.id}`,
        })
      ).body as { tracks: { name: string; artists: string[]; album: string; durationMs: number }[] }
    ).tracks.slice(0, 6);
    const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;
    const csv = [
      'Track Name,Artist Name(s),Album Name,Duration (ms)',
      ...tracks.map((t, i) =>
        [
          i < 3 ? `${t.name}s` : t.name,
          t.artists.join(', '),
          t.album,
          String(t.durationMs + (i < 3 ? 4_000 : 0)),
        ]
          .map(quote)
          .join(','),
      ),
    ].join('\n');
    const imported = await client.post('/api/import/csv?fileName=fuzzy.csv', undefined, {
      raw: csv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(imported.status, imported.text).toBe(201);
    const playlist = (imported.body as { playlist: PlaylistSummary }).playlist;
    const view = await match(playlist.id);
    if (!view.results.some((row) => row.status === 'review'))
      throw new Error(
        `no row in the review band: ${JSON.stringify(view.results.map((r) => [r.status, r.confidence, r.sourceTrack, r.reasons]))}`,
      );
    const inReview = view.results.filter((row) => row.status === 'review');
    const reviewIds = inReview.map((row) => row.destinationTrack?.id);
    for (const row of inReview) expect(row.destinationTrack).not.toBeNull();

    const untouched = await transfer(playlist.id, view.matchSetId);
    for (const id of reviewIds) expect(untouched).not.toContain(id);
    const acceptedIds = view.results
      .filter((row) => row.status === 'accepted')
      .map((row) => row.destinationTrack?.id);
    expect(untouched).toEqual(acceptedIds);

    const again = await match(playlist.id);
    const accepted = await client.post(`/api/match/${again.matchSetId}/accept-review`);
    expect(accepted.status).toBe(200);
    const after = accepted.body as MatchSetView;
    expect(after.results.filter((row) => row.status === 'review')).toEqual([]);
    for (const row of after.results.filter((r) => inReview.some((x) => x.position === r.position))) {
      expect(row).toMatchObject({ status: 'accepted', decidedBy: 'person' });
      expect(row.reasons[0]).toBe('Accepted by you');
    }
    const everything = await transfer(playlist.id, again.matchSetId);
    for (const id of reviewIds) expect(everything).toContain(id);
  });
});
