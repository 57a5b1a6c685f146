// `npm start` (and `npm run worker`, `npm run sandbox`): build what is missing or older than its sources,
// then run the compiled JavaScript. `node scripts/start.mjs [main|worker|sandbox|cli]`, main by default.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildServer, SERVER_ENTRIES, SERVER_OUT } from './build-server.mjs';

const root = new URL('..', import.meta.url).pathname;
const entry = process.argv[2] ?? 'main';
if (!(entry in SERVER_ENTRIES)) {
  console.error(`Unknown entry "${entry}": use one of ${Object.keys(SERVER_ENTRIES).join(', ')}.`);
  process.exit(2);
}
// The entry's own arguments (the CLI's command) follow its name.
process.argv.splice(2, 1);

function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, name)));
  return newest;
}

/** Whether `output` is missing or older than any of `inputs` (files or folders, relative to the root). */
function stale(output, inputs) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return inputs.some((input) => newestChange(join(root, input)) > built);
}

const shared = ['src/shared', 'package-lock.json'];
// The worker, the sandbox and the CLI serve no pages.
if (
  entry === 'main' &&
  stale(join(root, 'dist/web/index.html'), ['src/web', 'vite.config.ts', 'index.html', ...shared])
) {
  console.log('Building the web app…');
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
}
if (
  stale(join(SERVER_OUT, 'BUILD'), [
    'src/server',
    'src/sandbox',
    'src/cli',
    'scripts/build-server.mjs',
    ...shared,
  ])
) {
  if (entry !== 'cli') console.log('Compiling the server…');
  await buildServer();
}

// Stack traces name the TypeScript sources.
process.setSourceMapsEnabled(true);
await import(join(SERVER_OUT, `${entry}.js`));
