import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { isConnectionFailure } from './expected-errors';
import { QUICK_APPLE_SETTLE, ROOMY_LIMITS, TEST_SANDBOX_SCENARIOS } from './roomy-limits';
import { SERVER_BUNDLE_ENV } from './server-bundle';

/**
 * The real server as a separate process, for tests that must kill it (crash and resume) or run several
 * processes against one database.
 */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** SIGKILL: no shutdown handler runs, as in a crash or an OOM kill. */
  crash(): Promise<void>;
  stop(): Promise<void>;
  output(): string;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The compiled file of each entry point in the run's server bundle (scripts/build-server.mjs names them). */
const BUNDLED: Record<string, string> = {
  'src/server/main.ts': 'main.js',
  'src/server/worker.ts': 'worker.js',
  'src/sandbox/main.ts': 'sandbox.js',
  'src/cli/main.ts': 'cli.js',
};

/**
 * The command line that runs an entry point: its compiled file when the process tier built the server
 * (server-bundle.ts), else the TypeScript source through tsx, as `npm run dev` does.
 */
export function entryCommand(entry: string): string[] {
  const bundle = process.env[SERVER_BUNDLE_ENV];
  const compiled = BUNDLED[entry];
  return bundle && compiled ? [join(bundle, compiled)] : ['--import', 'tsx', entry];
}

/**
 * The Node flags a deployment runs an entry point with: those `npm start` and `npm run worker` give it in
 * package.json (the V8 heap limit, decision 0045), so tests and benchmarks run the server as it is run.
 */
export function deploymentNodeFlags(entry: string): string[] {
  const script = { 'src/server/main.ts': 'start', 'src/server/worker.ts': 'worker' }[entry];
  if (!script) return [];
  const line: string = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')).scripts[script];
  return line.split(/\s+/).filter((word) => word.startsWith('--'));
}
const PACKAGE_JSON = new URL('../../../package.json', import.meta.url);

/** Spawns an entry point and collects its output. */
function spawnEntry(entry: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [...deploymentNodeFlags(entry), ...entryCommand(entry)], {
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      ...ROOMY_LIMITS,
      ...TEST_SANDBOX_SCENARIOS,
      ...QUICK_APPLE_SETTLE,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  /** The port the child said it listens on (src/server/main.ts tells a parent with an IPC channel). */
  let listening: number | undefined;
  child.on('message', (message) => {
    const port = (message as { listening?: unknown }).listening;
    if (typeof port === 'number') listening = port;
  });
  child.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const handle = {
    child,
    output: () => output,
    listeningOn: () => listening,
    async crash() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  /** Polls `ready` until it holds; fails with the process's output when it exits or takes too long. */
  const waitReady = async (what: string, ready: () => Promise<boolean>) => {
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${what} exited during start-up:\n${output}`);
      // Refused or dropped while the child starts: not ready yet. Any other error is a failure.
      const isReady = await ready().catch((error: unknown) => {
        if (isConnectionFailure(error)) return false;
        throw error;
      });
      if (isReady) return;
      if (Date.now() > deadline) throw new Error(`${what} did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  return { handle, waitReady };
}

/**
 * Starts a process on `fixed`, or on a free port: another process (a parallel test file's server) can take
 * that port between our look and the child's listen, and the child then exits with EADDRINUSE; it is
 * started again on another port.
 */
async function onFreePort<T>(fixed: string | undefined, startOn: (port: number) => Promise<T>): Promise<T> {
  if (fixed) return startOn(Number(fixed));
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(await freePort());
    } catch (error) {
      if (attempt >= 5 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  return onFreePort(env.PORT, async (port) => {
    const url = `http://127.0.0.1:${port}`;
    const { handle, waitReady } = spawnEntry('src/server/main.ts', {
      PORT: String(port),
      PUBLIC_URL: url,
      ...env,
    });
    // Ready when the child itself says it listens on the port: between `freePort` and the child's listen,
    // another test file's server can take the port; its health answers while the child is still starting
    // (then exits with EADDRINUSE), and a test would go on talking to that other server, which its own
    // test may kill (fetch failed, ECONNRESET) or fill with other data.
    await waitReady('server', async () => {
      if (handle.listeningOn() !== port) return false;
      return (await fetch(`${url}/api/health`)).ok;
    });
    return { url, ...handle };
  });
}

/** `npm run worker`: the job runner alone, ready once it logs that it runs. */
export async function startWorkerProcess(env: Record<string, string>): Promise<Omit<ServerProcess, 'url'>> {
  const { handle, waitReady } = spawnEntry('src/server/worker.ts', { ...env, LOG_LEVEL: 'info' });
  await waitReady('worker', async () => handle.output().includes('Crossfade worker is running'));
  return handle;
}

/** `npm run sandbox`: both emulators on their own port; `url` is the origin to give as SANDBOX_URL. */
export function startSandboxProcess(env: Record<string, string>): Promise<ServerProcess> {
  return onFreePort(env.SANDBOX_PORT, async (port) => {
    const url = `http://127.0.0.1:${port}`;
    const { handle, waitReady } = spawnEntry('src/sandbox/main.ts', { SANDBOX_PORT: String(port), ...env });
    // Its own start-up line (written once it listens) first: another server on the port answers /sandbox too.
    await waitReady(
      'sandbox',
      async () => handle.output().includes('Crossfade sandbox:') && (await fetch(`${url}/sandbox`)).ok,
    );
    return { url, ...handle };
  });
}
