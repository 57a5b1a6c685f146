import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { SERVICE_LABELS } from '../../shared/services';
import type { AppDeps } from '../app-context';
import { matchRows, transfers } from '../db/schema';
import { defineJob } from '../jobs/define-job';
import type { JobContext } from '../jobs/job-runner';
import { PermanentJobError } from '../jobs/job-runner';
import type { CreatedPlaylist, MusicProvider } from '../providers/types';
import { findMarkedPlaylist, isUncertainWriteFailure, settledProgress } from './destination-progress';
import { classifyJobError, JOB_INLINE_WAIT_MS } from './job-errors';
import { chosenTrack, type MatchRowRecord } from './match-rows';

/**
 * Adds the matched tracks to a new destination playlist, in source order, in batches at the service's
 * limit, with a checkpoint after each batch.
 *
 * No duplicates, no losses after a crash or a failed write: the playlist is created once (its id is
 * checkpointed, and a marker in its description finds it if the crash or a lost answer came between
 * creating and checkpointing), and a resumed run, or one whose add failed, first reads the destination
 * back until its reads settle (Apple shows writes late) and continues after what is really there, since
 * a batch may have been applied without us hearing of it (see destination-progress.ts).
 */
export const TRANSFER_JOB = 'transfer';

interface TransferJobState {
  destinationPlaylistId: string;
  destinationUrl: string;
  added: number;
}

export const transferMarker = (transferId: string) => `crossfade-transfer:${transferId.slice(0, 8)}`;

/**
 * What a transfer adds (decision 0006): rows the person decided, rows the engine accepted (90+), and
 * nothing the engine only proposes for review (70-89) until the person accepts it. "Include unmatched"
 * adds the closest candidate of every other row the person left to the engine.
 */
export function tracksToAdd(rows: MatchRowRecord[], includeUnmatched: boolean) {
  return rows.flatMap((row) => {
    if (row.status === 'skipped') return [];
    const chosen = chosenTrack(row);
    const awaitingReview = row.status === 'review' && row.decidedBy !== 'person';
    if (chosen && !awaitingReview) return [{ row, track: chosen }];
    const closest = chosen ?? row.candidates[0]?.track;
    // "Include unmatched": the closest candidate of a row the engine could not confirm, if it has one.
    return includeUnmatched && row.decidedBy !== 'person' && closest ? [{ row, track: closest }] : [];
  });
}

const transferJobPayloadSchema = z.object({ transferId: z.uuid() });
type TransferJobPayload = z.infer<typeof transferJobPayloadSchema>;

/** Failed adds in a row (none confirmed in between) reconciled inline before the attempt fails. */
const MAX_UNCERTAIN_WRITES = 5;

/**
 * Creates the destination playlist exactly once. A resumed run, or a creation whose answer was a 5xx or
 * never came, first looks for the playlist by its marker (waiting out the service's write delay).
 */
async function createOnce(
  destination: MusicProvider,
  resuming: boolean,
  marker: string,
  create: () => Promise<CreatedPlaylist>,
): Promise<CreatedPlaylist> {
  const found = async () => {
    const existing = await findMarkedPlaylist(destination, marker);
    return existing ? { id: existing.id, url: existing.url ?? '' } : undefined;
  };
  if (resuming) {
    const existing = await found();
    if (existing) return existing;
  }
  for (let failures = 0; ; failures++) {
    try {
      return await create();
    } catch (error) {
      if (!isUncertainWriteFailure(error) || failures >= MAX_UNCERTAIN_WRITES) throw error;
      const existing = await found();
      if (existing) return existing;
    }
  }
}

