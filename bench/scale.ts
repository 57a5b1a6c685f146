/**
 * `npm run bench:scale`: many people at once on a scaled-out deployment (decision 0029). On PostgreSQL
 * (`DATABASE_URL`, default postgres://postgres@127.0.0.1:5432; each run makes a fresh database there and
 * drops it after) it starts the emulators alone (`npm run sandbox`, rate limit on), 2 API processes and 2
 * workers (`npm run worker`), then 50 people each move a 200-track playlist Spotify → Apple while one
 * person moves 10,000 tracks, all started within a few seconds. The same runs first on one process of
 * each, so the effect of scaling out shows side by side, and last the 50 small moves alone (scaled out):
 * the big one only takes room from them, so their p95 alone is the floor of their p95 beside it.
 *
 * It prints: refused calls per service (all, and those sent within a learned budget: goal 0), total
 * elapsed over the rate-limit bound of all their calls together (goal ≤ 1.2), the small transfers' p50
 * and p95 time to done against the big one's (goal: p95 ≤ 25 % of the big one's), the queue's p95 wait
 * from enqueue to start (goal ≤ 2 s), peak RSS per process (goal ≤ 250 MB) and what was lost or
 * duplicated (every destination read back). The last line sums up the scaled-out run; exit 1 on a missed
 * goal.
 *
 * Settings: BENCH_PEOPLE (50), BENCH_SMALL_TRACKS (200), BENCH_BIG_TRACKS (10000), BENCH_RATE_LIMIT calls
 * per BENCH_RATE_WINDOW_SECONDS (600 per 30), BENCH_JOB_SLOTS job slots in all (64, split over the
 * workers, at most 32 each), BENCH_ONLY=scaled to skip the one-process run.
 */
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import {
  type Deployment,
  type MovedPlaylist,
  moveSpotifyPlaylist,
  openSetupRuntime,
  signUpPerson,
  startDeployment,
  watchJobs,
} from '../src/server/testing/deployment';
import { isMissingFile } from '../src/server/testing/expected-errors';
import buildServerBundle from '../src/server/testing/server-bundle';
import type { TestClient } from '../src/server/testing/test-server';

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 50);
const SMALL_TRACKS = Number(process.env.BENCH_SMALL_TRACKS ?? 200);
const BIG_TRACKS = Number(process.env.BENCH_BIG_TRACKS ?? 10_000);
const BUDGET = Number(process.env.BENCH_RATE_LIMIT ?? 600);
const WINDOW_S = Number(process.env.BENCH_RATE_WINDOW_SECONDS ?? 30);
const JOB_SLOTS = Number(process.env.BENCH_JOB_SLOTS ?? 64);
const BASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Over how long the people start (all "within a few seconds"). */
const START_SPREAD_MS = 3_000;
const GOALS = { elapsedOverBound: 1.2, smallP95OverBig: 0.25, queueP95S: 2, peakRssMb: 250 };
const PACED_REFUSED = 'a call paced by the learned budget was refused';

type Service = 'spotify' | 'apple';

/** Forwards every request to the emulators and counts the API calls (and refusals) by service. */
async function startCountingProxy() {
  let target: URL | undefined;
  let counting = false;
  const calls = { spotify: 0, apple: 0 };
  const refused = { spotify: 0, apple: 0 };
  const serviceOf = (path: string): Service | undefined =>
    path.startsWith('/sandbox/spotify/api/v1/')
      ? 'spotify'
      : path.startsWith('/sandbox/apple/v1/')
        ? 'apple'
        : undefined;
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    if (!target) throw new Error('no target');
    const service = serviceOf(incoming.url ?? '');
    const forward = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        if (counting && service) {
          if (answer.statusCode === 429) refused[service]++;
          else calls[service]++;
        }
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forward.on('error', () => outgoing.destroy());
    incoming.pipe(forward);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    /** Sets where calls go; returns the proxy's address for SANDBOX_URL. */
    to(url: string) {
      target = new URL(url);
      return `http://127.0.0.1:${port}`;
    },
    count(on: boolean) {
      counting = on;
    },
    calls,
    refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A fresh database on the server of BASE_URL; dropped by the returned function. */
async function freshDatabase(label: string) {
  const name = `crossfade_scale_${process.pid}_${label.replace(/\W/g, '_')}`;
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(BASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const again = new pg.Client({ connectionString: BASE_URL });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
};

/** The rolling window's time bound for `n` calls to one service (call k at least a window after k - budget). */
const boundFor = (n: number) =>
  Math.max(Math.max(0, n - BUDGET) / (BUDGET / WINDOW_S), WINDOW_S * Math.floor(Math.max(0, n - 1) / BUDGET));

/** Peak resident memory of a process so far (VmHWM), in MB. */
function peakRssMb(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmHWM:\s+(\d+)\s+kB/m);
    return line ? Math.round(Number(line[1]) / 1024) : 0;
  } catch (error) {
    // The process has exited: its /proc entry is gone.
    if (isMissingFile(error)) return 0;
    throw error;
  }
}

