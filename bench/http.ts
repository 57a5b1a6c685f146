import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { connectService } from '../src/server/testing/connect-service';
import { deploymentNodeFlags, freePort } from '../src/server/testing/server-process';
import { TestClient } from '../src/server/testing/test-server';
import { waitUntil } from '../src/server/testing/wait-until';
import type { FetchPlaylistTracksResponse, PlaylistSummary } from '../src/shared/api/playlists';
import type { MatchSetView } from '../src/shared/api/transfer';
import { type LoadResult, loadHttp } from './http-load';

/**
 * `npm run bench:http`: requests per second and p99 of the app's hot read routes against a bare Hono JSON
 * route started in the same run (the floor: what Node and Hono alone manage on this machine), and the
 * app's idle memory right after start. The compiled app runs with the embedded database, and again on
 * PostgreSQL when DATABASE_URL is set (BENCH_ONLY=postgres: that one alone); the emulators run in a
 * process of their own, so the app's memory is its own. Load: BENCH_CONNECTIONS
 * keep-alive connections for BENCH_SECONDS per route, loopback only; the generator (bench/http-load.ts)
 * runs in this process, each server in its own (BENCH_CPU_PROF=<dir> profiles them). Each route prints
 * the app's CPU and the generator's per answer: on two shared cores either can set the pace.
 */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const MATCH_TRACKS = 200;
const root = new URL('..', import.meta.url).pathname;

const LOAD = { connections: CONNECTIONS, seconds: SECONDS, warmUpMs: 500 };

/** A closed-loop load of `url` (bench/http-load.ts). */
const load = (url: string, headers: Record<string, string> = {}, cpu?: () => number) =>
  loadHttp(url, headers, LOAD, cpu);

/** CPU seconds (user + system) the process has used so far, from /proc (clock ticks of 1/100 s). */
function cpuSeconds(child: ChildProcess): number {
  const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * A route under load, with the app's own CPU time per answer: on a shared machine the rate follows the
 * load of the others, the CPU an answer costs much less so (1000 / ms per answer = answers per second one
 * free core would give).
 */
async function loadApp(child: ChildProcess, url: string, headers: Record<string, string> = {}) {
  const before = cpuSeconds(child);
  const result = await load(url, headers, () => cpuSeconds(child));
  return {
    ...result,
    cpuMsPerRequest: ((result.cpuSeconds ?? cpuSeconds(child) - before) * 1000) / result.requests,
  };
}

function rssMb(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function waitForHttp(url: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${output()}`);
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** BENCH_CPU_PROF=<dir>: every server of the run writes a `node --cpu-prof` profile there when it stops. */
const PROFILE_DIR = process.env.BENCH_CPU_PROF;

function spawnNode(args: string[], env: Record<string, string>) {
  const profile = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const child = spawn(process.execPath, [...profile, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  return { child, output: () => output };
}

const FLOOR_SERVER = `
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
const app = new Hono();
app.get('/api/floor', (c) => c.json({ signedIn: false, user: null }));
serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(process.env.PORT) });
`;

async function startFloor() {
  const port = await freePort();
  const server = spawnNode(['--input-type=module', '-e', FLOOR_SERVER], { PORT: String(port) });
  const url = `http://127.0.0.1:${port}/api/floor`;
  await waitForHttp(url, server.child, server.output);
  return { url, child: server.child, stop: () => server.child.kill('SIGTERM') };
}

/** `npm run sandbox` on a free port; resolves once it answers. */
async function startEmulators(env: Record<string, string>) {
  const port = await freePort();
  const sandbox = spawnNode(['scripts/start.mjs', 'sandbox'], { ...env, SANDBOX_PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/sandbox`, sandbox.child, sandbox.output);
  return { url, child: sandbox.child };
}

/** Signs up, connects both services and matches 200 tracks of the demo library (imported as a CSV). */
async function prepareSignedIn(url: string) {
  const client = new TestClient(url);
  const registered = await client.post('/api/auth/register', {
    username: 'bench',
    email: 'bench@example.com',
    password: 'bench-password-1',
  });
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);
  await connectService(client, 'spotify');
  await connectService(client, 'apple');
  const playlists = (await client.get('/api/playlists/spotify')).body as PlaylistSummary[];
  const big = playlists.find((p) => p.isOwned !== false && p.trackCount >= MATCH_TRACKS) as PlaylistSummary;
  const read = await client.post('/api/fetch-playlist-tracks', {
    playlistUrl: `https://open.spotify.com/playlist/${big.id}`,
  });
  const tracks = (read.body as FetchPlaylistTracksResponse).tracks.slice(0, MATCH_TRACKS);
  const quote = (text: string) => `"${text.replaceAll('"', '""')}"`;
  const csv = [
    '"Track URI","Track Name","Artist Name(s)","Album Name","Duration (ms)","ISRC"',
    ...tracks.map((t) =>
      [t.uri ?? '', t.name, t.artists.join(','), t.album, String(t.durationMs ?? ''), t.isrc ?? '']
        .map(quote)
        .join(','),
    ),
  ].join('\r\n');
  const imported = await client.post('/api/import/csv?fileName=bench.csv', undefined, {
    raw: csv,
    headers: { 'content-type': 'text/csv' },
  });
  const playlistId = (imported.body as { playlist: { id: string } }).playlist.id;
  const started = (
    await client.post('/api/match', { sourceService: 'spotify', destinationService: 'apple', playlistId })
  ).body as MatchSetView;
  const matched = await waitUntil(
    async () => (await client.get(`/api/match/${started.matchSetId}`)).body as MatchSetView,
    (view) => view.status !== 'matching',
    300_000,
    250,
    250,
  );
  if (matched.status !== 'ready') throw new Error(`the match ended ${matched.status}`);
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return { cookie, matchSetId: matched.matchSetId, results: matched.results.length };
}

