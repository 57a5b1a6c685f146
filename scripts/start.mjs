// `npm start`: build the web app when its sources are newer than the build, then run the server.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { register } from 'tsx/esm/api';

const root = new URL('..', import.meta.url).pathname;
const builtIndex = join(root, 'dist/web/index.html');

function newestChange(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const sources = [join(root, 'src/web'), join(root, 'src/shared')];
const needsBuild =
  !existsSync(builtIndex) ||
  Math.max(...sources.map(newestChange), statSync(join(root, 'vite.config.ts')).mtimeMs) >
    statSync(builtIndex).mtimeMs;

if (needsBuild) {
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

register();
await import('../src/server/main.ts');
