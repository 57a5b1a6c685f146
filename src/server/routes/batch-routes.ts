import { Hono } from 'hono';
import { batchRequestSchema } from '../../shared/api/batches';
import type { AppDeps, AppEnv } from '../app-context';
import { createBatch, getBatchReview, getBatchView, startBatchTransfer } from '../batches/batch-service';
import { requireUser } from '../http/require-user';
import { readJson } from '../http/validation';

/**
 * Batches (issue 14 item 2): several playlists matched, reviewed on one screen and moved by one job. Rows
 * are fixed with the match endpoints of each playlist's match set.
 */
export function batchRoutes(deps: AppDeps) {
  return new Hono<AppEnv>()
    .post('/batches', async (c) => {
      const user = requireUser(c);
      const request = await readJson(c, batchRequestSchema);
      return c.json(await createBatch(deps, user, request), 201);
    })
    .get('/batches/:batchId', async (c) => {
      const user = requireUser(c);
      return c.json(await getBatchView(deps, user.id, c.req.param('batchId')));
    })
    .get('/batches/:batchId/review', async (c) => {
      const user = requireUser(c);
      return c.json(await getBatchReview(deps, user.id, c.req.param('batchId')));
    })
    .post('/batches/:batchId/transfer', async (c) => {
      const user = requireUser(c);
      return c.json(await startBatchTransfer(deps, user.id, c.req.param('batchId')), 202);
    });
}