const pct = (value: number, floor: number) => `${((100 * value) / floor).toFixed(1)} %`;

async function benchApp(
  label: string,
  env: Record<string, string>,
  floorServer: { url: string; child: ChildProcess },
  firstFloor: LoadResult,
) {
  const floorUrl = floorServer.url;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'crossfade-bench-http-'));
  const shared = { DATA_DIR: dataDir, PUBLIC_URL: url, SANDBOX_RATE_LIMIT: '0' };
  // The emulators run alone (`npm run sandbox`): they hold whole catalogs and are no part of a
  // deployment's footprint (decision 0045), so the app's RSS is its own; theirs is printed beside it.
  const sandbox = await startEmulators(shared);
  const app = spawnNode([...deploymentNodeFlags('src/server/main.ts'), 'scripts/start.mjs'], {
    ...env,
    ...shared,
    PORT: String(port),
    SANDBOX_URL: sandbox.url,
  });
  try {
    await waitForHttp(`${url}/api/health`, app.child, app.output);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idleRss = rssMb(app.child);
    const { cookie, matchSetId, results } = await prepareSignedIn(url);
    // The floor again, right before this app's routes: on a shared machine the load drifts during a run,
    // so each app is compared with the floor measured next to it.
    const floor = await loadApp(floorServer.child, floorUrl);
    console.log(
      `\n${label}: floor now ${floor.perSecond.toFixed(0)} req/s (first run ${firstFloor.perSecond.toFixed(0)}),` +
        ` floor CPU ${floor.cpuMsPerRequest.toFixed(2)} ms/answer`,
    );
    const rows: [string, LoadResult & { cpuMsPerRequest: number }][] = [
      ['anonymous GET /api/auth/status', await loadApp(app.child, `${url}/api/auth/status`)],
      ['signed-in GET /api/auth/status', await loadApp(app.child, `${url}/api/auth/status`, { cookie })],
      [
        'signed-in GET /api/playlists/spotify',
        await loadApp(app.child, `${url}/api/playlists/spotify`, { cookie }),
      ],
      [
        `signed-in GET /api/match/:id (${results} tracks)`,
        await loadApp(app.child, `${url}/api/match/${matchSetId}`, { cookie }),
      ],
    ];
    console.log(
      `\n${label}: idle RSS after start ${idleRss.toFixed(0)} MB; RSS after the load ${rssMb(app.child).toFixed(0)} MB` +
        ` (the emulators, in their own process: ${rssMb(sandbox.child).toFixed(0)} MB)`,
    );
    for (const [name, result] of rows) {
      console.log(
        `  ${name.padEnd(46)} ${result.perSecond.toFixed(0).padStart(6)} req/s (${pct(result.perSecond, floor.perSecond)} of the floor)` +
          `  p99 ${result.p99Ms.toFixed(1)} ms  app CPU ${result.cpuMsPerRequest.toFixed(2)} ms/answer` +
          `  generator CPU ${result.generatorCpuMs.toFixed(2)} ms` +
          `  ${(result.bodyBytes / 1024).toFixed(1)} KiB` +
          `${result.errors ? `  ${result.errors} non-200 answers` : ''}`,
      );
    }
  } finally {
    for (const child of [app.child, sandbox.child]) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  console.log(`bench:http: ${CONNECTIONS} connections, ${SECONDS} s per route, loopback`);
  // Compile once up front so neither measurement includes the build.
  const build = spawnNode(['scripts/start.mjs', 'cli'], {});
  await new Promise((resolve) => build.child.once('exit', resolve));
  const floorServer = await startFloor();
  const floor = await load(floorServer.url);
  console.log(
    `floor (bare Hono JSON route): ${floor.perSecond.toFixed(0)} req/s, p99 ${floor.p99Ms.toFixed(1)} ms`,
  );
  try {
    if (process.env.BENCH_ONLY !== 'postgres')
      await benchApp('embedded database (PGlite)', { DATABASE_URL: '' }, floorServer, floor);
    const serverUrl = process.env.DATABASE_URL;
    if (!serverUrl) {
      console.log('\nPostgreSQL: skipped (set DATABASE_URL=postgres://… to measure it too)');
      return;
    }
    // A fresh database on that server for this run, dropped afterwards.
    const name = `crossfade_bench_${Date.now()}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    try {
      await benchApp('PostgreSQL (DATABASE_URL)', { DATABASE_URL: url.toString() }, floorServer, floor);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  } finally {
    floorServer.stop();
  }
}

await main();
