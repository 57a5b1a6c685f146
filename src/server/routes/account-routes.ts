import { Hono } from 'hono';
import { deleteCookie } from 'hono/cookie';
import { ACCOUNT_EXPORT_FILE_NAME, accountDeleteSchema, accountUpdateSchema } from '../../shared/api/account';
import { SESSION_COOKIE } from '../../shared/api/auth';
import { deleteAccount } from '../account/account-deletion';
import { accountExportDocument } from '../account/account-export';
import { loadAccountProfile, setPublicProfile } from '../account/account-profile';
import type { AppDeps, AppEnv } from '../app-context';
import { jsonPieces } from '../export/json-stream';
import { downloadStream } from '../export/streamed-download';
import { requireUser } from '../http/require-user';
import { readJson } from '../http/validation';
import { transferUsage } from '../plans/plan-limits';

/**
 * The account area (/account): profile, the public-profile switch, plan usage, "Download my data" and
 * account deletion. Billing has its own routes (billing-routes.ts).
 */
export function accountRoutes(deps: AppDeps) {
  const { db } = deps;
  return new Hono<AppEnv>()
    .get('/account', async (c) => {
      const user = requireUser(c);
      return c.json(await loadAccountProfile(db, user.id));
    })
    .patch('/account', async (c) => {
      const user = requireUser(c);
      const { publicProfile } = await readJson(c, accountUpdateSchema);
      await setPublicProfile(db, user.id, publicProfile);
      return c.json(await loadAccountProfile(db, user.id));
    })
    .delete('/account', async (c) => {
      const user = requireUser(c);
      const { confirmUsername } = await readJson(c, accountDeleteSchema);
      await deleteAccount(deps, user.id, confirmUsername);
      deps.logger.info({ userId: user.id }, 'account deleted');
      deleteCookie(c, SESSION_COOKIE, { path: '/' });
      return c.body(null, 204);
    })
    .get('/account/export', async (c) => {
      const user = requireUser(c);
      // Written as it is read, a page of each list at a time (decision 0042).
      const body = await downloadStream(jsonPieces(await accountExportDocument(deps, user.id)), (error) =>
        deps.logger.error({ err: error, route: c.req.routePath }, 'download stopped'),
      );
      c.header('Content-Type', 'application/json');
      c.header('Content-Disposition', `attachment; filename="${ACCOUNT_EXPORT_FILE_NAME}"`);
      c.header('Cache-Control', 'no-store');
      return c.body(body);
    })
    .get('/usage', async (c) => {
      const user = requireUser(c);
      return c.json(await transferUsage(db, user.id, user.plan));
    });
}
