import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchReview, BatchView } from '../../shared/api/batches';
import type { MatchRuleList } from '../../shared/api/match-rules';
import type { PlaylistSummary } from '../../shared/api/playlists';
import type { Candidate, MatchRow, MatchSetView } from '../../shared/api/transfer';
import { users } from '../db/schema';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';

/**
 * Issue 23 item 1 through real HTTP: a batch never hides the tracks that did not match. Five playlists of
 * a fixed sandbox library (scenario `batch-2`, decision 0022) whose Apple Music side lacks some of their
 * songs: each playlist's counts add up (`total = matched + inReview + unmatched`), the one review lists
 * every row in review and every unmatched row, one is found by the person's own search and one is marked
 * "not on this service" (saved as their rule), and once moved each playlist lists what it did not add,
 * with reasons, verified, with its CSV and one CSV for the whole batch.
 */
const SCENARIO = 'batch-2';
const PLAYLISTS = ['Road Trip', 'Late Night Jazz', 'Gym Rotation', 'K-Pop Favourites', 'Around the World'];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

async function signUp(username: string) {
  const client = server.newClient();
  const registered = await client.post('/api/auth/register', {
    username,
    email: `${username}@example.com`,
    password: 'secret-words',
  });
  const userId = (registered.body as { user: { id: string } }).user.id;
  await server.deps.db.update(users).set({ plan: 'pro' }).where(eq(users.id, userId));
  await connectService(client, 'spotify', { account: 'own', scenario: SCENARIO });
  await connectService(client, 'apple', { account: 'own', scenario: SCENARIO });
  return client;
}

const batchView = async (client: TestClient, batchId: string) =>
  (await client.get(`/api/batches/${batchId}`)).body as BatchView;
const review = async (client: TestClient, batchId: string) =>
  (await client.get(`/api/batches/${batchId}/review`)).body as BatchReview;
const rowsOf = async (client: TestClient, matchSetId: string) =>
  ((await client.get(`/api/match/${matchSetId}`)).body as MatchSetView).results;

/** Quoted CSV cells aside, a line's cells (the files here hold no commas inside names that matter). */
const csvLines = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');

