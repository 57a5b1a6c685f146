import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';

/**
 * One database API over two engines: PostgreSQL when DATABASE_URL is set, otherwise PGlite (Postgres
 * compiled to WebAssembly) in DATA_DIR. `openDatabase` (db/open.ts) opens one and runs the migrations.
 */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export type DatabaseLocation =
  | { url: string }
  | { dataDir: string }
  /** In memory; `from` is a dump (PGlite `dumpDataDir`) to start from instead of an empty database. */
  | { memory: true; from?: Blob };

/** Cheap liveness probe for /api/health. */
export async function pingDatabase(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
