import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Deployment,
  moveSpotifyPlaylist,
  openSetupRuntime,
  signUpPerson,
  startDeployment,
  watchJobs,
} from '../testing/deployment';
import { createTestDatabase, usesRealPostgres } from '../testing/test-database';

/**
 * Decision 0029 across processes on one PostgreSQL: two API processes and two workers share each
 * service's learned budget (no call paced by it is refused, whichever process sends it), and the job
 * queue and the calls take turns across people (small transfers are done before a big one started first).
 * PGlite serves one process, so this runs only on PostgreSQL.
 */
const RATE_LIMIT = 40;
const WINDOW_S = 2;
let deployment: Deployment;
let databaseUrl = '';
let closeDatabase: (() => Promise<void>) | undefined;
let setup: Awaited<ReturnType<typeof openSetupRuntime>>;

const PACED_REFUSED = 'a call paced by the learned budget was refused';
const LEARNING = 'refused, learning the budget';
const count = (text: string, needle: string) => text.split(needle).length - 1;
const allOutput = () =>
  deployment
    .outputs()
    .map(({ output }) => output)
    .join('\n');

describe.skipIf(!usesRealPostgres())('one rate budget per app, turns across people (PostgreSQL)', () => {
  beforeAll(async () => {
    const database = await createTestDatabase();
    databaseUrl = database.url ?? '';
    closeDatabase = () => database.close();
    deployment = await startDeployment({
      databaseUrl,
      apis: 2,
      workers: 2,
      jobWorkers: 3,
      rateLimit: RATE_LIMIT,
      rateWindowSeconds: WINDOW_S,
      logLevel: 'info',
    });
    setup = await openSetupRuntime(deployment);
  }, 240_000);

  afterAll(async () => {
    await setup?.close();
    await deployment?.stop();
    await closeDatabase?.();
  });

  /** A Spotify playlist of the person's made of these catalog tracks (set-up, through our own client). */
  async function playlistOf(userId: string, name: string, from: number, size: number): Promise<string> {
    const spotify = await setup.providers.forUser(userId, 'spotify');
    const tracks = setup.catalog.tracks.filter((track) => track.spotify !== null).slice(from, from + size);
    const created = await spotify.createPlaylist(name);
    await spotify.addTracks(
      created.id,
      tracks.map((track) => `spotify:track:${track.spotify?.id}`),
    );
    return created.id;
  }

  it('keeps two API processes within one learned budget: after the first refusal none of their calls is refused', async () => {
    const [first, second] = deployment.apis;
    if (!first || !second) throw new Error('two API processes');
    const people = await Promise.all([signUpPerson(first, 'budget-one'), signUpPerson(second, 'budget-two')]);
    const playlists = await Promise.all(
      people.map((person, index) => playlistOf(person.userId, `Budget ${index}`, index * 120, 120)),
    );
    // Both processes read as fast as they can (4 at a time each) until the budget is learned (the first
    // refusal), however slow the machine, and then for four more windows: far more calls than the budget
    // allows, so it binds, and every read still succeeds (it waits its turn).
    const statuses: number[] = [];
    let until = Number.POSITIVE_INFINITY;
    const learnBy = Date.now() + 120_000;
    await Promise.all(
      people.flatMap((person, index) =>
        Array.from({ length: 4 }, async () => {
          while (Date.now() < until && Date.now() < learnBy) {
            const answer = await person.client.post('/api/fetch-playlist-tracks', {
              playlistUrl: `https://open.spotify.com/playlist/${playlists[index]}`,
            });
            statuses.push(answer.status);
            if (until === Number.POSITIVE_INFINITY && count(allOutput(), LEARNING) > 0)
              until = Date.now() + WINDOW_S * 1000 * 4;
          }
        }),
      ),
    );
    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const output = allOutput();
    expect(count(output, LEARNING), output.slice(-3000)).toBeGreaterThanOrEqual(1);
    expect(count(output, PACED_REFUSED), output.slice(-3000)).toBe(0);

    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ budget: number | null }>(
        "select budget from rate_budgets where service = 'spotify'",
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]?.budget).toBeGreaterThan(0);
      expect(rows[0]?.budget).toBeLessThanOrEqual(RATE_LIMIT);
    } finally {
      await client.end();
    }
  }, 240_000);

  it('finishes small transfers started after a big one before the big one', async () => {
    const [first, second] = deployment.apis;
    if (!first || !second) throw new Error('two API processes');
    const big = await signUpPerson(first, 'turns-big');
    const small = await Promise.all(
      [0, 1, 2, 3].map((index) => signUpPerson(index % 2 === 0 ? second : first, `turns-small-${index}`)),
    );
    const bigPlaylist = await playlistOf(big.userId, 'Everything', 1000, 2500);
    const smallPlaylists = await Promise.all(
      small.map((person, index) => playlistOf(person.userId, `Small ${index}`, 4000 + index * 25, 25)),
    );
    const watcher = await watchJobs(databaseUrl);
    try {
      const bigMove = moveSpotifyPlaylist(big.client, bigPlaylist, watcher);
      // The big job has its start; the small ones come a moment later.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const startedSmall = Date.now();
      const smallMoves = await Promise.all(
        small.map((person, index) =>
          moveSpotifyPlaylist(person.client, smallPlaylists[index] ?? '', watcher),
        ),
      );
      const smallDone = Date.now();
      const bigMoved = await bigMove;
      const bigDone = Date.now();
      expect(smallMoves.map((move) => move.status)).toEqual([
        'succeeded',
        'succeeded',
        'succeeded',
        'succeeded',
      ]);
      expect(bigMoved.status, bigMoved.error ?? '').toBe('succeeded');
      expect(smallDone).toBeLessThan(bigDone);
      // Each small one was done in a small part of the time the big one took.
      for (const move of smallMoves) expect(move.elapsedMs).toBeLessThan(bigMoved.elapsedMs);
      expect(smallDone - startedSmall).toBeLessThan(bigMoved.elapsedMs);
    } finally {
      await watcher.stop();
    }
    expect(count(allOutput(), PACED_REFUSED)).toBe(0);
  }, 300_000);
});
