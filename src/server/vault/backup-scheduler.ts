import type { AppDeps } from '../app-context';
import { enqueue } from '../jobs/define-job';
import { existingDedupeKeys } from '../jobs/job-store';
import { backupJob } from './backup-job';
import { vaultMembersWithConnections } from './backup-store';

const HOUR_MS = 60 * 60_000;

export const dailyBackupKey = (userId: string, day: Date) =>
  `backup:${userId}:${day.toISOString().slice(0, 10)}`;

/**
 * Enqueues today's (UTC) backup for every Vault+ member with a connected service. The dedupe key makes
 * this safe to run as often as we like, from as many processes as we like: one backup per person a day.
 * Answers how many jobs this call newly created.
 */
export async function scheduleDailyBackups(
  deps: Pick<AppDeps, 'db' | 'jobs'>,
  now = new Date(),
): Promise<number> {
  const members = await vaultMembersWithConnections(deps.db);
  if (members.length === 0) return 0;
  const keys = members.map((member) => dailyBackupKey(member, now));
  const existing = await existingDedupeKeys(deps.db, keys);
  for (const member of members) {
    await enqueue(deps.db, backupJob, {
      userId: member,
      payload: { userId: member, trigger: 'scheduled' },
      dedupeKey: dailyBackupKey(member, now),
      maxAttempts: 3,
    });
  }
  // Informational only (for the log): another process may have enqueued some meanwhile.
  const created = members.length - existing.size;
  if (created > 0) deps.jobs.poke();
  return created;
}

/** Schedules at start and then hourly (a day boundary is caught within the hour). Returns a stop function. */
export function startBackupScheduler(deps: Pick<AppDeps, 'db' | 'jobs' | 'logger'>): () => void {
  const run = () =>
    scheduleDailyBackups(deps)
      .then((created) => {
        if (created > 0) deps.logger.info({ created }, 'daily backups scheduled');
      })
      .catch((error) => deps.logger.error({ err: error }, 'scheduling daily backups failed'));
  void run();
  const timer = setInterval(run, HOUR_MS);
  timer.unref();
  return () => clearInterval(timer);
}
