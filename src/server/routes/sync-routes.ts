import { Hono } from 'hono';
import {
  type CreateSyncResponse,
  createSyncRequestSchema,
  runSyncRequestSchema,
} from '../../shared/api/syncs';
import type { AppDeps, AppEnv } from '../app-context';
import { requireUser } from '../http/require-user';
import { readJson } from '../http/validation';
import { assertPro } from '../plans/plan-limits';
import { createSync } from '../syncs/sync-service';
import {
  confirmRun,
  deleteSync,
  listRuns,
  listSyncs,
  setPaused,
  startRebuild,
  startRun,
} from '../syncs/sync-store';

const FEATURE = 'Sync';

/** Sync (/syncs, issue 14). Every call checks the plan here: the page hiding a button is not enough. */
export function syncRoutes(deps: AppDeps) {
  const proUser = (c: Parameters<typeof requireUser>[0]) => {
    const user = requireUser(c);
    assertPro(user.plan, FEATURE);
    return user;
  };
  return new Hono<AppEnv>()
    .post('/syncs', async (c) => {
      const user = requireUser(c);
      assertPro(user.plan, FEATURE);
      const input = await readJson(c, createSyncRequestSchema);
      // Two-way sync is Pro (issue 21, item 5), said in its own words.
      if (input.direction === 'two-way') assertPro(user.plan, 'Two-way sync');
      return c.json((await createSync(deps, user.id, input)) satisfies CreateSyncResponse, 201);
    })
    .get('/syncs', async (c) => {
      const user = proUser(c);
      return c.json({ syncs: await listSyncs(deps, user.id) });
    })
    .post('/syncs/:id/run', async (c) => {
      const user = proUser(c);
      const text = await c.req.text();
      const input = text.trim() === '' ? {} : await readJson(c, runSyncRequestSchema);
      const run = await startRun(deps, user.id, c.req.param('id'), {
        trigger: 'manual',
        dryRun: input.dryRun,
      });
      return c.json(run, 202);
    })
    .get('/syncs/:id/runs', async (c) => {
      const user = proUser(c);
      return c.json({ runs: await listRuns(deps, user.id, c.req.param('id')) });
    })
    .post('/syncs/:id/runs/:runId/confirm', async (c) => {
      const user = proUser(c);
      return c.json(await confirmRun(deps, user.id, c.req.param('id'), c.req.param('runId')), 202);
    })
    .post('/syncs/:id/rebuild', async (c) => {
      const user = proUser(c);
      return c.json(await startRebuild(deps, user.id, c.req.param('id')), 202);
    })
    .post('/syncs/:id/pause', async (c) => {
      const user = proUser(c);
      return c.json(await setPaused(deps, user.id, c.req.param('id'), true));
    })
    .post('/syncs/:id/resume', async (c) => {
      const user = proUser(c);
      return c.json(await setPaused(deps, user.id, c.req.param('id'), false));
    })
    .delete('/syncs/:id', async (c) => {
      const user = proUser(c);
      await deleteSync(deps, user.id, c.req.param('id'));
      return c.body(null, 204);
    });
}
