import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MatchRuleList } from '../../shared/api/match-rules';
import type { PlaylistSummary } from '../../shared/api/playlists';
import type { MatchRow, MatchSetView, TransferResult } from '../../shared/api/transfer';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';

/**
 * Issue 14, item 3: a fix made by hand on one playlist is remembered as the person's rule and applied to
 * the same song in every later match, through real HTTP, the real database and both emulators.
 */
let server: TestServer;
let client: TestClient;
let userId: string;

async function matchPlaylist(playlistId: string) {
  const started = await client.post('/api/match', {
    sourceService: 'spotify',
    destinationService: 'apple',
    playlistId,
  });
  expect([200, 202]).toContain(started.status);
  const view = started.body as MatchSetView;
  return waitUntil(
    async () => (await client.get(`/api/match/${view.matchSetId}`)).body as MatchSetView,
    (current) => current.status !== 'matching',
    120_000,
  );
}

const rules = async () => ((await client.get('/api/match-rules')).body as MatchRuleList).rules;

beforeAll(async () => {
  server = await startTestServer();
  client = server.newClient();
  const registered = await client.post('/api/auth/register', {
    username: 'rule-maker',
    email: 'rules@example.com',
    password: 'secret-words',
  });
  userId = (registered.body as { user: { id: string } }).user.id;
  await connectService(client, 'spotify');
  await connectService(client, 'apple');
}, 120_000);
afterAll(() => server.close());

