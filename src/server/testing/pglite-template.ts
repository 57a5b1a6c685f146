import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_FOLDER } from '../db/client';
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
  const client = new PGlite();
  await migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
  const dump = await client.dumpDataDir('none');
  await client.close();
  const dir = mkdtempSync(join(tmpdir(), 'crossfade-pglite-template-'));
  const path = join(dir, 'template.tar');
  writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
  process.env[PGLITE_TEMPLATE_ENV] = path;
  return () => rmSync(dir, { recursive: true, force: true });
}
