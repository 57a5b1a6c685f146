import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectService } from '../testing/connect-service';
import { type ServerProcess, startServerProcess } from '../testing/server-process';
import { TestClient } from '../testing/test-server';

/**
 * Issue 10, point 5: `npm start` with a fresh DATA_DIR and the embedded database. Even when started with a
 * umask that lets everyone read and write (0000, as in the report), nothing under DATA_DIR is readable,
 * writable or enterable by group or others, while it runs and after it stops.
 */
let dataDir: string;
let server: ServerProcess;

/** Every entry under `root` (itself included) with its permission bits. */
function entries(root: string): { path: string; mode: number }[] {
  const found: { path: string; mode: number }[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const path = stack.pop() as string;
    const stats = lstatSync(path);
    found.push({ path: relative(root, path) || '.', mode: stats.mode & 0o777 });
    if (stats.isDirectory()) for (const name of readdirSync(path)) stack.push(join(path, name));
  }
  return found;
}

const openToOthers = (root: string) =>
  entries(root)
    .filter((entry) => (entry.mode & 0o077) !== 0)
    .map((entry) => `${entry.path} ${entry.mode.toString(8)}`);

beforeAll(async () => {
  dataDir = join(mkdtempSync(join(tmpdir(), 'crossfade-private-')), 'data');
  const before = process.umask(0);
  try {
    // DATABASE_URL empty: the embedded database in DATA_DIR, whatever the test tier.
    server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: '', SANDBOX_RATE_LIMIT: '0' });
  } finally {
    process.umask(before);
  }
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(join(dataDir, '..'), { recursive: true, force: true });
});

describe('DATA_DIR is private', () => {
  it('holds the embedded database, keys and sandbox state, none of it open to others', async () => {
    const client = new TestClient(server.url);
    const registered = await client.post('/api/auth/register', {
      username: 'private-data',
      email: 'private-data@example.com',
      password: 'secret-words',
    });
    expect(registered.status).toBeLessThan(300);
    await connectService(client, 'spotify');

    const all = entries(dataDir);
    expect(all.some((entry) => entry.path.startsWith('pglite'))).toBe(true);
    expect(all.length).toBeGreaterThan(100);
    expect(openToOthers(dataDir)).toEqual([]);
    expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);

    await server.stop();
    expect(openToOthers(dataDir)).toEqual([]);
    expect(server.output()).not.toContain('other accounts on this machine can read');
  }, 120_000);
});
