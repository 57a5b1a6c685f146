import { and, eq, isNotNull, lte, ne } from 'drizzle-orm';
import type { Database } from '../db/client';
import { syncRuns, syncs, users } from '../db/schema';
import type { TwoWayBase } from '../db/stored-json';

/**
 * The SQL of a sync's run job and of the scheduler (house rule: SQL only in stores). Apart from
 * sync-store.ts, which enqueues the run job, so that the job can use these without an import cycle.
 */

type SyncRecord = typeof syncs.$inferSelect;

export type SyncRunChange = Partial<typeof syncRuns.$inferInsert>;

/** A run, its sync and its owner's plan; undefined parts when they no longer exist. */
export async function loadRunContext(db: Database, runId: string) {
  const [run] = await db.select().from(syncRuns).where(eq(syncRuns.id, runId));
  const [sync] = run ? await db.select().from(syncs).where(eq(syncs.id, run.syncId)) : [];
  const [owner] = sync
    ? await db.select({ plan: users.plan }).from(users).where(eq(users.id, sync.userId))
    : [];
  return { run, sync, plan: owner?.plan };
}

export async function updateRun(db: Database, runId: string, change: SyncRunChange): Promise<void> {
  await db.update(syncRuns).set(change).where(eq(syncRuns.id, runId));
}

/** A run's end: its figures and when it stopped. */
export async function finishRunRecord(db: Database, runId: string, change: SyncRunChange): Promise<void> {
  await updateRun(db, runId, { ...change, completedAt: new Date() });
}

export async function updateSync(
  db: Database,
  syncId: string,
  change: Partial<
    Pick<
      SyncRecord,
      | 'sourcePlaylistId'
      | 'destinationPlaylistId'
      | 'destinationUrl'
      | 'synced'
      | 'sourcePlaylistName'
      | 'nextRunAt'
    >
  > & { twoWayBase?: TwoWayBase | null },
): Promise<void> {
  await db.update(syncs).set(change).where(eq(syncs.id, syncId));
}

/** The due, unpaused syncs of accounts whose plan includes sync (Free accounts keep theirs, not run). */
export async function dueSyncs(db: Database, now: Date) {
  return db
    .select({ id: syncs.id, userId: syncs.userId, schedule: syncs.schedule, nextRunAt: syncs.nextRunAt })
    .from(syncs)
    .innerJoin(users, eq(users.id, syncs.userId))
    .where(
      and(
        eq(syncs.paused, false),
        isNotNull(syncs.nextRunAt),
        lte(syncs.nextRunAt, now),
        ne(users.plan, 'free'),
      ),
    );
}

/** Moves a sync's next run on, only if it is still `from`: answers whether this call moved it. */
export async function moveNextRun(
  db: Database,
  syncId: string,
  from: Date,
  to: Date | null,
): Promise<boolean> {
  const moved = await db
    .update(syncs)
    .set({ nextRunAt: to })
    .where(and(eq(syncs.id, syncId), eq(syncs.nextRunAt, from)))
    .returning({ id: syncs.id });
  return moved.length > 0;
}
