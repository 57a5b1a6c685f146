import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadCatalog } from '../../sandbox/catalog/load-file';
import type { MatchSetView, TransferResult } from '../../shared/api/transfer';
import { loadConfig } from '../config';
import { openDatabase } from '../db/open';
import { createLogger } from '../logger';
import { createRuntime } from '../runtime';
import { connectService } from './connect-service';
import {
  type ServerProcess,
  startSandboxProcess,
  startServerProcess,
  startWorkerProcess,
} from './server-process';
import { TestClient } from './test-server';

/**
 * A scaled-out deployment on one PostgreSQL, as the README's *Running several processes* describes: the
 * emulators alone (`npm run sandbox`), API processes that run no jobs and `npm run worker` processes. For
 * the process tests and `npm run bench:scale`. `SANDBOX_URL` may point at a proxy in front of the
 * emulators (`sandboxUrl`), which a benchmark uses to count the calls that reach them.
 */
export interface Deployment {
  sandbox: ServerProcess;
  apis: ServerProcess[];
  workers: Omit<ServerProcess, 'url'>[];
  /** The settings every Crossfade process of the deployment shares. */
  env: Record<string, string>;
  /** Every process's output, by name. */
  outputs(): { name: string; output: string; pid: number | undefined }[];
  stop(): Promise<void>;
}

export interface DeploymentOptions {
  databaseUrl: string;
  apis: number;
  workers: number;
  /** Job slots of each worker. */
  jobWorkers: number;
  rateLimit: number;
  rateWindowSeconds: number;
  /** Called with the emulators' address; returns the address Crossfade's processes call them at. */
  sandboxUrl?: (url: string) => Promise<string> | string;
  logLevel?: string;
}

