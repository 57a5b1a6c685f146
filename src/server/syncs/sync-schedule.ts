import { and, eq, isNotNull, lte, ne } from 'drizzle-orm';
import type { AppDeps } from '../app-context';
import { syncs, users } from '../db/schema';
import { DomainError } from '../domain-errors';
import { nextRunAfter } from './sync-interval';
import { startRun } from './sync-store';

/** How often the scheduler looks for due syncs. */
export const SYNC_SCHEDULER_INTERVAL_MS = 5 * 60_000;

/**
 * Enqueues a run for every due, unpaused sync of a Pro (or Vault+) member, and moves its next run on.
 * Safe from as many processes as we like: a sync that already has a run queued or running is left alone
 * (the database allows one), and the next-run time is moved only by the process whose update still saw
 * it due. Answers how many runs this call started.
 */
export async function scheduleDueSyncs(deps: AppDeps, now = new Date()): Promise<number> {
  const due = await deps.db
    .select({ id: syncs.id, userId: syncs.userId, schedule: syncs.schedule, nextRunAt: syncs.nextRunAt })
    .from(syncs)
    .innerJoin(users, eq(users.id, syncs.userId))
    // Free accounts keep their syncs, but they do not run (sync is Pro).
    .where(
      and(
        eq(syncs.paused, false),
        isNotNull(syncs.nextRunAt),
        lte(syncs.nextRunAt, now),
        ne(users.plan, 'free'),
      ),
    );
  let started = 0;
  for (const sync of due) {
    if (!sync.nextRunAt) continue;
    // Only the process that moves the next run on starts the run.
    const moved = await deps.db
      .update(syncs)
      .set({ nextRunAt: nextRunAfter(sync.schedule, now) })
      .where(and(eq(syncs.id, sync.id), eq(syncs.nextRunAt, sync.nextRunAt)))
      .returning({ id: syncs.id });
    if (moved.length === 0) continue;
    const run = await startRun(deps, sync.userId, sync.id, { trigger: 'scheduled' }).catch(
      (error: unknown) => {
        // A run already under way is the usual reason (409); anything else is worth a line in the log.
        if (!(error instanceof DomainError))
          deps.logger.warn({ err: error, syncId: sync.id }, 'a scheduled sync did not start');
        return undefined;
      },
    );
    if (run) started++;
  }
  if (started > 0) deps.jobs.poke();
  return started;
}

/** Looks for due syncs at start and then every few minutes (the backup scheduler's pattern). */
export function startSyncScheduler(deps: AppDeps): () => void {
  const run = () =>
    scheduleDueSyncs(deps)
      .then((started) => {
        if (started > 0) deps.logger.info({ started }, 'scheduled syncs started');
      })
      .catch((error) => deps.logger.error({ err: error }, 'scheduling syncs failed'));
  void run();
  const timer = setInterval(run, SYNC_SCHEDULER_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
