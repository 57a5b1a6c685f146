import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import type { DatabaseHandle, DatabaseLocation } from './client';
import { runMigrations } from './migrate';
import { attachReadCache, ReadCache } from './read-cache';
import * as schema from './schema';

/**
 * Opens the database (db/client.ts) and brings it up to date: both engines run the same committed
 * migrations at start-up, and the data steps between them (db/migrate.ts), before anything serves.
 * `stopAfter` is for tests of an upgrade. Apart from db/client.ts so that the data steps, which use
 * feature code, do not make every user of the `Database` type import them.
 */

/** Arbitrary constant: the advisory lock that keeps two starting processes from migrating at once. */
const MIGRATION_LOCK_ID = 482_113_907;

/**
 * PGlite's settings. One connection and a small database: 16 MB of shared buffers (Postgres's default is
 * 128 MB, all of it resident in the WebAssembly heap) are plenty and keep the embedded server's memory low.
 */
const PGLITE_OPTIONS = { postgresqlconf: ['shared_buffers = 16MB'] };

export async function openDatabase(
  location: DatabaseLocation,
  options: { stopAfter?: string } = {},
): Promise<DatabaseHandle> {
  if ('url' in location) {
    const pool = new pg.Pool({ connectionString: location.url, max: 10 });
    // An idle connection the server drops (restart, failover, shutdown) is reported here; without a
    // listener it would crash the process. The pool replaces it, and queries in flight still reject.
    pool.on('error', () => undefined);
    const cache = new ReadCache();
    const db = drizzlePostgres(pool, { schema, logger: cacheWatcher(cache) });
    attachReadCache(db, cache);
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      await runMigrations(drizzlePostgres(client, { schema }), options);
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
    if (!existsSync(`${dataPath}/PG_VERSION`)) await createCluster(dataPath);
  }
  const client =
    'memory' in location && location.from
      ? new PGlite({ ...PGLITE_OPTIONS, loadDataDir: location.from })
      : new PGlite(dataPath, PGLITE_OPTIONS);
  const cache = new ReadCache();
  const db = drizzlePglite(client, { schema, logger: cacheWatcher(cache) });
  attachReadCache(db, cache);
  await runMigrations(db, options);
  return { db, kind: 'pglite', close: () => client.close() };
}

/**
 * A new data directory: PGlite runs initdb in its WebAssembly heap, which grows to about 600 MB and stays
 * that large for the life of the instance. Closing it is not enough: the memory goes back only when the
 * garbage collector happens to free the closed instance, which an idle server may never do (the idle RSS
 * measured 360 MB or 700 MB from one start to the next). So the cluster is created by a short-lived
 * child process, and this one only ever opens a ready cluster. Where the package cannot be located for a
 * child (a bundler's test run), it is created here as before.
 */
async function createCluster(dataPath: string): Promise<void> {
  let pgliteUrl: string | undefined;
  try {
    pgliteUrl = import.meta.resolve('@electric-sql/pglite');
  } catch {
    pgliteUrl = undefined;
  }
  if (pgliteUrl?.startsWith('file:')) {
    const script = [
      `import { PGlite } from ${JSON.stringify(pgliteUrl)};`,
      `const db = new PGlite(process.argv[1], ${JSON.stringify(PGLITE_OPTIONS)});`,
      'await db.waitReady;',
      'await db.close();',
    ].join('\n');
    await new Promise<void>((resolve, reject) => {
      execFile(process.execPath, ['--input-type=module', '-e', script, dataPath], (error, _stdout, stderr) =>
        error
          ? reject(new Error(`Could not create the embedded database: ${stderr || error.message}`))
          : resolve(),
      );
    });
    return;
  }
  const fresh = new PGlite(dataPath, PGLITE_OPTIONS);
  await fresh.waitReady;
  await fresh.close();
}

/** Feeds every statement's text to the read cache, which clears itself on writes it depends on. */
function cacheWatcher(cache: ReadCache) {
  return { logQuery: (query: string) => cache.noteQuery(query) };
}