interface RunFigures {
  label: string;
  refused: Record<Service, number>;
  refusedAfterLearning: number;
  calls: Record<Service, number>;
  elapsedS: number;
  boundS: number;
  smallP50S: number;
  smallP95S: number;
  /** The same to the end of the match job: what follows is the transfer's (create, adds, read-back). */
  smallMatchedP50S: number;
  smallMatchedP95S: number;
  bigS: number;
  bigMatchedS: number;
  /**
   * How many small moves ended in each rate window from the start: the calls of a window go out as soon as
   * it has room, so small moves end in waves a window apart (decision 0048).
   */
  smallDonePerWindow: number[];
  queueP95S: number;
  rss: { name: string; mb: number }[];
  lost: number;
  duplicated: number;
  failed: number;
}

/** Who moves in a run: everyone, or the small moves alone (the big one's person does nothing). */
type Movers = 'all' | 'small alone';

async function run(
  label: string,
  apis: number,
  workers: number,
  movers: Movers = 'all',
): Promise<RunFigures> {
  const database = await freshDatabase(label);
  const proxy = await startCountingProxy();
  let deployment: Deployment | undefined;
  try {
    deployment = await startDeployment({
      databaseUrl: database.url,
      apis,
      workers,
      // JOB_WORKERS allows at most 32 slots a process.
      jobWorkers: Math.min(32, Math.max(1, Math.floor(JOB_SLOTS / workers))),
      rateLimit: BUDGET,
      rateWindowSeconds: WINDOW_S,
      sandboxUrl: (url) => proxy.to(url),
    });
    return await measure(label, deployment, database.url, proxy, movers);
  } finally {
    await deployment?.stop();
    await proxy.close();
    await database.drop();
  }
}

