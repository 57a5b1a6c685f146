import { Hono } from 'hono';
import { historyQuerySchema, restoreVersionRequestSchema, undoRequestSchema } from '../../shared/api/history';
import { serviceIdSchema } from '../../shared/services';
import type { AppDeps, AppEnv } from '../app-context';
import { notFound } from '../domain-errors';
import { disappeared, historyPage } from '../history/playlist-history';
import { restoreStatus, restoreVersion, undoWriter } from '../history/restore-service';
import { requireUser } from '../http/require-user';
import { readJson, validate } from '../http/validation';
import { assertVault } from '../plans/plan-limits';

const serviceOf = (value: string) => {
  const parsed = serviceIdSchema.safeParse(value);
  if (!parsed.success) throw notFound('Crossfade has no history of that playlist yet.');
  return parsed.data;
};

/** An empty body is an empty object: `POST …/undo` with nothing is a real undo. */
async function optionalJson<T>(c: Parameters<typeof readJson>[0], schema: Parameters<typeof readJson<T>>[1]) {
  // Hono keeps the body it has read (the idempotency layer reads it first), so reading it twice is fine.
  const text = await c.req.text();
  return text.trim() === '' ? validate(schema, undefined) : readJson(c, schema);
}

/**
 * Every playlist's history (issue 21, decision 0030): its versions (7 days on every plan, all with Vault+),
 * what disappeared across the person's playlists, restore (Vault+) and undo of a transfer or sync run.
 */
export function historyRoutes(deps: AppDeps) {
  return new Hono<AppEnv>()
    .get('/history/disappeared', async (c) => {
      const user = requireUser(c);
      return c.json(await disappeared(deps.db, user.id, user.plan));
    })
    .get('/history/restores/:jobId', async (c) => {
      const user = requireUser(c);
      return c.json(await restoreStatus(deps, user.id, c.req.param('jobId')));
    })
    .get('/history/:service/:playlistId', async (c) => {
      const user = requireUser(c);
      const query = validate(historyQuerySchema, c.req.query());
      const page = await historyPage(
        deps.db,
        {
          userId: user.id,
          plan: user.plan,
          service: serviceOf(c.req.param('service')),
          playlistId: c.req.param('playlistId'),
        },
        query,
      );
      return c.json(page);
    })
    .post('/history/:service/:playlistId/restore', async (c) => {
      const user = requireUser(c);
      assertVault(user.plan, 'Restoring a playlist');
      const input = await readJson(c, restoreVersionRequestSchema);
      const where = { service: serviceOf(c.req.param('service')), playlistId: c.req.param('playlistId') };
      const started = await restoreVersion(deps, user.id, where, input);
      return c.json(started, started.dryRun ? 200 : 202);
    })
    .post('/transfers/:id/undo', async (c) => {
      const user = requireUser(c);
      const { dryRun } = await optionalJson(c, undoRequestSchema);
      const started = await undoWriter(deps, user.id, { transferId: c.req.param('id') }, dryRun);
      return c.json(started, started.dryRun ? 200 : 202);
    })
    .post('/syncs/:id/runs/:runId/undo', async (c) => {
      const user = requireUser(c);
      const { dryRun } = await optionalJson(c, undoRequestSchema);
      const writer = { syncId: c.req.param('id'), runId: c.req.param('runId') };
      const started = await undoWriter(deps, user.id, writer, dryRun);
      return c.json(started, started.dryRun ? 200 : 202);
    });
}
