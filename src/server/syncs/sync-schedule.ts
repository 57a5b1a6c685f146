import type { AppDeps } from '../app-context';
import { DomainError } from '../domain-errors';
import { nextRunAfter } from './sync-interval';
import { dueSyncs, moveNextRun } from './sync-run-store';
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
  // Free accounts keep their syncs, but they do not run (sync is Pro).
  const due = await dueSyncs(deps.db, now);
  let started = 0;
  for (const sync of due) {
    if (!sync.nextRunAt) continue;
    // Only the process that moves the next run on starts the run.
    if (!(await moveNextRun(deps.db, sync.id, sync.nextRunAt, nextRunAfter(sync.schedule, now)))) continue;
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