export function createTransferJobHandler(deps: AppDeps) {
  return async ({ transferId }: TransferJobPayload, context: JobContext) => {
    const [transfer] = await deps.db.select().from(transfers).where(eq(transfers.id, transferId));
    if (!transfer?.matchSetId) throw new PermanentJobError('The transfer no longer exists.');
    try {
      const rows = await deps.db
        .select()
        .from(matchRows)
        .where(eq(matchRows.matchSetId, transfer.matchSetId))
        .orderBy(asc(matchRows.position));
      const selected = tracksToAdd(rows, transfer.includeUnmatched);
      const uris = selected.map((item) => item.track.uri);
      const total = uris.length;
      await deps.db.update(transfers).set({ status: 'running' }).where(eq(transfers.id, transferId));
      let state = context.state as TransferJobState | undefined;
      let added = state?.added ?? 0;

      const destination = await deps.providers.forUser(transfer.userId, transfer.destinationService, {
        maxInlineWaitMs: JOB_INLINE_WAIT_MS,
        onRateLimit: ({ waitMs }) =>
          void context
            .progress({
              done: added,
              total,
              phase: 'adding',
              waitingUntil: new Date(Date.now() + waitMs).toISOString(),
            })
            .catch(() => undefined),
      });

      const resuming = state !== undefined || context.job.attempts > 1;
      const marker = transferMarker(transferId);
      if (!state) {
        const created = await createOnce(destination, resuming, marker, () =>
          destination.createPlaylist(
            transfer.name,
            `Moved from ${SERVICE_LABELS[transfer.sourceService]} with Crossfade (${marker})`,
          ),
        );
        state = { destinationPlaylistId: created.id, destinationUrl: created.url, added: 0 };
        await context.checkpoint(state, { done: 0, total, phase: 'adding' });
        await deps.db
          .update(transfers)
          .set({ destinationPlaylistId: created.id, destinationUrl: created.url })
          .where(eq(transfers.id, transferId));
      }
      const current = state;
      // What is really in the destination decides where to go on (we are its only writer); on Apple only
      // once its reads have caught up with our last writes.
      if (resuming) added = await settledProgress(destination, current.destinationPlaylistId, uris, added);

      // A 5xx or a lost answer on an add may or may not have been applied: reconcile and go on, rather
      // than fail the attempt (a streak of failures with no progress still fails it).
      let failuresWithoutProgress = 0;
      for (;;) {
        const from = added;
        try {
          await destination.addTracks(current.destinationPlaylistId, uris.slice(from), async (progress) => {
            added = from + progress.added;
            failuresWithoutProgress = 0;
            await context.checkpoint({ ...current, added }, { done: added, total, phase: 'adding' });
            await deps.db.update(transfers).set({ addedTracks: added }).where(eq(transfers.id, transferId));
          });
          break;
        } catch (error) {
          if (!isUncertainWriteFailure(error) || ++failuresWithoutProgress > MAX_UNCERTAIN_WRITES)
            throw error;
          added = await settledProgress(destination, current.destinationPlaylistId, uris, added);
          await context.checkpoint({ ...current, added }, { done: added, total, phase: 'adding' });
          await deps.db.update(transfers).set({ addedTracks: added }).where(eq(transfers.id, transferId));
        }
      }

      const matched = selected.length;
      const confidences = selected.map((item) => item.row.confidence);
      const overallConfidence =
        matched === 0 ? 0 : Math.round(confidences.reduce((a, b) => a + b, 0) / matched);
      const [finished] = await deps.db
        .update(transfers)
        .set({
          status: 'succeeded',
          totalTracks: rows.length,
          matchedTracks: matched,
          unmatchedTracks: rows.length - matched,
          addedTracks: total,
          overallConfidence,
          completedAt: new Date(),
          error: null,
        })
        .where(eq(transfers.id, transferId))
        .returning();
      return { transferId, addedTracks: finished?.addedTracks ?? total };
    } catch (error) {
      const classified = classifyJobError(error);
      const finalAttempt = context.job.attempts >= context.job.maxAttempts;
      if (
        classified instanceof PermanentJobError ||
        (finalAttempt && !(classified instanceof Error && classified.name === 'RetryLater'))
      ) {
        await deps.db
          .update(transfers)
          .set({
            status: 'failed',
            error: classified instanceof Error ? classified.message : String(classified),
          })
          .where(eq(transfers.id, transferId));
      }
      throw classified;
    }
  };
}

export const transferJob = defineJob({
  kind: TRANSFER_JOB,
  payloadSchema: transferJobPayloadSchema,
  handler: createTransferJobHandler,
});
