import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { moveBackupContentsIntoHistory } from '../vault/backup-upgrade';
import type { Database } from './client';

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * Steps in TypeScript that move data between two SQL migrations, when the data needs our code (the history
 * codec) and a later migration drops what they read. Each runs at every start right after its migration
 * (a no-op once there is nothing left to move), so one cut short finishes at the next start, before the
 * later migrations run and before anything serves.
 */
const DATA_STEPS: { after: string; run: (db: Database) => Promise<unknown> }[] = [
  // Decision 0038: backups' `contents` become versions of the playlist histories; 0021 drops the column.
  { after: '0020_backups_header', run: moveBackupContentsIntoHistory },
];

/** What drizzle's `migrate` does, for a slice of the migrations (its dialect and session are internal). */
interface Migrator {
  dialect: { migrate(migrations: unknown[], session: unknown, config: object): Promise<void> };
  session: unknown;
}

/**
 * Runs the committed migrations that have not run yet, and the data steps between them. `stopAfter` (a
 * migration's tag) leaves the database as that migration left it: tests of an upgrade start there.
 */
export async function runMigrations(db: Database, options: { stopAfter?: string } = {}): Promise<void> {
  const config = { migrationsFolder: MIGRATIONS_FOLDER };
  const journal = JSON.parse(readFileSync(`${MIGRATIONS_FOLDER}/meta/_journal.json`, 'utf8')) as {
    entries: { tag: string }[];
  };
  const migrations = readMigrationFiles(config);
  if (migrations.length !== journal.entries.length) throw new Error('The migrations folder is incomplete.');
  const { dialect, session } = db as unknown as Migrator;
  let from = 0;
  for (const [index, { tag }] of journal.entries.entries()) {
    const step = DATA_STEPS.find((candidate) => candidate.after === tag);
    const stop = tag === options.stopAfter || index === journal.entries.length - 1;
    if (!step && !stop) continue;
    await dialect.migrate(migrations.slice(from, index + 1), session, config);
    from = index + 1;
    if (step) await step.run(db);
    if (stop) return;
  }
}