export async function startDeployment(options: DeploymentOptions): Promise<Deployment> {
  const dataDir = mkdtempSync(join(tmpdir(), 'crossfade-deployment-'));
  // One public address for every process (a proxy's), whose Spotify callback the sandbox registers.
  const publicUrl = 'http://127.0.0.1:1';
  const sandbox = await startSandboxProcess({
    DATA_DIR: dataDir,
    PUBLIC_URL: publicUrl,
    SANDBOX_RATE_LIMIT: String(options.rateLimit),
    SANDBOX_RATE_WINDOW_SECONDS: String(options.rateWindowSeconds),
  });
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PUBLIC_URL: publicUrl,
    DATABASE_URL: options.databaseUrl,
    SANDBOX_URL: options.sandboxUrl ? await options.sandboxUrl(sandbox.url) : sandbox.url,
    SANDBOX_RATE_WINDOW_SECONDS: String(options.rateWindowSeconds),
    // Every process must decrypt the provider tokens the others stored.
    TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    LOG_LEVEL: options.logLevel ?? 'warn',
  };
  const started: { name: string; process: Omit<ServerProcess, 'url'> }[] = [
    { name: 'sandbox', process: sandbox },
  ];
  const stop = async () => {
    await Promise.all(started.map(({ process }) => process.stop()));
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const apis = await Promise.all(
      Array.from({ length: options.apis }, () => startServerProcess({ ...env, JOB_WORKERS: '0' })),
    );
    apis.forEach((api, index) => {
      started.push({ name: `api ${index + 1}`, process: api });
    });
    const workers = await Promise.all(
      Array.from({ length: options.workers }, () =>
        startWorkerProcess({ ...env, JOB_WORKERS: String(options.jobWorkers) }),
      ),
    );
    workers.forEach((worker, index) => {
      started.push({ name: `worker ${index + 1}`, process: worker });
    });
    return {
      sandbox,
      apis,
      workers,
      env,
      outputs: () =>
        started.map(({ name, process }) => ({ name, output: process.output(), pid: process.child.pid })),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * A person signed up through `api` with both services connected to their own sandbox accounts (seeded
 * from a fixed scenario, decision 0022), so each person's destination is theirs alone.
 */
export async function signUpPerson(
  api: ServerProcess,
  username: string,
): Promise<{ client: TestClient; userId: string }> {
  const client = new TestClient(api.url);
  const signup = await client.post('/api/auth/register', {
    username,
    email: `${username}@example.com`,
    password: 'secret-words',
  });
  if (signup.status !== 201) throw new Error(`sign-up answered ${signup.status}: ${signup.text}`);
  const scenario = `scale-${username}`
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .slice(0, 48);
  await connectService(client, 'spotify', { account: 'own', scenario });
  await connectService(client, 'apple', { account: 'own', scenario });
  return { client, userId: (signup.body as { user: { id: string } }).user.id };
}

/**
 * Crossfade's own clients in this process, on the deployment's database and emulators, for setting up
 * libraries (a playlist of given tracks) and reading destinations back; not for the work measured.
 */
export async function openSetupRuntime(deployment: Deployment) {
  const config = loadConfig({ ...deployment.env, JOB_WORKERS: '0', LOG_LEVEL: 'silent', PORT: '1' });
  const database = await openDatabase({ url: deployment.env.DATABASE_URL ?? '' });
  const { deps } = await createRuntime(config, database.db, createLogger('silent'), {
    mountEmulators: false,
  });
  return {
    providers: deps.providers,
    /** The catalog the emulators serve (the generated one of the default size). */
    catalog: loadCatalog({ trackCount: config.SANDBOX_CATALOG_TRACKS }),
    close: () => database.close(),
  };
}

export interface WatchedJob {
  id: string;
  status: string;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  error: string | null;
}

/**
 * Watches the jobs table (one query every `everyMs` for all jobs, rather than a poll of the API per
 * person): `finished(id)` resolves when the job has succeeded or failed.
 */
export async function watchJobs(databaseUrl: string, everyMs = 100) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const waiting = new Map<string, ((job: WatchedJob) => void)[]>();
  const seen = new Map<string, WatchedJob>();
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await client.query<{
        id: string;
        status: string;
        created_at: Date;
        started_at: Date | null;
        finished_at: Date | null;
        error: string | null;
      }>('select id, status, created_at, started_at, finished_at, error from jobs');
      for (const row of rows) {
        const job: WatchedJob = {
          id: row.id,
          status: row.status,
          createdAt: row.created_at.getTime(),
          startedAt: row.started_at?.getTime() ?? null,
          finishedAt: row.finished_at?.getTime() ?? null,
          error: row.error,
        };
        seen.set(job.id, job);
        if (job.status === 'succeeded' || job.status === 'failed') {
          for (const resolve of waiting.get(job.id) ?? []) resolve(job);
          waiting.delete(job.id);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    finished(id: string): Promise<WatchedJob> {
      const known = seen.get(id);
      if (known && (known.status === 'succeeded' || known.status === 'failed')) return Promise.resolve(known);
      return new Promise<WatchedJob>((resolve) => waiting.set(id, [...(waiting.get(id) ?? []), resolve]));
    },
    jobs: () => [...seen.values()],
    async stop() {
      running = false;
      await loop;
      await client.end();
    },
  };
}

export interface MovedPlaylist {
  /** From the match request to the transfer's end (ms). */
  elapsedMs: number;
  /** From the match request to the match's end (ms): the rest is the transfer's. */
  matchedMs: number;
  status: string;
  error: string | null;
  playlistId: string | null;
  /** The destination tracks the transfer was to write: every accepted match. */
  expected: string[];
}

/** One person's transfer as the wizard drives it: match, then transfer what matched, until done. */
export async function moveSpotifyPlaylist(
  client: TestClient,
  playlistId: string,
  watcher: Awaited<ReturnType<typeof watchJobs>>,
): Promise<MovedPlaylist> {
  const started = Date.now();
  const match = await client.post('/api/match', {
    sourceService: 'spotify',
    destinationService: 'apple',
    playlistId,
  });
  if (match.status >= 300) throw new Error(`match answered ${match.status}: ${match.text}`);
  const matchView = match.body as MatchSetView;
  const matched = await watcher.finished(matchView.jobId ?? '');
  const matchedMs = (matched.finishedAt ?? Date.now()) - started;
  if (matched.status !== 'succeeded') {
    return {
      elapsedMs: Date.now() - started,
      matchedMs,
      status: 'failed',
      error: matched.error,
      playlistId: null,
      expected: [],
    };
  }
  const transfer = await client.post('/api/transfer', {
    sourceService: 'spotify',
    destinationService: 'apple',
    playlistId,
    includeUnmatched: false,
    matchSetId: matchView.matchSetId,
  });
  if (transfer.status >= 300) throw new Error(`transfer answered ${transfer.status}: ${transfer.text}`);
  const transferView = transfer.body as TransferResult;
  const done = await watcher.finished(transferView.jobId ?? '');
  const elapsedMs = (done.finishedAt ?? Date.now()) - started;
  const result = (await client.get(`/api/transfers/${transferView.transferId}`)).body as TransferResult;
  const rows = ((await client.get(`/api/match/${matchView.matchSetId}`)).body as MatchSetView).results;
  // Review-band rows nobody accepted are not written (decision 0006).
  const expected = rows.flatMap((row) =>
    row.destinationTrack && row.status === 'accepted' ? [row.destinationTrack.id] : [],
  );
  return {
    elapsedMs,
    matchedMs,
    status: done.status,
    error: done.error,
    playlistId: result.playlistId ?? null,
    expected,
  };
}
