import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HUGE_LIKED_SONGS, HUGE_LIKED_SONGS_SCENARIO } from '../../sandbox/accounts';
import type { JobView, MatchSetView, TransferResult } from '../../shared/api/transfer';
import { LIKED_SONGS_ID } from '../../shared/library-ids';
import { AppleMusicProvider } from '../providers/apple/client';
import { connectService, openConsentPage } from '../testing/connect-service';
import { seedDataDir } from '../testing/pglite-template';
import { type ServerProcess, startSandboxProcess, startServerProcess } from '../testing/server-process';
import { createTestDatabase, usesRealPostgres } from '../testing/test-database';
import { TestClient } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';

/**
 * Issue 25: a 100,000-track Liked Songs moves from Spotify to Apple Music with memory that does not grow
 * with its size. The emulators run in a process of their own (`npm run sandbox`), so the server's peak
 * resident size (VmHWM) is Crossfade's alone, not the emulators' catalog and libraries. The emulators have
 * no page-size setting: they answer with the real services' page limits, which the clients ask for (Spotify
 * 50 saved tracks a page, Apple 100 library songs, 25 ISRCs a catalog lookup); the rate limit is off.
 *
 * A 10,000-track move and a 100,000-track move run on fresh server processes one after the other; the
 * larger one's peak may be at most BOUND_MB above the smaller one's. Holding the move in memory costs
 * far more than that: each song is a source entry, a match row with its candidates, a chosen track, a
 * lookup-cache answer and a read-back entry, together well over 2 kB, so 90,000 more songs held at once
 * would add some 200 MB and more (measured before the fix: see decision 0039).
 */
const SMALL = 10_000;
/** What the larger move may add to the smaller one's peak resident size. */
const BOUND_MB = 80;
/** Enough songs on Spotify for the 100,000 (104,000 in the catalog: 100,869 on Spotify). */
const CATALOG_TRACKS = '104000';
const PUBLIC_URL = 'http://127.0.0.1:1';

let dataDir: string;
let sandbox: ServerProcess;
let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
let server: ServerProcess | undefined;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'crossfade-huge-'));
  seedDataDir(dataDir);
  database = usesRealPostgres() ? await createTestDatabase() : undefined;
  sandbox = await startSandboxProcess({
    DATA_DIR: dataDir,
    PUBLIC_URL,
    SANDBOX_RATE_LIMIT: '0',
    SANDBOX_CATALOG_TRACKS: CATALOG_TRACKS,
    // Apple rates each song alone: on disk, each rating would rewrite the account's whole document.
    SANDBOX_STATE: 'memory',
  });
}, 120_000);