describe('a batch shows what did not match', () => {
  it('counts, reviews, fixes by hand, and lists and exports what was not moved', async () => {
    const client = await signUp('batchunmatched');
    const listed = (await client.get('/api/playlists/spotify')).body as PlaylistSummary[];
    const picked = PLAYLISTS.map((name) => listed.find((item) => item.name === name));
    expect(picked.every(Boolean)).toBe(true);
    const created = await client.post('/api/batches', {
      sourceService: 'spotify',
      destinationService: 'apple',
      playlistIds: picked.map((item) => item?.id),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { batchId } = created.body as { batchId: string };
    // Nothing moved yet: no batch CSV.
    expect((await client.get(`/api/batches/${batchId}/csv`)).status).toBe(404);

    const matched = await waitUntil(
      () => batchView(client, batchId),
      (view) => view.status !== 'matching',
      120_000,
    );
    expect(matched.status, matched.error ?? '').toBe('review');
    const byStatus = new Map<string, MatchRow[]>();
    for (const item of matched.playlists) {
      const rows = await rowsOf(client, item.matchSetId);
      byStatus.set(item.matchSetId, rows);
      const { total, matched: accepted, inReview, unmatched } = item.counts;
      expect(total).toBe(rows.length);
      expect(accepted + inReview + unmatched).toBe(total);
      expect(accepted).toBe(rows.filter((row) => row.status === 'accepted').length);
      expect(unmatched).toBe(
        rows.filter((row) => row.status !== 'accepted' && row.status !== 'review').length,
      );
    }
    const unmatchedTotal = matched.playlists.reduce((sum, item) => sum + item.counts.unmatched, 0);
    expect(unmatchedTotal).toBeGreaterThanOrEqual(2);

    // The one review: every row in review and every unmatched row of every playlist, in batch order.
    const first = await review(client, batchId);
    const expected = matched.playlists.flatMap((item) =>
      (byStatus.get(item.matchSetId) ?? [])
        .filter(
          (row) => row.status === 'unmatched' || (row.status === 'review' && row.decidedBy !== 'person'),
        )
        .map((row) => `${item.matchSetId}:${row.position}`),
    );
    expect(first.rows.map((entry) => `${entry.matchSetId}:${entry.row.position}`)).toEqual(expected);
    const unmatchedRows = first.rows.filter((entry) => entry.row.status === 'unmatched');
    expect(unmatchedRows.length).toBeGreaterThanOrEqual(2);
    for (const entry of first.rows) {
      expect(entry.playlistName).toBe(matched.playlists.find((p) => p.matchSetId === entry.matchSetId)?.name);
    }

    // One unmatched row is found by the person's own search; another is "not on this service".
    const [searched, notThere] = unmatchedRows as [(typeof unmatchedRows)[0], (typeof unmatchedRows)[0]];
    const query = encodeURIComponent(searched.row.sourceTrack.artists[0] ?? searched.row.sourceTrack.name);
    const found = await client.get(
      `/api/match/${searched.matchSetId}/rows/${searched.row.position}/search?q=${query}`,
    );
    expect(found.status, found.text).toBe(200);
    const [pick] = found.body as Candidate[];
    expect(pick).toBeDefined();
    if (!pick) throw new Error('the search found nothing');
    const chosen = await client.send(
      'PATCH',
      `/api/match/${searched.matchSetId}/rows/${searched.row.position}`,
      {
        action: 'manual',
        track: { ...pick.track, uri: pick.track.uri ?? pick.track.id },
      },
    );
    expect(chosen.status, chosen.text).toBe(200);
    expect((chosen.body as MatchRow).status).toBe('accepted');
    const skipped = await client.send(
      'PATCH',
      `/api/match/${notThere.matchSetId}/rows/${notThere.row.position}`,
      {
        action: 'skip',
      },
    );
    expect(skipped.status, skipped.text).toBe(200);
    const rules = (await client.get('/api/match-rules')).body as MatchRuleList;
    expect(
      rules.rules.some(
        (rule) => rule.action === 'skip' && rule.sourceTrack.name === notThere.row.sourceTrack.name,
      ),
    ).toBe(true);
    const second = await review(client, batchId);
    expect(second.rows).toHaveLength(first.rows.length - 2);
    const afterFix = await batchView(client, batchId);
    const fixedPlaylist = afterFix.playlists.find((item) => item.matchSetId === searched.matchSetId);
    const before = matched.playlists.find((item) => item.matchSetId === searched.matchSetId);
    expect(fixedPlaylist?.counts.matched).toBe((before?.counts.matched ?? 0) + 1);

    // Moved: each playlist lists what it did not add, with the reason, verified.
    expect((await client.post(`/api/batches/${batchId}/transfer`, {})).status).toBe(202);
    const moved = await waitUntil(
      () => batchView(client, batchId),
      (view) => view.status === 'done' || view.status === 'failed',
      120_000,
    );
    expect(moved.status, moved.error ?? '').toBe('done');
    let notFoundTotal = 0;
    for (const item of moved.playlists) {
      expect(item.status, item.error ?? '').toBe('done');
      const rows = await rowsOf(client, item.matchSetId);
      const notAdded = rows.filter((row) => row.status !== 'accepted');
      expect(item.notFound.map((entry) => entry.position)).toEqual(notAdded.map((row) => row.position));
      expect(item.notFound.every((entry) => entry.reason.length > 0)).toBe(true);
      expect(item.counts.added).toBe(rows.length - notAdded.length);
      expect(item.counts.verified).toBe(item.counts.added);
      notFoundTotal += item.notFound.length;

      const csv = await client.get(`/api/export/csv/${item.transferId}`);
      expect(csv.status).toBe(200);
      expect(csvLines(csv.text)).toHaveLength(rows.length + 1);
    }
    expect(notFoundTotal).toBe(unmatchedTotal - 1);
    const skippedEntry = moved.playlists
      .find((item) => item.matchSetId === notThere.matchSetId)
      ?.notFound.find((entry) => entry.position === notThere.row.position);
    expect(skippedEntry?.reason).toBe('Skipped by you');

    // One CSV for the whole batch: every playlist's lines, led by its name, with the reasons.
    const all = await client.get(`/api/batches/${batchId}/csv`);
    expect(all.status).toBe(200);
    expect(all.headers.get('content-disposition')).toContain('batch_transfer.csv');
    const lines = csvLines(all.text);
    expect(lines[0]).toMatch(/^Playlist,Track Name,Artist,/);
    expect(lines).toHaveLength(1 + moved.playlists.reduce((sum, item) => sum + item.counts.total, 0));
    for (const item of moved.playlists) {
      expect(lines.filter((line) => line.startsWith(`${item.name},`))).toHaveLength(item.counts.total);
    }
    expect(lines.filter((line) => line.includes('Skipped by you'))).toHaveLength(1);
    expect(lines.filter((line) => line.includes(',not found,')).length).toBe(notFoundTotal - 1);

    // Someone else's batch is not theirs to read.
    const stranger = server.newClient();
    await stranger.post('/api/auth/register', {
      username: 'batchstranger',
      email: 'batchstranger@example.com',
      password: 'secret-words',
    });
    expect((await stranger.get(`/api/batches/${batchId}/csv`)).status).toBe(404);
    expect((await stranger.get(`/api/batches/${batchId}/review`)).status).toBe(404);
  }, 300_000);
});