describe('match rules', () => {
  let first: MatchSetView;
  let chosenRow: MatchRow;
  let chosenTrackId: string;
  let skippedRow: MatchRow;

  it('remembers a picked candidate and a "not on this service" as the person’s rules', async () => {
    const playlists = (await client.get('/api/playlists/spotify')).body as PlaylistSummary[];
    const roadTrip = playlists.find((playlist) => playlist.name === 'Road Trip') as PlaylistSummary;
    first = await matchPlaylist(roadTrip.id);
    expect(first.status).toBe('ready');
    expect(await rules()).toEqual([]);

    chosenRow = first.results.find(
      (row) => row.candidates.length > 1 && row.status !== 'skipped',
    ) as MatchRow;
    const alternative = chosenRow.candidates.find((c) => c.track.id !== chosenRow.destinationTrack?.id);
    if (!alternative) throw new Error('no alternative candidate');
    chosenTrackId = alternative.track.id;
    const chosen = await client.send('PATCH', `/api/match/${first.matchSetId}/rows/${chosenRow.position}`, {
      action: 'choose',
      trackId: chosenTrackId,
    });
    expect(chosen.status).toBe(200);

    skippedRow = first.results.find(
      (row) => row.status === 'accepted' && row.position !== chosenRow.position,
    ) as MatchRow;
    const skipped = await client.send('PATCH', `/api/match/${first.matchSetId}/rows/${skippedRow.position}`, {
      action: 'skip',
    });
    expect(skipped.status).toBe(200);

    const saved = await rules();
    expect(saved).toHaveLength(2);
    expect(saved).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          sourceService: 'spotify',
          destinationService: 'apple',
          action: 'choose',
          sourceTrack: expect.objectContaining({ name: chosenRow.sourceTrack.name }),
          destinationTrack: expect.objectContaining({ id: chosenTrackId }),
        }),
        expect.objectContaining({
          action: 'skip',
          sourceTrack: expect.objectContaining({ name: skippedRow.sourceTrack.name }),
          destinationTrack: null,
        }),
      ]),
    );
  });

  it('applies the rules to the same songs in another playlist, accepted without review, and the transfer follows them', async () => {
    const spotify = await server.deps.providers.forUser(userId, 'spotify');
    const other = first.results.find(
      (row) => row.status === 'accepted' && ![chosenRow.position, skippedRow.position].includes(row.position),
    ) as MatchRow;
    const created = await spotify.createPlaylist('Same songs, other playlist');
    await spotify.addTracks(
      created.id,
      [skippedRow, other, chosenRow].map((row) => row.sourceTrack.uri ?? ''),
    );

    const second = await matchPlaylist(created.id);
    expect(second.status).toBe('ready');
    const [skipped, untouched, chosen] = second.results;
    expect(chosen).toMatchObject({
      status: 'accepted',
      decidedBy: 'person',
      destinationTrack: expect.objectContaining({ id: chosenTrackId }),
    });
    expect(chosen?.reasons[0]).toBe('Your rule');
    expect(skipped).toMatchObject({ status: 'skipped', decidedBy: 'person', destinationTrack: null });
    expect(skipped?.reasons[0]).toBe('Your rule');
    expect(untouched).toMatchObject({ decidedBy: 'engine' });
    expect(untouched?.reasons).not.toContain('Your rule');

    const started = await client.post('/api/transfer', {
      sourceService: 'spotify',
      destinationService: 'apple',
      playlistId: created.id,
      matchSetId: second.matchSetId,
    });
    expect([200, 202]).toContain(started.status);
    const transfer = await waitUntil(
      async () =>
        (await client.get(`/api/transfers/${(started.body as TransferResult).transferId}`))
          .body as TransferResult,
      (current) => current.status === 'succeeded' || current.status === 'failed',
      120_000,
    );
    expect(transfer.status).toBe('succeeded');
    expect(transfer.addedTracks).toBe(2);
    const apple = await server.deps.providers.forUser(userId, 'apple');
    const written = await apple.getPlaylist(transfer.playlistId);
    const ids = written.entries.flatMap((entry) => (entry.kind === 'track' ? [entry.track.id] : []));
    expect(ids).toEqual([untouched?.destinationTrack?.id, chosenTrackId]);
  });

  it('forgets a rule when its row is reset, and deletes one on request (only the owner’s)', async () => {
    const reset = await client.send('PATCH', `/api/match/${first.matchSetId}/rows/${chosenRow.position}`, {
      action: 'reset',
    });
    expect(reset.status).toBe(200);
    const left = await rules();
    expect(left.map((rule) => rule.action)).toEqual(['skip']);
    const ruleId = left[0]?.id ?? '';

    const stranger = server.newClient();
    await stranger.post('/api/auth/register', {
      username: 'rule-stranger',
      email: 'stranger@example.com',
      password: 'secret-words',
    });
    expect((await stranger.get('/api/match-rules')).body).toEqual({ rules: [] });
    expect((await stranger.send('DELETE', `/api/match-rules/${ruleId}`)).status).toBe(404);
    expect((await client.send('DELETE', '/api/match-rules/not-an-id')).status).toBe(404);
    expect((await server.newClient().get('/api/match-rules')).status).toBe(401);

    expect((await client.send('DELETE', `/api/match-rules/${ruleId}`)).status).toBe(204);
    expect(await rules()).toEqual([]);
    expect((await client.send('DELETE', `/api/match-rules/${ruleId}`)).status).toBe(404);
  });
  it('edits a rule: from "not on this service" to a track chosen from a search on the destination, and back', async () => {
    const row = first.results.find((item) => item.status === 'accepted' && item.destinationTrack) as MatchRow;
    const skipped = await client.send('PATCH', `/api/match/${first.matchSetId}/rows/${row.position}`, {
      action: 'skip',
    });
    expect(skipped.status).toBe(200);
    const rule = (await rules()).find((item) => item.sourceTrack.name === row.sourceTrack.name);
    if (!rule) throw new Error('no rule for the skipped row');
    expect(rule.action).toBe('skip');

    // A search on the destination, scored against the rule's song: the engine's track is among the best.
    const search = await client.get(
      `/api/match-rules/${rule.id}/search?q=${encodeURIComponent(`${row.sourceTrack.name} ${row.sourceTrack.artists[0] ?? ''}`)}`,
    );
    expect(search.status, search.text).toBe(200);
    const results = search.body as { track: { id: string; name: string }; confidence: number }[];
    expect(results.length).toBeGreaterThan(0);
    expect(results[0]?.confidence).toBeGreaterThanOrEqual(results.at(-1)?.confidence ?? 0);
    const pick = results.find((result) => result.track.id === row.destinationTrack?.id) ?? results[0];
    if (!pick) throw new Error('no search result');

    const edited = await client.send('PATCH', `/api/match-rules/${rule.id}`, {
      action: 'choose',
      trackId: pick.track.id,
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toEqual(
      expect.objectContaining({
        id: rule.id,
        action: 'choose',
        destinationTrack: expect.objectContaining({ id: pick.track.id, name: pick.track.name }),
      }),
    );
    expect((await rules()).find((item) => item.id === rule.id)?.action).toBe('choose');

    // Bad input: a track the destination does not have, a bad body, an empty search, another person's rule.
    const unknown = await client.send('PATCH', `/api/match-rules/${rule.id}`, {
      action: 'choose',
      trackId: 'no-such-track',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('not found on the destination service');
    expect((await client.send('PATCH', `/api/match-rules/${rule.id}`, { action: 'always' })).status).toBe(
      400,
    );
    expect((await client.get(`/api/match-rules/${rule.id}/search?q=%20`)).status).toBe(400);
    const stranger = server.newClient();
    await stranger.post('/api/auth/register', {
      username: 'rule-editor-2',
      email: 'editor2@example.com',
      password: 'secret-words',
    });
    expect((await stranger.send('PATCH', `/api/match-rules/${rule.id}`, { action: 'skip' })).status).toBe(
      404,
    );
    expect((await stranger.get(`/api/match-rules/${rule.id}/search?q=x`)).status).toBe(404);
    expect((await rules()).find((item) => item.id === rule.id)?.destinationTrack?.id).toBe(pick.track.id);

    const back = await client.send('PATCH', `/api/match-rules/${rule.id}`, { action: 'skip' });
    expect(back.status).toBe(200);
    expect(back.body).toEqual(expect.objectContaining({ action: 'skip', destinationTrack: null }));
  });
});