async function measure(
  label: string,
  deployment: Deployment,
  databaseUrl: string,
  proxy: Awaited<ReturnType<typeof startCountingProxy>>,
  movers: Movers,
): Promise<RunFigures> {
  const withBig = movers === 'all';
  const setup = await openSetupRuntime(deployment);
  try {
    // Set-up (not measured): the people, and their playlists on Spotify, made of catalog tracks.
    const apiFor = (n: number) => {
      const api = deployment.apis[n % deployment.apis.length];
      if (!api) throw new Error('no API process');
      return api;
    };
    const people: { client: TestClient; userId: string }[] = [];
    for (let index = 0; index <= PEOPLE; index += 5) {
      const batch = Array.from({ length: Math.min(5, PEOPLE + 1 - index) }, (_, offset) => index + offset);
      people.push(...(await Promise.all(batch.map((n) => signUpPerson(apiFor(n), `${label}-p${n}`)))));
    }
    const onSpotify = setup.catalog.tracks.filter((track) => track.spotify !== null);
    const slice = (from: number, size: number) =>
      Array.from(
        { length: size },
        (_, i) => `spotify:track:${onSpotify[(from + i) % onSpotify.length]?.spotify?.id}`,
      );
    const playlists: string[] = [];
    for (const [index, person] of people.entries()) {
      if (index === 0 && !withBig) {
        playlists.push('');
        continue;
      }
      const spotify = await setup.providers.forUser(person.userId, 'spotify');
      const created = await spotify.createPlaylist(index === 0 ? 'Everything' : `Small ${index}`);
      await spotify.addTracks(
        created.id,
        index === 0 ? slice(0, BIG_TRACKS) : slice(BIG_TRACKS + (index - 1) * SMALL_TRACKS, SMALL_TRACKS),
      );
      playlists.push(created.id);
    }
    console.log(
      `  [${label}] set up ${people.length} people; letting the rate window empty (${WINDOW_S + 1} s)`,
    );
    await new Promise((resolve) => setTimeout(resolve, (WINDOW_S + 1) * 1000));

    const watcher = await watchJobs(databaseUrl, 100);
    proxy.count(true);
    const started = Date.now();
    let moves: (MovedPlaylist | undefined)[];
    try {
      moves = await Promise.all(
        people.map(async (person, index) => {
          if (index === 0 && !withBig) return undefined;
          // The big one first, the small ones spread over a few seconds.
          await new Promise((resolve) =>
            setTimeout(resolve, index === 0 ? 0 : 200 + ((index - 1) * START_SPREAD_MS) / PEOPLE),
          );
          return moveSpotifyPlaylist(person.client, playlists[index] ?? '', watcher);
        }),
      );
    } finally {
      proxy.count(false);
    }
    const elapsedS = (Date.now() - started) / 1000;
    const jobs = watcher.jobs();
    await watcher.stop();

    // Every destination read back: what was to be written, once each.
    let lost = 0;
    let duplicated = 0;
    for (const [index, move] of moves.entries()) {
      if (!move?.playlistId) continue;
      const apple = await setup.providers.forUser(people[index]?.userId ?? '', 'apple');
      const read = await apple.getPlaylist(move.playlistId);
      const present = new Map<string, number>();
      for (const entry of read.entries)
        if (entry.kind === 'track') present.set(entry.track.id, (present.get(entry.track.id) ?? 0) + 1);
      const wanted = new Map<string, number>();
      for (const id of move.expected) wanted.set(id, (wanted.get(id) ?? 0) + 1);
      for (const [id, n] of wanted) lost += Math.max(0, n - (present.get(id) ?? 0));
      for (const [id, n] of present) duplicated += Math.max(0, n - (wanted.get(id) ?? 0));
    }

    const outputs = deployment.outputs();
    const smallMoves = moves.slice(1).filter((move) => move !== undefined);
    const small = smallMoves.map((move) => move.elapsedMs / 1000);
    const smallMatched = smallMoves.map((move) => move.matchedMs / 1000);
    const waits = jobs.flatMap((job) => (job.startedAt ? [(job.startedAt - job.createdAt) / 1000] : []));
    return {
      label,
      refused: { ...proxy.refused },
      refusedAfterLearning: outputs.reduce(
        (sum, { output }) => sum + (output.split(PACED_REFUSED).length - 1),
        0,
      ),
      calls: { ...proxy.calls },
      elapsedS,
      boundS: Math.max(boundFor(proxy.calls.spotify), boundFor(proxy.calls.apple)),
      smallP50S: percentile(small, 50),
      smallP95S: percentile(small, 95),
      smallMatchedP50S: percentile(smallMatched, 50),
      smallMatchedP95S: percentile(smallMatched, 95),
      bigS: (moves[0]?.elapsedMs ?? 0) / 1000,
      bigMatchedS: (moves[0]?.matchedMs ?? 0) / 1000,
      smallDonePerWindow: small.reduce<number[]>((counts, seconds) => {
        const window = Math.floor(seconds / WINDOW_S);
        for (let index = counts.length; index <= window; index++) counts.push(0);
        counts[window] = (counts[window] ?? 0) + 1;
        return counts;
      }, []),
      queueP95S: percentile(waits, 95),
      rss: outputs
        .filter(({ name }) => name !== 'sandbox')
        .map(({ name, pid }) => ({ name, mb: peakRssMb(pid) })),
      lost,
      duplicated,
      failed: moves.filter((move) => move !== undefined && move.status !== 'succeeded').length,
    };
  } finally {
    await setup.close();
  }
}

/** The small moves' p95 over the big move's time: the run's own, or `bigS` for a run without it. */
const smallP95OverBig = (run: RunFigures, bigS: number) => run.smallP95S / Math.max(run.bigS || bigS, 0.001);

