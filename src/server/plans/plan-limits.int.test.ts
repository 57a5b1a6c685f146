import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaylistSummary } from '../../shared/api/playlists';
import type { MatchSetView, TransferResult } from '../../shared/api/transfer';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';

/**
 * Issue 10: the free plan's one transfer a month holds against simultaneous requests and against
 * fail-then-retry, on the embedded database and on PostgreSQL (TEST_DATABASE=postgres).
 */
let server: TestServer;
let client: TestClient;
let request: {
  sourceService: 'spotify';
  destinationService: 'apple';
  playlistId: string;
  matchSetId: string;
};

const message = (body: unknown) => (body as { message?: string }).message ?? '';
const PLAN_LIMIT =
  /^The Free plan includes 1 transfer a month; yours resets in \d+ days? \(\d{4}-\d\d-\d\d\)\. Upgrade to Pro/;

const finished = (transferId: string) =>
  waitUntil(
    async () => (await client.get(`/api/transfers/${transferId}`)).body as TransferResult,
    (current) => current.status === 'succeeded' || current.status === 'failed',
    60_000,
  );

beforeAll(async () => {
  server = await startTestServer();
  client = server.newClient();
  await client.post('/api/auth/register', {
    username: 'freebie',
    email: 'freebie@example.com',
    password: 'secret-words',
  });
  await connectService(client, 'spotify');
  await connectService(client, 'apple');
  const playlists = (await client.get('/api/playlists/spotify')).body as PlaylistSummary[];
  const playlist = playlists.find((item) => item.name === 'Road Trip');
  if (!playlist) throw new Error('demo playlist missing');
  const started = await client.post('/api/match', {
    sourceService: 'spotify',
    destinationService: 'apple',
    playlistId: playlist.id,
  });
  const view = await waitUntil(
    async () =>
      (await client.get(`/api/match/${(started.body as MatchSetView).matchSetId}`)).body as MatchSetView,
    (current) => current.status !== 'matching',
    60_000,
  );
  expect(view.status).toBe('ready');
  request = {
    sourceService: 'spotify',
    destinationService: 'apple',
    playlistId: playlist.id,
    matchSetId: view.matchSetId,
  };
}, 120_000);
afterAll(() => server.close());

describe('the free plan’s one transfer a month', () => {
  const failedIds: string[] = [];

  it('lets failed transfers free their slot while they stay failed', async () => {
    // Without Apple Music connected every transfer to it fails.
    expect((await client.post('/api/auth/apple/disconnect')).status).toBeLessThan(300);
    for (let cycle = 0; cycle < 5; cycle++) {
      const started = await client.post('/api/transfer', request);
      expect([200, 202], message(started.body)).toContain(started.status);
      const done = await finished((started.body as TransferResult).transferId);
      expect(done.status).toBe('failed');
      failedIds.push(done.transferId);
      // Retrying while it still cannot work takes the slot and fails again: a fail-and-retry cycle.
      const retried = await client.post(`/api/transfers/${done.transferId}/retry`);
      expect(retried.status, message(retried.body)).toBe(202);
      expect((await finished(done.transferId)).status).toBe('failed');
    }
  }, 120_000);

  it('accepts exactly one of 10 simultaneous transfers and 5 simultaneous retries', async () => {
    await connectService(client, 'apple');
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, () => client.post('/api/transfer', request)),
      ...failedIds.map((id) => client.post(`/api/transfers/${id}/retry`)),
    ]);
    const accepted = answers.filter((answer) => answer.status < 300);
    expect(accepted).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.status >= 300)) {
      expect(refused.status).toBe(402);
      expect(message(refused.body)).toMatch(PLAN_LIMIT);
    }
    const winner = accepted[0]?.body as TransferResult;
    expect((await finished(winner.transferId)).status).toBe('succeeded');

    // With the month's transfer used, neither a new transfer nor a retry gets through.
    const again = await client.post('/api/transfer', request);
    expect(again.status).toBe(402);
    for (const id of failedIds.filter((id) => id !== winner.transferId)) {
      const retried = await client.post(`/api/transfers/${id}/retry`);
      expect(retried.status).toBe(402);
      expect(message(retried.body)).toMatch(PLAN_LIMIT);
    }
    const all = (await client.get('/api/transfers')).body as TransferResult[];
    expect(all.filter((transfer) => transfer.status === 'succeeded')).toHaveLength(1);
    expect(all.filter((transfer) => transfer.status !== 'failed')).toHaveLength(1);
    const usage = (await client.get('/api/usage')).body as { transfersUsed: number };
    expect(usage.transfersUsed).toBe(1);
  }, 120_000);
});
