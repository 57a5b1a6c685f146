import { asc, eq } from 'drizzle-orm';
import { SERVICE_LABELS } from '../../shared/services';
import type { AppDeps } from '../app-context';
import { matchRows, transfers } from '../db/schema';
import type { JobContext, JobHandler } from '../jobs/job-runner';
import { PermanentJobError } from '../jobs/job-runner';
import { classifyJobError, JOB_INLINE_WAIT_MS } from './job-errors';
import { chosenTrack, type MatchRowRecord, type StoredCandidate } from './match-rows';

/**
 * Adds the matched tracks to a new destination playlist, in source order, in batches at the service's
 * limit, with a checkpoint after each batch.
 *
 * No duplicates, no losses after a crash: the playlist is created once (its id is checkpointed, and a
 * marker in its description finds it if the crash came between creating and checkpointing), and a
 * resumed run first reads the destination back and continues after what is really there, since a batch
 * may have been applied just before the crash.
 */
export const TRANSFER_JOB = 'transfer';

interface TransferJobState {
  destinationPlaylistId: string;
  destinationUrl: string;
  added: number;
}

export const transferMarker = (transferId: string) => `crossfade-transfer:${transferId.slice(0, 8)}`;

/** The tracks a transfer adds, in source order: the person's choices first, then the engine's picks. */
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
    const closest = chosen ?? (row.candidates as StoredCandidate[])[0]?.track;
    return includeUnmatched && row.decidedBy !== 'person' && closest ? [{ row, track: closest }] : [];
  });
}

export function createTransferJobHandler(deps: AppDeps): JobHandler {
  return async (context: JobContext) => {
    const { transferId } = context.job.payload as { transferId: string };
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
      if (!state) {
        const marker = transferMarker(transferId);
        const existing = resuming
          ? (await destination.listPlaylists()).find((playlist) => playlist.description?.includes(marker))
          : undefined;
        const created = existing
          ? { id: existing.id, url: existing.url ?? '' }
          : await destination.createPlaylist(
              transfer.name,
              `Moved from ${SERVICE_LABELS[transfer.sourceService]} with Crossfade (${marker})`,
            );
        state = { destinationPlaylistId: created.id, destinationUrl: created.url, added: 0 };
        await context.checkpoint(state, { done: 0, total, phase: 'adding' });
        await deps.db
          .update(transfers)
          .set({ destinationPlaylistId: created.id, destinationUrl: created.url })
          .where(eq(transfers.id, transferId));
      }
      if (resuming) {
        // What is really in the destination decides where to go on (we are its only writer).
        const present = await destination.getPlaylist(state.destinationPlaylistId);
        added = Math.max(added, present.entries.length);
      }

      const current = state;
      await destination.addTracks(state.destinationPlaylistId, uris.slice(added), async (progress) => {
        const done = added + progress.added;
        await context.checkpoint({ ...current, added: done }, { done, total, phase: 'adding' });
        await deps.db.update(transfers).set({ addedTracks: done }).where(eq(transfers.id, transferId));
      });

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
