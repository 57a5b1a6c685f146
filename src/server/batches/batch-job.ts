import { z } from 'zod';
import type { AppDeps } from '../app-context';
import type { JobProgress } from '../db/stored-json';
import { defineJob, parseCheckpoint } from '../jobs/define-job';
import { type JobContext, PermanentJobError } from '../jobs/job-runner';
import { createMatchJobHandler, matchJob } from '../transfers/match-job';
import { createTransferJobHandler, transferJob } from '../transfers/transfer-job';
import {
  failTransfer,
  findBatch,
  matchSetStatus,
  setBatchItems,
  setBatchStatus,
  transferStatus,
} from './batch-store';

/**
 * One durable job per batch (issue 14 item 2). It runs twice: first it matches every playlist and ends with
 * the batch waiting for the person's review; `POST /api/batches/:id/transfer` queues the same job again,
 * and it transfers every playlist. Each playlist is the match or transfer job's own work, run inside this
 * job with its own checkpoint, so their exactly-once guarantees hold (decision 0010): the batch's
 * checkpoint says which phase and playlist it is on and carries that playlist's checkpoint.
 */
export const BATCH_JOB = 'batch';

const batchJobPayloadSchema = z.object({ batchId: z.uuid() });
type BatchJobPayload = z.infer<typeof batchJobPayloadSchema>;

/** Separates a playlist's own phase from its place in the batch in the job's progress. */
export const PHASE_SEPARATOR = '#';

const batchPhaseSchema = z.enum(['matching', 'transferring']);
export type BatchPhase = z.infer<typeof batchPhaseSchema>;

export const batchJobStateSchema = z.object({
  phase: batchPhaseSchema,
  /** The playlist under way; those before it are done in this phase. */
  index: z.number().int().nonnegative(),
  /** The playlist's work has begun (a resumed run must look for what it may already have written). */
  started: z.boolean(),
  /** The playlist's own match or transfer checkpoint, parsed by that job's schema when it resumes. */
  item: z.unknown().exactOptional(),
});
export type BatchJobState = z.infer<typeof batchJobStateSchema>;

export function createBatchJobHandler(deps: AppDeps) {
  const matchPlaylist = createMatchJobHandler(deps);
  const transferPlaylist = createTransferJobHandler(deps);
  return async ({ batchId }: BatchJobPayload, context: JobContext<BatchJobState>) => {
    const batch = await findBatch(deps.db, batchId);
    if (!batch) throw new PermanentJobError('The batch no longer exists.');
    if (batch.status === 'review' || batch.status === 'done') return { batchId, status: batch.status };
    const phase: BatchPhase = batch.status === 'transferring' ? 'transferring' : 'matching';
    const saved = context.state;
    let state: BatchJobState = saved?.phase === phase ? saved : { phase, index: 0, started: false };
    const count = batch.items.length;

    for (let index = state.index; index < count; index++) {
      const item = batch.items[index];
      if (!item) break;
      const resumed = state.index === index && state.started;
      state = {
        phase,
        index,
        started: true,
        ...(resumed && state.item !== undefined ? { item: state.item } : {}),
      };
      // Each playlist's phases are phases of their own ("adding#2"): the runner measures the pace, and so
      // the ETA, from when the phase began, which must be this playlist's start, not the first one's.
      const label = (progress: JobProgress): JobProgress => ({
        ...progress,
        phase: `${progress.phase}${PHASE_SEPARATOR}${index + 1}`,
        message: `Playlist ${index + 1} of ${count}`,
      });
      await context.checkpoint(state, label({ done: 0, total: 0, phase }));
      // The playlist's job sees only its own checkpoint; a playlist begun before a crash counts as a retry.
      const itemContext = <ItemState>(itemState: ItemState | undefined): JobContext<ItemState> => ({
        job: { ...context.job, attempts: resumed ? Math.max(2, context.job.attempts) : 1 },
        state: itemState,
        signal: context.signal,
        checkpoint: async (next, progress) => {
          state = { phase, index, started: true, item: next };
          await context.checkpoint(state, progress ? label(progress) : undefined);
        },
        progress: (progress) => context.progress(label(progress)),
        holdLease: context.holdLease,
      });
      try {
        if (phase === 'matching') {
          if ((await matchSetStatus(deps.db, item.matchSetId)) === 'matching')
            await matchPlaylist(
              { matchSetId: item.matchSetId },
              itemContext(parseCheckpoint(matchJob, state.item)),
            );
        } else if (item.transferId) {
          const status = await transferStatus(deps.db, item.transferId);
          if (status && status !== 'succeeded' && status !== 'failed') {
            await transferPlaylist(
              { transferId: item.transferId },
              itemContext(parseCheckpoint(transferJob, state.item)),
            );
          }
        }
      } catch (error) {
        // One playlist that can never go (deleted, unreadable) is marked failed by its own job; the
        // batch goes on with the others. Anything else is retried from this checkpoint.
        if (!(error instanceof PermanentJobError)) {
          await giveUpOnFinalAttempt(deps, context, batchId, item.transferId, error);
          throw error;
        }
        const items = batch.items.map((other, at) =>
          at === index ? { ...other, error: error.message } : other,
        );
        batch.items = items;
        await setBatchItems(deps.db, batchId, items);
      }
      state = { phase, index: index + 1, started: false };
      await context.checkpoint(state, label({ done: 0, total: 0, phase }));
    }

    const status = phase === 'matching' ? 'review' : 'done';
    await setBatchStatus(deps.db, batchId, status);
    return { batchId, status };
  };
}

/**
 * When the batch's last attempt fails, the batch is failed and so is the transfer under way (its own
 * job would have marked it so, but it ran on the batch's attempts): the history does not show it running.
 */
async function giveUpOnFinalAttempt(
  deps: AppDeps,
  context: JobContext,
  batchId: string,
  transferId: string | null,
  error: unknown,
) {
  const retried = error instanceof Error && error.name === 'RetryLater';
  if (retried || context.job.attempts < context.job.maxAttempts) return;
  const message = error instanceof Error ? error.message : String(error);
  if (transferId) await failTransfer(deps.db, transferId, message);
  await setBatchStatus(deps.db, batchId, 'failed');
}

export const batchJob = defineJob({
  kind: BATCH_JOB,
  payloadSchema: batchJobPayloadSchema,
  stateSchema: batchJobStateSchema,
  handler: createBatchJobHandler,
});
