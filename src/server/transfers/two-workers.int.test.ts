import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchPlaylistTracksResponse, PlaylistSummary } from '../../shared/api/playlists';
import type { MatchSetView, TransferResult } from '../../shared/api/transfer';
import { users } from '../db/schema';
import { jobRegistry } from '../jobs/define-job';
import { JobRunner } from '../jobs/job-runner';
import { JOBS } from '../runtime';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';

/**
 * A second job runner on the same database (PostgreSQL under `npm run test:pg`): several transfers run at
 * once across both, and every destination playlist still holds each chosen track exactly once, in order.
 */
let server: TestServer;
let second: JobRunner;

beforeAll(async () => {
  server = await startTestServer({ env: { JOB_WORKERS: '2' } });
  second = new JobRunner({
    db: server.deps.db,
    logger: server.deps.logger,
    handlers: jobRegistry(JOBS, server.deps),
    concurrency: 2,
    pollIntervalMs: 50,
  });
  second.start();
}, 120_000);
afterAll(async () => {
  await second.stop();
  await server.close();
});

async function person(name: string): Promise<TestClient> {
  const client = server.newClient();
  await client.post('/api/auth/register', {
    username: name,
    email: `${name}@example.com`,
    password: 'secret-words',
  });
  await server.deps.db.update(users).set({ plan: 'pro' }).where(eq(users.username, name));
  await connectService(client, 'spotify');
  await connectService(client, 'apple');
  return client;
}

describe('two job runners on one database', () => {
  it('run several transfers without running any twice', async () => {
    const people = await Promise.all(['ana', 'ben', 'cai'].map(person));
    const names = ['Road Trip', 'Gym Rotation', 'Late Night Jazz'];
    const runs = await Promise.all(
      people.map(async (client, index) => {
        const playlists = (await client.get('/api/playlists/spotify')).body as PlaylistSummary[];
        const source = playlists.find((playlist) => playlist.name === names[index]) as PlaylistSummary;
        const started = (
          await client.post('/api/match', {
            sourceService: 'spotify',
            destinationService: 'apple',
            playlistId: source.id,
          })
        ).body as MatchSetView;
        const matched = await waitUntil(
          async () => (await client.get(`/api/match/${started.matchSetId}`)).body as MatchSetView,
          (view) => view.status !== 'matching',
          120_000,
        );
        const expected = matched.results.flatMap(
          // Review-band rows nobody accepted are not written (decision 0006).
          (row) => (row.destinationTrack && row.status === 'accepted' ? [row.destinationTrack.id] : []),
        );
        // Two transfers of the same playlist per person: four jobs in flight for two runners.
        const transfers = await Promise.all(
          [0, 1].map(async () => {
            const transfer = (
              await client.post('/api/transfer', {
                sourceService: 'spotify',
                destinationService: 'apple',
                playlistId: source.id,
                includeUnmatched: false,
                matchSetId: matched.matchSetId,
              })
            ).body as TransferResult;
            return waitUntil(
              async () => (await client.get(`/api/transfers/${transfer.transferId}`)).body as TransferResult,
              (current) => current.status === 'succeeded' || current.status === 'failed',
              120_000,
            );
          }),
        );
        return { client, expected, transfers };
      }),
    );

    for (const { client, expected, transfers } of runs) {
      expect(new Set(transfers.map((transfer) => transfer.playlistId)).size).toBe(2);
      for (const transfer of transfers) {
        expect(transfer.status, transfer.error ?? '').toBe('succeeded');
        const readBack = await client.post('/api/fetch-playlist-tracks', {
          playlistUrl: `https://music.apple.com/library/playlist/${transfer.playlistId}`,
        });
        expect((readBack.body as FetchPlaylistTracksResponse).tracks.map((track) => track.id)).toEqual(
          expected,
        );
      }
    }
  }, 300_000);
});
