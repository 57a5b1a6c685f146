import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Where this run's compiled server is; the process-tier helpers start the entry points from it. */
export const SERVER_BUNDLE_ENV = 'CROSSFADE_TEST_SERVER_BUNDLE';

/**
 * Vitest global set-up of the process tier: the server, worker, sandbox and CLI compiled once per run
 * (esbuild, the same build as `npm run build`), so every child process a test starts runs the compiled
 * JavaScript, as `npm start` does, instead of transpiling the sources again through tsx at each start.
 */
export default function setup() {
  // Inside the project, so the bundle's imports of packages resolve to its node_modules (they stay external).
  const cache = join('node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(process.cwd(), cache, 'crossfade-test-server-'));
  execFileSync(process.execPath, ['scripts/build-server.mjs', dir], { stdio: 'inherit' });
  process.env[SERVER_BUNDLE_ENV] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
