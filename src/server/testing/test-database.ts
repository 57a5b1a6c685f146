import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { DatabaseHandle } from '../db/client';
import { openDatabase } from '../db/open';
import { PGLITE_TEMPLATE_ENV } from './pglite-template';

/**
 * A fresh, migrated database for one test file. PGlite in memory by default; with TEST_DATABASE=postgres
 * (`npm run test:pg`, CI) a new database on the real PostgreSQL server, dropped again afterwards, so the
 * same tests prove both engines. `stopAfter` (a migration's tag) leaves it as that migration did.
 */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export const usesRealPostgres = () => process.env.TEST_DATABASE === 'postgres';

export async function createTestDatabase(
  options: { stopAfter?: string } = {},
): Promise<DatabaseHandle & { url?: string }> {
  if (!usesRealPostgres() && options.stopAfter) {
    // A database as an older version left it (a test of an upgrade): migrated here, not from the template.
    return openDatabase({ memory: true }, options);
  }
  if (!usesRealPostgres()) {
    // Started from the migrated template of this run (see pglite-template.ts) when there is one.
    const template = process.env[PGLITE_TEMPLATE_ENV];
    return openDatabase(
      template ? { memory: true, from: new Blob([readFileSync(template)]) } : { memory: true },
    );
  }

  const name = `crossfade_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();

  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString() }, options);
  return {
    ...handle,
    kind: 'postgres',
    url: url.toString(),
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
