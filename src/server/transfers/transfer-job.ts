import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { parseCollectionId } from '../../shared/library-ids';
import { SERVICE_LABELS } from '../../shared/services';
import type { AppDeps } from '../app-context';
import { matchRows, matchSets, transfers } from '../db/schema';
import type { LibrarySaveRecord } from '../db/stored-json';
import { history, transferOrigin } from '../history/history-hooks';
import { defineJob } from '../jobs/define-job';
import type { JobContext } from '../jobs/job-runner';
import { PermanentJobError } from '../jobs/job-runner';
import type { CreatedPlaylist, MusicProvider, PlaylistEntry } from '../providers/types';
import { findMarkedPlaylist, isUncertainWriteFailure, settledProgress } from './destination-progress';
import { classifyJobError, JOB_INLINE_WAIT_MS } from './job-errors';
import { savedToText, savedTracksPlace } from './library-collections';
import {
  combineVerifications,
  type LibraryPlan,
  libraryDestination,
  libraryJobStateSchema,
  libraryPlan,
  saveToLibrary,
  verifyLibrary,
} from './library-transfer';
import { chosenTrack, type MatchRowRecord } from './match-rows';
import { transferCsvLines } from './transfer-csv-lines';
import { type VerificationResult, verifyDestination } from './verify-destination';

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

const transferJobStateSchema = libraryJobStateSchema.extend({
  /** The destination playlist, once created (a library collection without a playlist has none). */
  destinationPlaylistId: z.string().exactOptional(),
  destinationUrl: z.string().exactOptional(),
  added: z.number().int().nonnegative(),
  /** Every add was confirmed; a resumed run goes straight to reading the destination back. */
  verifying: z.literal(true).exactOptional(),
});
type TransferJobState = z.infer<typeof transferJobStateSchema>;

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

