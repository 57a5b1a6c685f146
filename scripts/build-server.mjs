// Compiles the server, the worker, the standalone sandbox and the operator CLI into dist/server with
// esbuild (one ESM bundle per entry, shared chunks, node_modules left as imports), and copies the
// migrations beside them: the compiled code finds them at ./migrations as the sources do.
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
export const SERVER_OUT = join(root, 'dist/server');
export const SERVER_ENTRIES = {
  main: 'src/server/main.ts',
  worker: 'src/server/worker.ts',
  sandbox: 'src/sandbox/main.ts',
  cli: 'src/cli/main.ts',
};

/** `outdir`: dist/server for `npm run build` and `npm start`; the process-tier tests build into a folder of their own. */
export async function buildServer(outdir = SERVER_OUT) {
  // Loaded here, not at the top: `npm start` imports this file and should not hold esbuild in memory.
  const { build } = await import('esbuild');
  rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: SERVER_ENTRIES,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  cpSync(join(root, 'src/server/db/migrations'), join(outdir, 'migrations'), { recursive: true });
  // Written last: its time is what `npm start` compares the sources with.
  writeFileSync(join(outdir, 'BUILD'), `${new Date().toISOString()}\n`);
}

if (process.argv[1] === new URL(import.meta.url).pathname) await buildServer(process.argv[2] ?? SERVER_OUT);
