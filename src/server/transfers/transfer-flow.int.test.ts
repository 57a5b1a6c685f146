import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaylistSummary } from '../../shared/api/playlists';
import type { Candidate, MatchRow, MatchSetView, TransferResult } from '../../shared/api/transfer';
import { matchRows, providerConnections } from '../db/schema';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';

let server: TestServer;
let client: TestClient;
let userId: string;

const message = (body: unknown) => (body as { message?: string }).message;

async function matchPlaylist(
  source: 'spotify' | 'apple',
  destination: 'spotify' | 'apple',
  playlistId: string,
) {
  const started = await client.post('/api/match', {
    sourceService: source,
    destinationService: destination,
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

async function finishTransfer(body: Record<string, unknown>) {
  const started = await client.post('/api/transfer', body);
  expect([200, 202], message(started.body)).toContain(started.status);
  const transfer = started.body as TransferResult;
  return waitUntil(
    async () => (await client.get(`/api/transfers/${transfer.transferId}`)).body as TransferResult,
    (current) => current.status === 'succeeded' || current.status === 'failed',
    120_000,
  );
}

beforeAll(async () => {
  server = await startTestServer();
  client = server.newClient();
  const registered = await client.post('/api/auth/register', {
    username: 'mover',
    email: 'mover@example.com',
    password: 'secret-words',
  });
  userId = (registered.body as { user: { id: string } }).user.id;
}, 120_000);
afterAll(() => server.close());

describe('connecting services', () => {
  it('connects Spotify and Apple Music through their consent pages and reports it in status', async () => {
    expect(await connectService(client, 'spotify')).toBe('/transfer?connected=spotify');
    expect(await connectService(client, 'apple', { returnTo: '/account' })).toBe('/account?connected=apple');
    expect((await client.get('/api/auth/status')).body).toMatchObject({
      spotifyConnected: true,
      appleConnected: true,
    });
  });

  it('sends a person who cancels on the consent page back where they started, saying so', async () => {
    const other = server.newClient();
    await other.post('/api/auth/register', {
      username: 'hesitant',
      email: 'h@example.com',
      password: 'secret-words',
    });
    for (const service of ['spotify', 'apple'] as const) {
      const location = new URL(
        await connectService(other, service, { decision: 'deny', returnTo: '/account' }),
        'http://x',
      );
      expect(location.pathname).toBe('/account');
      expect(location.searchParams.get('connectError')).toMatch(/cancelled, so nothing was connected/);
    }
    expect((await other.get('/api/auth/status')).body).toMatchObject({
      spotifyConnected: false,
      appleConnected: false,
    });
  });

  it('stores provider tokens encrypted', async () => {
    const connection = await server.deps.providers.connections.get(userId, 'spotify');
    expect(connection?.tokens.kind).toBe('spotify');
    const rows = await server.deps.db
      .select({ sealed: providerConnections.encryptedTokens })
      .from(providerConnections)
      .where(eq(providerConnections.userId, userId));
    const sealed = rows.map((row) => row.sealed);
    expect(sealed.length).toBe(2);
    for (const value of sealed) {
      expect(value.startsWith('v1.')).toBe(true);
      expect(value).not.toContain('accessToken');
    }
  });

  it('refuses a replayed or forged OAuth callback', async () => {
    const forged = await client.get('/api/auth/spotify/callback?code=abc&state=not-ours');
    expect(forged.status).toBe(302);
    const location = new URL(forged.headers.get('location') ?? '', 'http://x');
    expect(location.pathname).toBe('/transfer');
    expect(location.searchParams.get('connectError')).toBe(
      'This Spotify sign-in link is unknown, expired or was already used. Please try connecting again.',
    );
  });

  it('lists the person’s playlists, with clear errors for a bad service, signed out, or not connected', async () => {
    const spotify = await client.get('/api/playlists/spotify');
    expect(spotify.status).toBe(200);
    const names = (spotify.body as PlaylistSummary[]).map((playlist) => playlist.name);
    expect(names).toEqual(expect.arrayContaining(['Road Trip', 'Everything I Love', 'New Playlist']));

    const unknown = await client.get('/api/playlists/deezer');
    expect(unknown.status).toBe(400);
    expect(message(unknown.body)).toBe('Unknown service: use "spotify" or "apple".');

    const stranger = server.newClient();
    expect((await stranger.get('/api/playlists/spotify')).status).toBe(401);
    await stranger.post('/api/auth/register', {
      username: 'stranger',
      email: 's@example.com',
      password: 'secret-words',
    });
    const notConnected = await stranger.get('/api/playlists/apple');
    expect(notConnected.status).toBe(409);
    expect(message(notConnected.body)).toBe('Please connect to Apple Music before continuing.');
  });
});

describe('matching, fixing and transferring', () => {
  let roadTrip: PlaylistSummary;
  let view: MatchSetView;

  it('matches a Spotify playlist against Apple Music with confidence and reasons for every track', async () => {
    const playlists = (await client.get('/api/playlists/spotify')).body as PlaylistSummary[];
    roadTrip = playlists.find((playlist) => playlist.name === 'Road Trip') as PlaylistSummary;
    view = await matchPlaylist('spotify', 'apple', roadTrip.id);
    expect(view.status).toBe('ready');
    expect(view.results).toHaveLength(roadTrip.trackCount);
    expect(view.results.map((row) => row.position)).toEqual([...Array(roadTrip.trackCount).keys()]);
    const accepted = view.results.filter((row) => row.status === 'accepted');
    expect(accepted.length / view.results.length).toBeGreaterThan(0.8);
    for (const row of accepted) {
      expect(row.destinationTrack).not.toBeNull();
      expect(row.reasons.length).toBeGreaterThan(0);
    }
  });

  it('rejects matching requests with missing data or the same service on both sides', async () => {
    const missing = await client.post('/api/match', { sourceService: 'spotify' });
    expect(missing.status).toBe(400);
    expect(message(missing.body)).toBe('Missing required data for matching');
    const same = await client.post('/api/match', {
      sourceService: 'apple',
      destinationService: 'apple',
      playlistId: 'x',
    });
    expect(message(same.body)).toBe('Source and destination services must be different.');
  });

  it('lets the person pick another candidate, search by hand and skip, and the transfer follows their choices', async () => {
    const withAlternatives = view.results.find(
      (row) => row.candidates.length > 1 && row.status !== 'skipped',
    ) as MatchRow;
    const alternative = withAlternatives.candidates[1];
    if (!alternative) throw new Error('no alternative candidate');
    const chosen = await client.send(
      'PATCH',
      `/api/match/${view.matchSetId}/rows/${withAlternatives.position}`,
      {
        action: 'choose',
        trackId: alternative.track.id,
      },
    );
    expect(chosen.status).toBe(200);
    const chosenRow = chosen.body as MatchRow;
    expect(chosenRow.destinationTrack?.id).toBe(alternative.track.id);
    expect(chosenRow.decidedBy).toBe('person');
    // The hand-picked row carries the picked track's own score and reasons, not the old candidate's.
    expect(chosenRow.confidence).toBe(alternative.confidence);
    expect(chosenRow.reasons).toEqual(['Chosen by you', ...alternative.reasons]);

    const toSkip = view.results.find(
      (row) => row.status === 'accepted' && row.position !== withAlternatives.position,
    ) as MatchRow;
    const skipped = await client.send('PATCH', `/api/match/${view.matchSetId}/rows/${toSkip.position}`, {
      action: 'skip',
    });
    expect((skipped.body as MatchRow).status).toBe('skipped');
    expect((skipped.body as MatchRow).reasons).toEqual(['Skipped by you']);

    const search = await client.get(
      `/api/match/${view.matchSetId}/rows/0/search?q=${encodeURIComponent(view.results[0]?.sourceTrack.name ?? '')}`,
    );
    expect(search.status).toBe(200);
    expect((search.body as unknown[]).length).toBeGreaterThan(0);

    // A track found by the person's own search is scored against the song like any candidate: the row
    // carries that score and "Chosen by you", not the engine's old confidence.
    const toSearch = view.results.find(
      (row) =>
        row.status === 'accepted' &&
        row.position !== withAlternatives.position &&
        row.position !== toSkip.position,
    ) as MatchRow;
    const found = (
      await client.get(
        `/api/match/${view.matchSetId}/rows/${toSearch.position}/search?q=${encodeURIComponent(toSearch.sourceTrack.name)}`,
      )
    ).body as Candidate[];
    const searched =
      found.find((candidate) => candidate.track.id !== toSearch.destinationTrack?.id) ?? found[0];
    if (!searched) throw new Error('the search found nothing');
    const manual = await client.send('PATCH', `/api/match/${view.matchSetId}/rows/${toSearch.position}`, {
      action: 'manual',
      track: { ...searched.track, uri: searched.track.uri ?? searched.track.id },
    });
    expect(manual.status).toBe(200);
    const manualRow = manual.body as MatchRow;
    expect(manualRow.destinationTrack?.id).toBe(searched.track.id);
    expect(manualRow.decidedBy).toBe('person');
    expect(manualRow.confidence).toBe(searched.confidence);
    expect(manualRow.reasons[0]).toBe('Chosen by you');

    const bad = await client.send('PATCH', `/api/match/${view.matchSetId}/rows/0`, {
      action: 'choose',
      trackId: 'nope',
    });
    expect(bad.status).toBe(400);
    expect(message(bad.body)).toBe('That track is not one of the candidates for this song.');

    const transfer = await finishTransfer({
      sourceService: 'spotify',
      destinationService: 'apple',
      playlistId: roadTrip.id,
      includeUnmatched: false,
      matchSetId: view.matchSetId,
      createPlaylist: true,
    });
    expect(transfer.status, transfer.error ?? '').toBe('succeeded');
    expect(transfer.name).toBe('Road Trip');
    expect(transfer.totalTracks).toBe(roadTrip.trackCount);
    expect(transfer.matchedTracks + transfer.unmatchedTracks).toBe(transfer.totalTracks);

    // Read the destination back: the person's choices, in source order, nothing twice.
    const finalRows = ((await client.get(`/api/match/${view.matchSetId}`)).body as MatchSetView).results;
    // Review-band rows nobody accepted are not written (decision 0006).
    const expected = finalRows.flatMap((row) =>
      row.destinationTrack && row.status === 'accepted' ? [row.destinationTrack.id] : [],
    );
    const apple = await server.deps.providers.forUser(userId, 'apple');
    const destination = await apple.getPlaylist(transfer.playlistId);
    const ids = destination.entries.map((entry) =>
      entry.kind === 'track' ? entry.track.id : `skipped:${entry.reason}`,
    );
    expect(ids).toEqual(expected);
    expect(ids).toContain(alternative.track.id);
    expect(transfer.matchedTracks).toBe(expected.length);

    // The CSV lists every source track with what happened to it.
    const csv = await client.get(`/api/export/csv/${transfer.transferId}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="playlist_transfer.csv"');
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Track Name,Artist,Album,Duration,Destination Track,Destination Artist,Confidence,Status,Reason,Verified',
    );
    expect(lines).toHaveLength(roadTrip.trackCount + 1);
    expect(csv.text).toContain('skipped');
    // The hand-picked row's line shows its own confidence, and the overall confidence is the mean of
    // what was written, hand-picked rows included.
    const pickedLine = lines[withAlternatives.position + 1] ?? '';
    expect(pickedLine).toContain(`,${alternative.confidence},transferred,Chosen by you`);
    expect(pickedLine.endsWith(',verified')).toBe(true);
    const searchedLine = lines[toSearch.position + 1] ?? '';
    expect(searchedLine).toContain(`,${searched.confidence},transferred,Chosen by you`);
    // Every write was read back and found.
    expect(transfer.verifiedTracks).toBe(expected.length);
    expect(transfer.verificationMissing).toEqual([]);
    const written = finalRows.filter((row) => row.destinationTrack && row.status === 'accepted');
    expect(transfer.overallConfidence).toBe(
      Math.round(written.reduce((sum, row) => sum + row.confidence, 0) / written.length),
    );
    // The account's history shows the same overall confidence.
    const history = (await client.get('/api/transfers')).body as TransferResult[];
    expect(history.find((item) => item.transferId === transfer.transferId)?.overallConfidence).toBe(
      transfer.overallConfidence,
    );
    // The spec's page downloads the CSV with the transfer result's playlistId (the destination playlist).
    const byPlaylistId = await client.get(`/api/export/csv/${encodeURIComponent(transfer.playlistId)}`);
    expect(byPlaylistId.status).toBe(200);
    expect(byPlaylistId.text).toBe(csv.text);

    // The CSV describes what was added (a snapshot at transfer time): skipping the hand-picked row and
    // changing another row's stored match afterwards leaves the file as it was.
    const changed = await client.send(
      'PATCH',
      `/api/match/${view.matchSetId}/rows/${withAlternatives.position}`,
      { action: 'skip' },
    );
    expect((changed.body as MatchRow).status).toBe('skipped');
    const otherLine = lines.findIndex(
      (line, index) => index > 0 && index - 1 !== withAlternatives.position && line.includes(',transferred,'),
    );
    const otherPosition = otherLine - 1;
    expect(otherPosition).toBeGreaterThanOrEqual(0);
    await server.deps.db
      .update(matchRows)
      .set({ status: 'unmatched', chosenId: null, candidates: [], reasons: ['changed after the transfer'] })
      .where(and(eq(matchRows.matchSetId, view.matchSetId), eq(matchRows.position, otherPosition)));
    const live = ((await client.get(`/api/match/${view.matchSetId}`)).body as MatchSetView).results;
    const livePosition = (position: number) => live.find((row) => row.position === position);
    expect(livePosition(withAlternatives.position)?.status).toBe('skipped');
    expect(livePosition(otherPosition)?.destinationTrack ?? null).toBeNull();
    const later = await client.get(`/api/export/csv/${transfer.transferId}`);
    expect(later.status).toBe(200);
    expect(later.text).toBe(csv.text);
    expect(later.text).toContain(`,${alternative.confidence},transferred,Chosen by you`);
    expect(later.text).not.toContain('changed after the transfer');
  });

  it('stops a free account at its second transfer of the month with a way forward', async () => {
    const again = await client.post('/api/transfer', {
      sourceService: 'spotify',
      destinationService: 'apple',
      playlistId: roadTrip.id,
      includeUnmatched: false,
    });
    expect(again.status).toBe(402);
    expect(message(again.body)).toMatch(
      /^The Free plan includes 1 transfer a month; yours resets in 29 days \(\d{4}-\d{2}-\d{2}\)\. Upgrade to Pro for unlimited transfers: see \/pricing\.$/,
    );
    const usage = await client.get('/api/usage');
    expect(usage.body).toMatchObject({ plan: 'free', transfersUsed: 1, transfersAllowed: 1 });
  });

  it('answers the CSV download with a clear 404 before any transfer of that playlist', async () => {
    const none = await client.get('/api/export/csv/some-other-playlist');
    expect(none.status).toBe(404);
    expect(message(none.body)).toBe('No transfer completed to download');
  });

  it('disconnects for real', async () => {
    expect((await client.post('/api/auth/apple/disconnect')).status).toBe(204);
    expect((await client.get('/api/auth/status')).body).toMatchObject({
      appleConnected: false,
      spotifyConnected: true,
    });
  });
});
