import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchPlaylistTracksResponse, PlaylistSummary } from '../shared/api/playlists';
import type { MatchSetView, TransferResult } from '../shared/api/transfer';
import { connectService } from './testing/connect-service';
import {
  type ServerProcess,
  startSandboxProcess,
  startServerProcess,
  startWorkerProcess,
} from './testing/server-process';
import { createTestDatabase, usesRealPostgres } from './testing/test-database';
import { TestClient } from './testing/test-server';
import { waitUntil } from './testing/wait-until';

/**
 * The scaled-out deployment of the README on one PostgreSQL: the emulators on their own (`npm run
 * sandbox`), two API processes that run no jobs (JOB_WORKERS=0) and one worker (`npm run worker`). Two
 * people transfer through different API processes and watch through the other one; each job runs once and
 * the destination playlists hold every chosen track exactly once. PGlite serves one process, so this runs
 * only on PostgreSQL (`npm run test:pg`, CI).
 */
const processes: Omit<ServerProcess, 'url'>[] = [];
let dataDir: string;
let databaseUrl = '';
let closeDatabase: (() => Promise<void>) | undefined;
let apis: ServerProcess[] = [];
/** The worker's log, shown when a job fails. */
const workerOutput = () => processes.at(-1)?.output() ?? '';

describe.skipIf(!usesRealPostgres())('API processes and a worker on one PostgreSQL', () => {
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'crossfade-scale-out-'));
    const database = await createTestDatabase();
    databaseUrl = database.url ?? '';
    closeDatabase = () => database.close();
    // The emulators first: they create the sandbox keys in the shared DATA_DIR that the others read. All
    // processes have the one address people use (a proxy's), whose Spotify callback the sandbox registers.
    const publicUrl = 'http://127.0.0.1:1';
    const sandbox = await startSandboxProcess({
      DATA_DIR: dataDir,
      SANDBOX_RATE_LIMIT: '0',
      PUBLIC_URL: publicUrl,
    });
    processes.push(sandbox);
    const common = {
      DATA_DIR: dataDir,
      PUBLIC_URL: publicUrl,
      DATABASE_URL: databaseUrl,
      SANDBOX_URL: sandbox.url,
      // Every process must decrypt the provider tokens the others stored.
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      // Tight limits for the test that they hold across processes (addresses from X-Forwarded-For).
      TRUST_PROXY: 'true',
      SIGNUP_LIMIT_PER_HOUR: '3',
      LOGIN_MAX_FAILURES: '4',
    };
    // Both API processes start together: migrations run once, under the advisory lock.
    apis = await Promise.all([0, 1].map(() => startServerProcess({ ...common, JOB_WORKERS: '0' })));
    processes.push(...apis);
    processes.push(await startWorkerProcess({ ...common, JOB_WORKERS: '2' }));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop()));
    await closeDatabase?.();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** Signs up through one API process, connects both services, and transfers one small playlist. */
  async function transferThrough(api: ServerProcess, watcher: ServerProcess, username: string, pick: number) {
    const client = new TestClient(api.url);
    const signup = await client.post('/api/auth/register', {
      username,
      email: `${username}@example.com`,
      password: 'secret-words',
    });
    expect(signup.status).toBe(201);
    await connectService(client, 'spotify');
    await connectService(client, 'apple');
    const playlists = (await client.get('/api/playlists/spotify')).body as PlaylistSummary[];
    const small = playlists
      .filter(
        (playlist) => playlist.kind === 'playlist' && playlist.isOwned !== false && playlist.trackCount >= 10,
      )
      .sort((a, b) => a.trackCount - b.trackCount)[pick] as PlaylistSummary;

    const started = (
      await client.post('/api/match', {
        sourceService: 'spotify',
        destinationService: 'apple',
        playlistId: small.id,
      })
    ).body as MatchSetView;
    // Progress through the other API process: the session and the job live in the shared database.
    client.baseUrl = watcher.url;
    const matched = await waitUntil(
      async () => (await client.get(`/api/match/${started.matchSetId}`)).body as MatchSetView,
      (view) => view.status !== 'matching',
      120_000,
    );
    expect(matched.status, `${JSON.stringify(matched).slice(0, 300)}\n${workerOutput()}`).toBe('ready');
    const expected = matched.results.flatMap(
      // Review-band rows nobody accepted are not written (decision 0006).
      (row) => (row.destinationTrack && row.status === 'accepted' ? [row.destinationTrack.id] : []),
    );
    expect(expected.length).toBeGreaterThan(5);

    client.baseUrl = api.url;
    const transfer = (
      await client.post('/api/transfer', {
        sourceService: 'spotify',
        destinationService: 'apple',
        playlistId: small.id,
        includeUnmatched: false,
        matchSetId: matched.matchSetId,
      })
    ).body as TransferResult;
    client.baseUrl = watcher.url;
    const finished = await waitUntil(
      async () => (await client.get(`/api/transfers/${transfer.transferId}`)).body as TransferResult,
      (current) => current.status === 'succeeded' || current.status === 'failed',
      120_000,
    );
    expect(finished.status, finished.error ?? '').toBe('succeeded');
    expect(finished.addedTracks).toBe(expected.length);

    // Read the destination back through Crossfade's reader of Apple library playlists: no duplicates.
    const readBack = await client.post('/api/fetch-playlist-tracks', {
      playlistUrl: `https://music.apple.com/library/playlist/${finished.playlistId}`,
    });
    expect(readBack.status).toBe(200);
    expect((readBack.body as FetchPlaylistTracksResponse).tracks.map((track) => track.id)).toEqual(expected);
  }

  it('runs two transfers started on different API processes, each job once, visible through both', async () => {
    const [first, second] = apis as [ServerProcess, ServerProcess];
    for (const api of apis) {
      const health = await new TestClient(api.url).get('/api/health');
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({ ok: true, database: 'up', jobWorkers: 0 });
    }
    await Promise.all([transferThrough(first, second, 'ada', 0), transferThrough(second, first, 'grace', 1)]);

    // The API processes run no jobs; the worker ran each one exactly once.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ kind: string; status: string; attempts: number }>(
        "select kind, status, attempts from jobs where kind in ('match', 'transfer') order by kind",
      );
      expect(rows.map((row) => row.kind).sort()).toEqual(['match', 'match', 'transfer', 'transfer']);
      expect(rows.filter((row) => row.status !== 'succeeded' || row.attempts !== 1)).toEqual([]);
    } finally {
      await client.end();
    }
    const health = (await new TestClient(first.url).get('/api/health')).body as { jobs: { queued: number } };
    expect(health.jobs.queued).toBe(0);
  }, 300_000);

  it('keeps one count of rate limits and failed sign-ins over both API processes (issue 10)', async () => {
    const [first, second] = apis as [ServerProcess, ServerProcess];
    const via = (index: number) => (index % 2 === 0 ? first : second);
    const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

    // Sign-ups from one address, alternating between the processes: 3 an hour in all, not 3 each.
    const signups: number[] = [];
    for (let index = 0; index < 6; index++) {
      const username = `limited${index}`;
      const answer = await new TestClient(via(index).url).post(
        '/api/auth/register',
        { username, email: `${username}@example.com`, password: 'secret-words' },
        from('192.0.2.10'),
      );
      signups.push(answer.status);
      if (answer.status === 429) {
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
        expect((answer.body as { message: string }).message).toMatch(/^Too many new accounts/);
      }
    }
    expect(signups).toEqual([201, 201, 201, 429, 429, 429]);

    // Wrong passwords for one account from one address, alternating: 4 in all, then 429 on both.
    const logins: number[] = [];
    for (let index = 0; index < 6; index++) {
      const answer = await new TestClient(via(index).url).post(
        '/api/auth/login',
        { username: 'limited0', password: `guess-${index}` },
        from('192.0.2.11'),
      );
      logins.push(answer.status);
    }
    expect(logins).toEqual([401, 401, 401, 401, 429, 429]);
    // The owner, from elsewhere, signs in through either process at once.
    for (const api of apis) {
      const owner = await new TestClient(api.url).post(
        '/api/auth/login',
        { username: 'limited0', password: 'secret-words' },
        from('198.51.100.20'),
      );
      expect(owner.status, owner.text).toBe(200);
    }
  }, 60_000);
});