/** Longest rate-limit wait inside the read-back (see where it is used); longer ones still requeue. */
const READ_BACK_INLINE_WAIT_MS = 60_000;

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
  return async ({ transferId }: TransferJobPayload, context: JobContext<TransferJobState>) => {
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
      let state = context.state;
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

      // A library collection (issue 14) is saved as liked songs or as an album; Liked Songs may also go
      // to a playlist, which then takes the path every playlist takes below.
      const collection = parseCollectionId(transfer.sourcePlaylistId);
      let library: LibraryPlan | null = null;
      if (collection) {
        const [set] = await deps.db
          .select({ albumMatch: matchSets.albumMatch })
          .from(matchSets)
          .where(eq(matchSets.id, transfer.matchSetId));
        library = libraryPlan(collection.kind, set?.albumMatch ?? null, selected);
        state = await saveToLibrary(destination, library, state, context, total);
      }
      const toPlaylist = collection === null || transfer.alsoAddToPlaylist;
      const playlistName = collection
        ? `${transfer.name} (from ${SERVICE_LABELS[transfer.sourceService]})`
        : transfer.name;

      // A read-back that has begun is finished even when it must wait for the rate limit (at most about
      // the service's window): a requeue would start it again from its first page and spend those calls twice.
      const readBackClient = () =>
        deps.providers.forUser(transfer.userId, transfer.destinationService, {
          maxInlineWaitMs: READ_BACK_INLINE_WAIT_MS,
          onRateLimit: ({ waitMs }) =>
            void context
              .progress({
                done: total,
                total,
                phase: 'verifying',
                waitingUntil: new Date(Date.now() + waitMs).toISOString(),
              })
              .catch(() => undefined),
        });
      let playlistVerification: VerificationResult | null = null;
      let readBack: { name: string; entries: PlaylistEntry[] } | null = null;
      if (toPlaylist) {
        const resuming = state?.destinationPlaylistId !== undefined || context.job.attempts > 1;
        const marker = transferMarker(transferId);
        if (state?.destinationPlaylistId === undefined) {
          const created = await createOnce(destination, resuming, marker, () =>
            destination.createPlaylist(
              playlistName,
              `Moved from ${SERVICE_LABELS[transfer.sourceService]} with Crossfade (${marker})`,
            ),
          );
          state = { ...state, destinationPlaylistId: created.id, destinationUrl: created.url, added: 0 };
          added = 0;
          await context.checkpoint(state, { done: 0, total, phase: 'adding' });
          await deps.db
            .update(transfers)
            .set({ destinationPlaylistId: created.id, destinationUrl: created.url })
            .where(eq(transfers.id, transferId));
        }
        const current = state;
        const playlistId = current.destinationPlaylistId;
        if (playlistId === undefined) throw new Error('the destination playlist was not created');
        // What is really in the destination decides where to go on (we are its only writer); on Apple only
        // once its reads have caught up with our last writes.
        // (After verification began, the playlist may hold re-added tracks at its end: no prefix any more.)
        if (resuming && !current.verifying) {
          added = await settledProgress(destination, playlistId, uris, added);
        }

        // A 5xx or a lost answer on an add may or may not have been applied: reconcile and go on, rather
        // than fail the attempt (a streak of failures with no progress still fails it).
        let failuresWithoutProgress = 0;
        for (; !current.verifying; ) {
          const from = added;
          try {
            await destination.addTracks(
              playlistId,
              uris.slice(from),
              async (progress) => {
                added = from + progress.added;
                failuresWithoutProgress = 0;
                await context.checkpoint({ ...current, added }, { done: added, total, phase: 'adding' });
                await deps.db
                  .update(transfers)
                  .set({ addedTracks: added })
                  .where(eq(transfers.id, transferId));
              },
              context.holdLease,
            );
            break;
          } catch (error) {
            if (!isUncertainWriteFailure(error) || ++failuresWithoutProgress > MAX_UNCERTAIN_WRITES)
              throw error;
            added = await settledProgress(destination, playlistId, uris, added);
            await context.checkpoint({ ...current, added }, { done: added, total, phase: 'adding' });
            await deps.db.update(transfers).set({ addedTracks: added }).where(eq(transfers.id, transferId));
          }
        }

        // Verify every write (issue 14): read the destination back, add once more what is missing.
        await context.checkpoint(
          { ...current, added: total, verifying: true },
          { done: total, total, phase: 'verifying' },
        );
        playlistVerification = await verifyDestination(
          await readBackClient(),
          playlistId,
          selected.map((item) => ({ position: item.row.position, track: item.track })),
          {
            onPhase: (phase) => context.progress({ done: total, total, phase }).catch(() => undefined),
            beforeWrite: context.holdLease,
            onRead: (entries) => {
              readBack = { name: playlistName, entries };
            },
          },
        );
        await history.wrote(deps, {
          userId: transfer.userId,
          service: transfer.destinationService,
          playlistId,
          provider: destination,
          cause: 'transfer',
          origin: transferOrigin(transferId),
          readBack,
        });
      }
      const libraryVerification = library
        ? await verifyLibrary(await readBackClient(), library, {
            onPhase: (phase) => context.progress({ done: total, total, phase }).catch(() => undefined),
            beforeWrite: context.holdLease,
          })
        : null;
      const verification = combineVerifications(
        selected.length,
        [libraryVerification, playlistVerification].filter((v): v is VerificationResult => v !== null),
      );

      let librarySave: LibrarySaveRecord | null = null;
      const libraryPlace: Record<number, string> = {};
      if (library && collection) {
        const playlist =
          toPlaylist && state?.destinationPlaylistId
            ? { id: state.destinationPlaylistId, url: state.destinationUrl ?? '', name: playlistName }
            : null;
        librarySave = {
          kind: collection.kind,
          savedTo: savedToText({
            kind: collection.kind,
            destination: transfer.destinationService,
            albumSaved: library.album !== null,
            savedTracks: library.trackItems.length,
            playlistName: playlist?.name ?? null,
          }),
          album: library.album
            ? {
                id: library.album.id,
                name: library.album.name,
                artists: library.album.artists,
                ...(library.album.url ? { url: library.album.url } : {}),
              }
            : null,
          savedTracks: library.trackItems.length,
          playlist,
        };
        const service = SERVICE_LABELS[transfer.destinationService];
        for (const item of library.albumItems)
          libraryPlace[item.row.position] = `saved with the album to your ${service} library`;
        for (const item of library.trackItems)
          libraryPlace[item.row.position] = `saved to ${savedTracksPlace(transfer.destinationService)}`;
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
          // What was added and what the read-back found, as this run decided it: rows changed later do not rewrite it.
          csvSnapshot: transferCsvLines(
            rows,
            selected,
            verification,
            library ? (position) => libraryPlace[position] : undefined,
          ),
          verifiedTracks: verification.verified,
          verificationMissing: verification.missing,
          ...(library && !toPlaylist ? await libraryDestination(destination, library) : {}),
          librarySave,
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
  stateSchema: transferJobStateSchema,
  handler: createTransferJobHandler,
});
