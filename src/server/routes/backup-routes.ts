import { and, eq, inArray } from 'drizzle-orm';
import { Hono } from 'hono';
import { restoreRequestSchema } from '../../shared/api/backups';
import type { AppDeps, AppEnv } from '../app-context';
import { BACKUP_JOB_KIND, type BackupJobPayload } from '../backups/backup-job';
import { getBackup, listBackups, restoreBackupPlaylist } from '../backups/backup-store';
import { jobs } from '../db/schema';
import { requireUser } from '../http/require-user';
import { readJson } from '../http/validation';
import { enqueueJob } from '../jobs/job-queue';
import { assertVault } from '../plans/plan-limits';

const FEATURE = 'Backups';

/** Vault+ backups (/vault). Every call checks the plan here: the page hiding a button is not enough. */
export function backupRoutes(deps: AppDeps) {
  return new Hono<AppEnv>()
    .post('/vault/backups', async (c) => {
      const user = requireUser(c);
      assertVault(user.plan, FEATURE);
      // A second click while a backup is under way follows that one instead of starting another.
      const [running] = await deps.db
        .select({ id: jobs.id })
        .from(jobs)
        .where(
          and(
            eq(jobs.userId, user.id),
            eq(jobs.kind, BACKUP_JOB_KIND),
            inArray(jobs.status, ['queued', 'running']),
          ),
        )
        .limit(1);
      if (running) return c.json({ jobId: running.id }, 202);
      const payload: BackupJobPayload = { userId: user.id, trigger: 'manual' };
      const job = await enqueueJob(deps.db, {
        kind: BACKUP_JOB_KIND,
        userId: user.id,
        payload,
        maxAttempts: 3,
      });
      deps.jobs.poke();
      return c.json({ jobId: job.id }, 202);
    })
    .get('/vault/backups', async (c) => {
      const user = requireUser(c);
      assertVault(user.plan, FEATURE);
      return c.json(await listBackups(deps, user.id));
    })
    .get('/vault/backups/:id', async (c) => {
      const user = requireUser(c);
      assertVault(user.plan, FEATURE);
      return c.json(await getBackup(deps, user.id, c.req.param('id')));
    })
    .post('/vault/backups/:id/restore', async (c) => {
      const user = requireUser(c);
      assertVault(user.plan, FEATURE);
      const input = await readJson(c, restoreRequestSchema);
      return c.json(await restoreBackupPlaylist(deps, user.id, c.req.param('id'), input));
    });
}