/** Each run's figures side by side; a run without the big move is set against `bigS`, the scaled run's. */
function print(runs: RunFigures[], bigS: number) {
  const overBig = (r: RunFigures) => smallP95OverBig(r, bigS);
  const rows: [string, (run: RunFigures) => string][] = [
    ['calls spotify / apple', (r) => `${r.calls.spotify} / ${r.calls.apple}`],
    ['refused spotify / apple (all)', (r) => `${r.refused.spotify} / ${r.refused.apple}`],
    ['refused after learning (goal 0)', (r) => String(r.refusedAfterLearning)],
    ['elapsed s / bound s', (r) => `${r.elapsedS.toFixed(1)} / ${r.boundS.toFixed(1)}`],
    ['elapsed over bound (goal ≤ 1.2)', (r) => (r.elapsedS / Math.max(r.boundS, 0.001)).toFixed(3)],
    ['small p50 / p95 s', (r) => `${r.smallP50S.toFixed(1)} / ${r.smallP95S.toFixed(1)}`],
    [
      'of which matched p50 / p95 s',
      (r) => `${r.smallMatchedP50S.toFixed(1)} / ${r.smallMatchedP95S.toFixed(1)}`,
    ],
    [`small done per ${WINDOW_S} s window`, (r) => r.smallDonePerWindow.join(' / ')],
    ['big s (matched)', (r) => (r.bigS ? `${r.bigS.toFixed(1)} (${r.bigMatchedS.toFixed(1)})` : 'not moved')],
    [
      'small p95 over big (goal ≤ 0.25)',
      (r) => `${overBig(r).toFixed(3)}${r.bigS ? '' : " (the scaled run's big)"}`,
    ],
    ['queue p95 wait s (goal ≤ 2)', (r) => r.queueP95S.toFixed(2)],
    ['peak RSS MB (goal ≤ 250)', (r) => r.rss.map(({ name, mb }) => `${name} ${mb}`).join(', ')],
    ['lost / duplicated / failed', (r) => `${r.lost} / ${r.duplicated} / ${r.failed}`],
  ];
  console.log(`\n${''.padEnd(36)}${runs.map((r) => r.label.padEnd(44)).join('')}`);
  for (const [name, value] of rows)
    console.log(`${name.padEnd(36)}${runs.map((r) => value(r).padEnd(44)).join('')}`);
}

async function main() {
  console.log(
    `bench:scale: ${PEOPLE} people × ${SMALL_TRACKS} tracks and one × ${BIG_TRACKS}, Spotify → Apple, rate limit ${BUDGET} per ${WINDOW_S} s, ${JOB_SLOTS} job slots`,
  );
  const teardown = buildServerBundle();
  try {
    const runs: RunFigures[] = [];
    if (process.env.BENCH_ONLY !== 'scaled') runs.push(await run('one', 1, 1));
    const scaled = await run('scaled', 2, 2);
    runs.push(scaled);
    // The small moves with nobody else: the big one only takes room from them, so their p95 here is the
    // least any order of turns could give them with the big one there (decision 0050).
    const alone = await run('small-alone', 2, 2, 'small alone');
    runs.push(alone);
    print(runs, scaled.bigS);
    console.log(
      `small moves alone: ${alone.calls.apple} of the ${scaled.calls.apple} Apple calls, p95 ${alone.smallP95S.toFixed(1)} s = ${smallP95OverBig(alone, scaled.bigS).toFixed(3)} of the big move's ${scaled.bigS.toFixed(1)} s (the floor of small p95 over big)`,
    );
    const figures = {
      refused_after_learning: scaled.refusedAfterLearning,
      elapsed_over_bound: scaled.elapsedS / Math.max(scaled.boundS, 0.001),
      small_p95_over_big: smallP95OverBig(scaled, scaled.bigS),
      queue_p95_s: scaled.queueP95S,
      peak_rss_mb: Math.max(...scaled.rss.map(({ mb }) => mb)),
      lost: scaled.lost,
      duplicated: scaled.duplicated,
    };
    const missed = [
      figures.refused_after_learning > 0 && 'refused calls after learning',
      figures.elapsed_over_bound > GOALS.elapsedOverBound && 'elapsed over bound',
      figures.small_p95_over_big > GOALS.smallP95OverBig && 'small p95 over big',
      figures.queue_p95_s > GOALS.queueP95S && 'queue p95 wait',
      figures.peak_rss_mb > GOALS.peakRssMb && 'peak RSS',
      figures.lost > 0 && 'lost tracks',
      figures.duplicated > 0 && 'duplicated tracks',
      scaled.failed > 0 && 'failed transfers',
    ].filter(Boolean);
    if (missed.length > 0) console.log(`missed goals: ${missed.join(', ')}`);
    console.log(
      `bench:scale: refused_after_learning=${figures.refused_after_learning} elapsed_over_bound=${figures.elapsed_over_bound.toFixed(3)} small_p95_over_big=${figures.small_p95_over_big.toFixed(3)} queue_p95_s=${figures.queue_p95_s.toFixed(2)} peak_rss_mb=${figures.peak_rss_mb} lost=${figures.lost} duplicated=${figures.duplicated}`,
    );
    if (missed.length > 0) process.exitCode = 1;
  } finally {
    teardown();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
