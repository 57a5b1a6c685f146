import { Hono } from 'hono';
import { BATCH_CSV_FILE_NAME, batchRequestSchema } from '../../shared/api/batches';
import type { AppDeps, AppEnv } from '../app-context';
import {
  batchCsv,
  createBatch,
  getBatchReview,
  getBatchView,
  startBatchTransfer,
} from '../batches/batch-service';
import { downloadStream } from '../export/streamed-download';
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
    .get('/batches/:batchId/csv', async (c) => {
      const user = requireUser(c);
      const pieces = await batchCsv(deps, user.id, c.req.param('batchId'));
      // Written as it is read, a page of lines at a time (decision 0042).
      const body = await downloadStream(pieces, (error) =>
        deps.logger.error({ err: error, route: c.req.routePath }, 'download stopped'),
      );
      c.header('content-type', 'text/csv; charset=utf-8');
      c.header('content-disposition', `attachment; filename="${BATCH_CSV_FILE_NAME}"`);
      return c.body(body);
    })
    .post('/batches/:batchId/transfer', async (c) => {
      const user = requireUser(c);
      return c.json(await startBatchTransfer(deps, user.id, c.req.param('batchId')), 202);
    });
}
