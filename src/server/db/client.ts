import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema';

/**
 * One database API over two engines: PostgreSQL when DATABASE_URL is set, otherwise PGlite (Postgres
 * compiled to WebAssembly) in DATA_DIR. Both run the same committed migrations at start-up.
 */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

/** Arbitrary constant: the advisory lock that keeps two starting processes from migrating at once. */
const MIGRATION_LOCK_ID = 482_113_907;

export type DatabaseLocation =
  | { url: string }
  | { dataDir: string }
  /** In memory; `from` is a dump (PGlite `dumpDataDir`) to start from instead of an empty database. */
  | { memory: true; from?: Blob };

/**
 * PGlite's settings. One connection and a small database: 16 MB of shared buffers (Postgres's default is
 * 128 MB, all of it resident in the WebAssembly heap) are plenty and keep the embedded server's memory low.
 */
const PGLITE_OPTIONS = { postgresqlconf: ['shared_buffers = 16MB'] };

export async function openDatabase(location: DatabaseLocation): Promise<DatabaseHandle> {
  if ('url' in location) {
    const pool = new pg.Pool({ connectionString: location.url, max: 10 });
    // An idle connection the server drops (restart, failover, shutdown) is reported here; without a
    // listener it would crash the process. The pool replaces it, and queries in flight still reject.
    pool.on('error', () => undefined);
    const db = drizzlePostgres(pool, { schema });
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      await migratePostgres(drizzlePostgres(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
      client.release();
    }
    return { db, kind: 'postgres', close: () => pool.end() };
  }

  let dataPath: string | undefined;
  if ('dataDir' in location) {
    dataPath = `${location.dataDir}/pglite`;
    mkdirSync(dataPath, { recursive: true });
    if (!existsSync(`${dataPath}/PG_VERSION`)) {
      // A new data directory: PGlite runs initdb in the same WebAssembly heap, which then stays hundreds
      // of megabytes larger for the life of the process. Create the cluster, close, and open it afresh.
      const fresh = new PGlite(dataPath, PGLITE_OPTIONS);
      await fresh.waitReady;
      await fresh.close();
    }
  }
  const client =
    'memory' in location && location.from
      ? new PGlite({ ...PGLITE_OPTIONS, loadDataDir: location.from })
      : new PGlite(dataPath, PGLITE_OPTIONS);
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return { db, kind: 'pglite', close: () => client.close() };
}

/** Cheap liveness probe for /api/health. */
export async function pingDatabase(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