afterAll(async () => {
  await server?.crash();
  await sandbox?.stop();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The child's peak resident set size in MB, as the kernel counts it. */
function peakRssMb(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  if (!kb) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(kb) / 1024;
}

/** Connects Apple Music as the browser does, keeping the tokens so the test can read the library itself. */
async function connectApple(client: TestClient, scenario: string) {
  const { authUrl, form } = await openConsentPage(client, 'apple', { account: 'own', scenario });
  form.set('account', 'own');
  form.set('decision', 'allow');
  const consent = await fetch(authUrl.origin + authUrl.pathname, {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  const callback = new URL(consent.headers.get('location') ?? '', authUrl);
  const musicUserToken = callback.searchParams.get('music_user_token');
  const developerToken = form.get('developer_token');
  if (!musicUserToken || !developerToken) throw new Error(`Apple consent answered ${consent.status}`);
  const back = await client.get(`${callback.pathname}${callback.search}`);
  expect(back.status).toBe(302);
  return new AppleMusicProvider({
    apiBaseUrl: `${sandbox.url}/sandbox/apple/v1`,
    developerToken: { getToken: async () => developerToken },
    musicUserToken: async () => musicUserToken,
  });
}

const favouriteIds = async (apple: AppleMusicProvider) =>
  (await apple.getPlaylist(LIKED_SONGS_ID)).entries.flatMap((entry) =>
    entry.kind === 'track' ? [entry.track.id] : [],
  );

/** Moves the scenario's Liked Songs on a fresh server; its peak RSS, and what the destination holds. */
async function moveLikedSongs(size: number) {
  server = await startServerProcess({
    DATA_DIR: dataDir,
    PUBLIC_URL,
    SANDBOX_URL: sandbox.url,
    SANDBOX_RATE_LIMIT: '0',
    TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    ...(database ? { DATABASE_URL: database.url ?? '' } : {}),
  });
  const client = new TestClient(server.url);
  await client.post('/api/auth/register', {
    username: `mover${size}`,
    email: `mover${size}@example.com`,
    password: 'secret-words',
  });
  const scenario =
    size === HUGE_LIKED_SONGS ? HUGE_LIKED_SONGS_SCENARIO : `${HUGE_LIKED_SONGS_SCENARIO}-${size}`;
  await connectService(client, 'spotify', { account: 'own', scenario });
  const apple = await connectApple(client, scenario);
  const before = await favouriteIds(apple);
  const startedAt = Date.now();

  const started = (
    await client.post('/api/match', {
      sourceService: 'spotify',
      destinationService: 'apple',
      playlistId: LIKED_SONGS_ID,
    })
  ).body as MatchSetView;
  const matchJob = await waitUntil(
    async () => (await client.get(`/api/jobs/${started.jobId}`)).body as JobView,
    (job) => job.status !== 'queued' && job.status !== 'running',
    2_400_000,
  );
  expect(matchJob.status, matchJob.error ?? '').toBe('succeeded');
  const queued = (
    await client.post('/api/transfer', {
      sourceService: 'spotify',
      destinationService: 'apple',
      playlistId: LIKED_SONGS_ID,
      includeUnmatched: false,
      matchSetId: started.matchSetId,
    })
  ).body as TransferResult;
  const finished = await waitUntil(
    async () => (await client.get(`/api/transfers/${queued.transferId}`)).body as TransferResult,
    (current) => current.status === 'succeeded' || current.status === 'failed',
    2_400_000,
  );
  const seconds = Math.round((Date.now() - startedAt) / 1000);
  // Read before the test asks for the whole match view below (a page the person reviews, not the move).
  const peak = peakRssMb(server.child.pid);
  expect(finished.status, finished.error ?? '').toBe('succeeded');

  const view = (await client.get(`/api/match/${started.matchSetId}`)).body as MatchSetView;
  expect(view.results).toHaveLength(size);
  const chosen = view.results.flatMap((row) =>
    row.destinationTrack && row.status === 'accepted' ? [row.destinationTrack.id] : [],
  );
  await server.stop();
  server = undefined;
  const after = await favouriteIds(apple);
  return { peak, seconds, before, chosen, after, finished };
}

// On the embedded database only (the process tier of `.ci/run`): the move is the same code on PostgreSQL,
// where a second run would add a quarter of an hour to CI for no other path.
describe.skipIf(usesRealPostgres())('a huge Liked Songs moves in flat memory (issue 25)', () => {
  it('moves 100,000 songs with a peak RSS within a bound of a 10,000-song move, every song once', async () => {
    const runs = [];
    // HUGE_SIZES=10000,30000 measures other sizes by hand; the tier runs the two the bound is about.
    for (const size of process.env.HUGE_SIZES?.split(',').map(Number) ?? [SMALL, HUGE_LIKED_SONGS]) {
      const run = await moveLikedSongs(size);
      process.stdout.write(`${size} songs: peak RSS ${run.peak.toFixed(0)} MB, ${run.seconds} s\n`);
      // Every chosen song is a favourite, each once, and nothing else was written.
      const expected = new Set([...run.before, ...run.chosen]);
      expect(run.chosen.length).toBeGreaterThan(size * 0.9);
      expect(new Set(run.after).size, 'a favourite listed twice').toBe(run.after.length);
      expect(new Set(run.after)).toEqual(expected);
      expect(run.finished.verifiedTracks).toBe(run.finished.matchedTracks);
      runs.push(run);
    }
    const [small, huge] = runs;
    expect(huge?.peak ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual((small?.peak ?? 0) + BOUND_MB);
  }, 7_200_000);
});
