import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import {
  CSV_FILE_NAME,
  matchChoiceSchema,
  matchPageQuerySchema,
  matchRequestSchema,
  searchQuerySchema,
  transferRequestSchema,
} from '../../shared/api/transfer';
import type { AppDeps, AppEnv } from '../app-context';
import { notFound } from '../domain-errors';
import { downloadStream } from '../export/streamed-download';
import { requireUser } from '../http/require-user';
import { readJson, validate } from '../http/validation';
import { getJob } from '../jobs/job-store';
import { isTerminal, toJobView, waitForJob } from '../jobs/job-view';
import { acceptAllInReview, applyMatchChoice, searchForRow, startMatch } from '../transfers/match-service';
import { matchViewBody } from '../transfers/match-view';
import { transferCsvPieces } from '../transfers/transfer-csv';
import {
  findTransferForExport,
  getTransfer,
  listTransfers,
  retryTransfer,
  startTransfer,
  toTransferResult,
} from '../transfers/transfer-service';

/** How long a request waits for a quick job before answering 202 with the job to follow. */
const INLINE_WAIT_MS = 2_500;
const JSON_TYPE = { 'content-type': 'application/json' };
const positionSchema = z.coerce.number({ error: 'Unknown track position' }).int().min(0).max(100_000);

/** Matching, review, transfers, their jobs and the CSV (spec sections 3, 5, 7). */
export function transferRoutes(deps: AppDeps) {
  const { db } = deps;
  return new Hono<AppEnv>()
    .post('/match', async (c) => {
      const user = requireUser(c);
      const request = await readJson(c, matchRequestSchema);
      const page = validate(matchPageQuerySchema, c.req.query());
      const { matchSetId, jobId } = await startMatch(deps, user.id, request);
      const job = await waitForJob(db, jobId, INLINE_WAIT_MS);
      const body = await matchViewBody(deps, user.id, matchSetId, page);
      return c.body(body, job && isTerminal(job) ? 200 : 202, JSON_TYPE);
    })
    .get('/match/:matchSetId', async (c) => {
      const user = requireUser(c);
      const page = validate(matchPageQuerySchema, c.req.query());
      return c.body(await matchViewBody(deps, user.id, c.req.param('matchSetId'), page), 200, JSON_TYPE);
    })
    .patch('/match/:matchSetId/rows/:position', async (c) => {
      const user = requireUser(c);
      const position = validate(positionSchema, c.req.param('position'));
      const choice = await readJson(c, matchChoiceSchema);
      return c.json(await applyMatchChoice(deps, user.id, c.req.param('matchSetId'), position, choice));
    })
    .post('/match/:matchSetId/accept-review', async (c) => {
      const user = requireUser(c);
      const matchSetId = c.req.param('matchSetId');
      const page = validate(matchPageQuerySchema, c.req.query());
      await acceptAllInReview(deps, user.id, matchSetId);
      return c.body(await matchViewBody(deps, user.id, matchSetId, page), 200, JSON_TYPE);
    })
    .get('/match/:matchSetId/rows/:position/search', async (c) => {
      const user = requireUser(c);
      const position = validate(positionSchema, c.req.param('position'));
      const text = validate(searchQuerySchema, c.req.query('q') ?? '');
      return c.json(await searchForRow(deps, user.id, c.req.param('matchSetId'), position, text));
    })
    .post('/transfer', async (c) => {
      const user = requireUser(c);
      const request = await readJson(c, transferRequestSchema);
      const started = await startTransfer(deps, user, request);
      const job = started.jobId ? await waitForJob(db, started.jobId, INLINE_WAIT_MS) : undefined;
      const result = toTransferResult(await getTransfer(deps, user.id, started.transferId));
      return c.json(result, job && isTerminal(job) ? 200 : 202);
    })
    .get('/transfers', async (c) => {
      const user = requireUser(c);
      return c.json(await listTransfers(deps, user.id));
    })
    .get('/transfers/:transferId', async (c) => {
      const user = requireUser(c);
      return c.json(toTransferResult(await getTransfer(deps, user.id, c.req.param('transferId'))));
    })
    .post('/transfers/:transferId/retry', async (c) => {
      const user = requireUser(c);
      return c.json(await retryTransfer(deps, user.id, c.req.param('transferId')), 202);
    })
    .get('/export/csv/:playlistId', async (c) => {
      const user = requireUser(c);
      const transfer = await findTransferForExport(deps, user.id, c.req.param('playlistId'));
      // Written as it is read, a page of lines at a time (decision 0042).
      const body = await downloadStream(transferCsvPieces(db, transfer), (error) =>
        deps.logger.error({ err: error, route: c.req.routePath }, 'download stopped'),
      );
      c.header('content-type', 'text/csv; charset=utf-8');
      c.header('content-disposition', `attachment; filename="${CSV_FILE_NAME}"`);
      return c.body(body);
    })
    .get('/jobs/:jobId', async (c) => {
      const user = requireUser(c);
      const job = await ownedJob(deps, user.id, c.req.param('jobId'));
      return c.json(toJobView(job));
    })
    .get('/jobs/:jobId/events', async (c) => {
      const user = requireUser(c);
      const jobId = (await ownedJob(deps, user.id, c.req.param('jobId'))).id;
      // Polling the row (not an in-process event) works whichever process runs the job.
      return streamSSE(c, async (stream) => {
        let last = '';
        for (let tick = 0; !stream.aborted && tick < 36_000; tick++) {
          const job = await getJob(db, jobId);
          if (!job) break;
          const view = JSON.stringify(toJobView(job));
          if (view !== last) {
            await stream.writeSSE({ data: view });
            last = view;
          }
          if (isTerminal(job)) break;
          await stream.sleep(500);
        }
      });
    });
}

async function ownedJob(deps: AppDeps, userId: string, jobId: string) {
  const job = await getJob(deps.db, jobId);
  if (!job || job.userId !== userId) throw notFound('That job does not exist.');
  return job;
}
