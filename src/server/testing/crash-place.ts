import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseHandle } from '../db/client';
import { seedDataDir } from './pglite-template';
import { type ServerProcess, startServerProcess } from './server-process';
import { createTestDatabase, usesRealPostgres } from './test-database';

/**
 * Where a crash test's servers live: a data directory and a database that outlive each server process, so
 * the test can SIGKILL one and start the next on the same data.
 */
export interface CrashPlace {
  dataDir: string;
  /** The test's own PostgreSQL database when the tier runs on PostgreSQL; otherwise the children's PGlite. */
  database: (DatabaseHandle & { url?: string }) | undefined;
  /** Starts the compiled server here (the last one is the one `close` kills). */
  start(extra?: Record<string, string>): Promise<ServerProcess>;
  /** Kills the last server, then drops the database and the directory. */
  close(): Promise<void>;
}

export async function createCrashPlace(
  prefix: string,
  settings: Record<string, string> = {},
): Promise<CrashPlace> {
  const dataDir = mkdtempSync(join(tmpdir(), `crossfade-${prefix}-`));
  // The run's migrated database: the first start does not spend seconds of CPU on initdb (the subject is the crash).
  seedDataDir(dataDir);
  const database = usesRealPostgres() ? await createTestDatabase() : undefined;
  let running: ServerProcess | undefined;
  return {
    dataDir,
    database,
    async start(extra = {}) {
      running = await startServerProcess({
        DATA_DIR: dataDir,
        SANDBOX_RATE_LIMIT: '0',
        // The restarted server takes over the crashed one's job once its lease runs out: 10 s, not 30.
        // (Not much less: on a loaded machine a live worker must not lose its lease between heartbeats.)
        JOB_LEASE_SECONDS: '10',
        // The in-process tests' catalog size: the demo library whole, generated in a fraction of the time.
        SANDBOX_CATALOG_TRACKS: '3000',
        ...(database ? { DATABASE_URL: database.url ?? '' } : {}),
        ...settings,
        ...extra,
      });
      return running;
    },
    async close() {
      await running?.crash();
      await database?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
