import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { runMigrations } from '../db/migrate';
import * as schema from '../db/schema';

/** Where the migrated template lives for this test run; createTestDatabase starts each database from it. */
export const PGLITE_TEMPLATE_ENV = 'CROSSFADE_TEST_PGLITE_TEMPLATE';

/**
 * Vitest global set-up of the database tiers: creating a PGlite cluster (initdb) and running every
 * migration takes seconds, so it happens once per run; each test file then loads a copy of the result.
 * The copy is a real database with the real migrations, as a fresh start of the app would have.
 */
export default async function setup() {
  if (process.env.TEST_DATABASE === 'postgres') return undefined;
  // The integration and process projects both list this set-up, and Vitest runs it once per project in
  // the same process: the second reuses the first's template (seconds of CPU), the last teardown removes it.
  const existing = process.env[PGLITE_TEMPLATE_ENV];
  if (existing && existsSync(existing)) return share(existing);
  const client = new PGlite();
  await runMigrations(drizzle(client, { schema }));
  const dump = await client.dumpDataDir('none');
  await client.close();
  const dir = mkdtempSync(join(tmpdir(), 'crossfade-pglite-template-'));
  const path = join(dir, 'template.tar');
  writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
  process.env[PGLITE_TEMPLATE_ENV] = path;
  return share(path);
}

const USERS_ENV = `${PGLITE_TEMPLATE_ENV}_USERS`;

/** One more project uses the template at `path`; its teardown removes the template after the last one's. */
function share(path: string) {
  process.env[USERS_ENV] = String(Number(process.env[USERS_ENV] ?? '0') + 1);
  return () => {
    const left = Number(process.env[USERS_ENV] ?? '1') - 1;
    process.env[USERS_ENV] = String(left);
    if (left > 0) return;
    delete process.env[PGLITE_TEMPLATE_ENV];
    rmSync(dirname(path), { recursive: true, force: true });
  };
}

/**
 * Writes this run's migrated template into `dataDir` as the embedded database a server process opens
 * there (DATA_DIR/pglite), so a process test does not pay for initdb and every migration in its first
 * child process: seconds of CPU each time. Only for tests whose subject is not that first start
 * (private-data.process.test.ts keeps a truly fresh DATA_DIR). Without a template (real PostgreSQL, or a
 * run without the global set-up) nothing is written and the server creates its database as usual.
 */
export function seedDataDir(dataDir: string): void {
  const template = process.env[PGLITE_TEMPLATE_ENV];
  if (!template || process.env.TEST_DATABASE === 'postgres') return;
  const target = join(dataDir, 'pglite');
  mkdirSync(target, { recursive: true, mode: 0o700 });
  extractTar(readFileSync(template), target);
}

/** The plain ustar archive `dumpDataDir('none')` writes: directories and regular files only. */
function extractTar(archive: Buffer, target: string): void {
  const text = (start: number, length: number) =>
    archive.toString('latin1', start, start + length).replace(/\0.*$/s, '');
  for (let offset = 0; offset + 512 <= archive.length; ) {
    const name = text(offset, 100);
    if (!name) break;
    const size = Number.parseInt(text(offset + 124, 12).trim() || '0', 8);
    const type = text(offset + 156, 1);
    const prefix = text(offset + 345, 155);
    const relative = `${prefix ? `${prefix}/` : ''}${name}`.replace(/^\/+/, '');
    const path = join(target, relative);
    if (!path.startsWith(target)) throw new Error(`template entry outside the data directory: ${relative}`);
    if (type === '5') mkdirSync(path, { recursive: true, mode: 0o700 });
    else if (type === '0' || type === '') {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writeFileSync(path, archive.subarray(offset + 512, offset + 512 + size), { mode: 0o600 });
    } else throw new Error(`unexpected entry type ${type} in the database template: ${relative}`);
    offset += 512 + Math.ceil(size / 512) * 512;
  }
}
