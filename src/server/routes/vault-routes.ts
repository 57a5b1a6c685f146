import { Hono } from 'hono';
import { restoreRequestSchema } from '../../shared/api/vault';
import type { AppDeps, AppEnv } from '../app-context';
import { requireUser } from '../http/require-user';
import { readJson } from '../http/validation';
import { assertCanReadBackups, assertVault } from '../plans/plan-limits';
import { getBackup, requestManualBackup, restoreBackupPlaylist } from '../vault/backup-service';
import { listBackups } from '../vault/backup-store';

const FEATURE = 'Backups';

/** Vault+ backups (/vault). Every call checks the plan here: the page hiding a button is not enough. */
export function vaultRoutes(deps: AppDeps) {
  return (
    new Hono<AppEnv>()
      .post('/vault/backups', async (c) => {
        const user = requireUser(c);
        assertVault(user.plan, FEATURE);
        return c.json(await requestManualBackup(deps, user.id), 202);
      })
      .get('/vault/backups', async (c) => {
        const user = requireUser(c);
        await assertCanReadBackups(deps.db, user.id, user.plan);
        return c.json(await listBackups(deps, user.id));
      })
      .get('/vault/backups/:id', async (c) => {
        const user = requireUser(c);
        await assertCanReadBackups(deps.db, user.id, user.plan);
        return c.json(await getBackup(deps, user.id, c.req.param('id')));
      })
      // The backup as a JSON file (issue 22: downloadable for 30 days after leaving Vault+ too).
      .get('/vault/backups/:id/download', async (c) => {
        const user = requireUser(c);
        await assertCanReadBackups(deps.db, user.id, user.plan);
        const backup = await getBackup(deps, user.id, c.req.param('id'));
        c.header(
          'Content-Disposition',
          `attachment; filename="crossfade-backup-${backup.createdAt.slice(0, 10)}.json"`,
        );
        c.header('Cache-Control', 'no-store');
        return c.json(backup);
      })
      .post('/vault/backups/:id/restore', async (c) => {
        const user = requireUser(c);
        assertVault(user.plan, FEATURE);
        const input = await readJson(c, restoreRequestSchema);
        return c.json(await restoreBackupPlaylist(deps, user.id, c.req.param('id'), input));
      })
  );
}
