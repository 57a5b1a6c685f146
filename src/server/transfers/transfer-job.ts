import { z } from 'zod';
import { parseCollectionId } from '../../shared/library-ids';
import { SERVICE_LABELS } from '../../shared/services';
import type { AppDeps } from '../app-context';
import type { LibrarySaveRecord } from '../db/stored-json';
import { history, transferOrigin } from '../history/history-hooks';
import { defineJob } from '../jobs/define-job';
import type { JobContext } from '../jobs/job-runner';
import { PermanentJobError } from '../jobs/job-runner';
import { ProviderError } from '../providers/http';
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
import { countLikedSongs, saveLikedSongs, verifyLikedSongs } from './liked-songs-transfer';
import { type MatchRowRecord, tracksToAdd } from './match-rows';
import { listMatchRowsInOrder, matchSetForTransfer } from './match-set-store';
import { transferCsvLines } from './transfer-csv-lines';
import { findTransfer, type TransferRecord, updateTransfer } from './transfer-store';
import { type VerificationResult, type VerifyOptions, verifyDestination } from './verify-destination';

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
  /**
   * The last attempt stopped on a rate-limit refusal, which means no write was in doubt: the destination
   * holds exactly `added`, so the next run need not read it back first (cleared before it adds again).
   */
  exact: z.literal(true).exactOptional(),
});
type TransferJobState = z.infer<typeof transferJobStateSchema>;

export const transferMarker = (transferId: string) => `crossfade-transfer:${transferId.slice(0, 8)}`;

const transferJobPayloadSchema = z.object({ transferId: z.uuid() });
type TransferJobPayload = z.infer<typeof transferJobPayloadSchema>;

/** Longest rate-limit wait inside the read-back (see where it is used); longer ones still requeue. */
const READ_BACK_INLINE_WAIT_MS = 60_000;

/** Failed adds in a row (none confirmed in between) reconciled inline before the attempt fails. */
const MAX_UNCERTAIN_WRITES = 5;

/**
 * Creates the destination playlist exactly once. A resumed run, or a creation whose answer was a 5xx or
 * never came, first looks for the playlist by its marker (waiting out the service's write delay).
 * `answered`: this call's creation answered, so the tracks it carried are in; false for a playlist found
 * by its marker, whose creation may or may not have carried them.
 */
async function createOnce(
  destination: MusicProvider,
  resuming: boolean,
  marker: string,
  create: () => Promise<CreatedPlaylist>,
): Promise<CreatedPlaylist & { answered: boolean }> {
  const found = async () => {
    const existing = await findMarkedPlaylist(destination, marker);
    return existing ? { id: existing.id, url: existing.url ?? '', answered: false } : undefined;
  };
  if (resuming) {
    const existing = await found();
    if (existing) return existing;
  }
  for (let failures = 0; ; failures++) {
    try {
      return { ...(await create()), answered: true };
    } catch (error) {
      if (!isUncertainWriteFailure(error) || failures >= MAX_UNCERTAIN_WRITES) throw error;
      const existing = await found();
      if (existing) return existing;
    }
  }
}

type SelectedTrack = ReturnType<typeof tracksToAdd>[number];
type ParsedCollection = NonNullable<ReturnType<typeof parseCollectionId>>;

/** One run of a transfer job: what it adds, and how far it got (the checkpointed state, the adds so far). */
interface TransferRun {
  deps: AppDeps;
  transfer: TransferRecord & { matchSetId: string };
  context: JobContext<TransferJobState>;
  rows: MatchRowRecord[];
  selected: SelectedTrack[];
  uris: string[];
  total: number;
  state: TransferJobState | undefined;
  added: number;
  /** When the person began this move (their match's start): the calls' turns go by it (call-turns.ts). */
  askedAt: Date | undefined;
}

/** A progress report that may be lost (it is only shown); the checkpoint is what counts. */
function reportProgress(run: TransferRun, progress: Parameters<JobContext<TransferJobState>['progress']>[0]) {
  void run.context.progress(progress).catch(() => undefined);
}

/** The destination client for the adds: a rate-limit wait is shown as the run's progress. */
function addingClient(run: TransferRun) {
  return run.deps.providers.forUser(run.transfer.userId, run.transfer.destinationService, {
    maxInlineWaitMs: JOB_INLINE_WAIT_MS,
    askedAt: run.askedAt,
    onRateLimit: ({ waitMs }) =>
      reportProgress(run, {
        done: run.added,
        total: run.total,
        phase: 'adding',
        waitingUntil: new Date(Date.now() + waitMs).toISOString(),
      }),
  });
}

/**
 * The destination client for the read-back. A read-back that has begun is finished even when it must wait
 * for the rate limit (at most about the service's window): a requeue would start it again from its first
 * page and spend those calls twice.
 */
function readBackClient(run: TransferRun) {
  return run.deps.providers.forUser(run.transfer.userId, run.transfer.destinationService, {
    maxInlineWaitMs: READ_BACK_INLINE_WAIT_MS,
    askedAt: run.askedAt,
    onRateLimit: ({ waitMs }) =>
      reportProgress(run, {
        done: run.total,
        total: run.total,
        phase: 'verifying',
        waitingUntil: new Date(Date.now() + waitMs).toISOString(),
      }),
  });
}

const verifyOptions = (run: TransferRun): VerifyOptions => ({
  onPhase: (phase) =>
    run.context.progress({ done: run.total, total: run.total, phase }).catch(() => undefined),
  beforeWrite: run.context.holdLease,
});

/** Creates the destination playlist once, checkpoints it and records it on the transfer; its id. */
async function ensurePlaylist(
  run: TransferRun,
  destination: MusicProvider,
  playlistName: string,
  resuming: boolean,
): Promise<string> {
  const { transfer, context } = run;
  if (run.state?.destinationPlaylistId === undefined) {
    const marker = transferMarker(transfer.id);
    // Where the service allows it (Apple), the creation carries the first tracks: one add fewer.
    const firstTracks = run.uris.slice(0, destination.createBatchSize ?? 0);
    const created = await createOnce(destination, resuming, marker, () =>
      destination.createPlaylist(
        playlistName,
        `Moved from ${SERVICE_LABELS[transfer.sourceService]} with Crossfade (${marker})`,
        firstTracks,
      ),
    );
    // A playlist found by its marker shows what its creation carried once the service's reads settle.
    run.added = created.answered
      ? firstTracks.length
      : await settledProgress(destination, created.id, run.uris, 0);
    run.state = {
      ...run.state,
      destinationPlaylistId: created.id,
      destinationUrl: created.url,
      added: run.added,
    };
    await context.checkpoint(run.state, { done: run.added, total: run.total, phase: 'adding' });
    await updateTransfer(run.deps.db, transfer.id, {
      destinationPlaylistId: created.id,
      destinationUrl: created.url,
      addedTracks: run.added,
    });
  }
  const playlistId = run.state.destinationPlaylistId;
  if (playlistId === undefined) throw new Error('the destination playlist was not created');
  return playlistId;
}

/** Checkpoints the adds so far and records them on the transfer. */
async function saveAddProgress(run: TransferRun, state: TransferJobState) {
  await run.context.checkpoint(
    { ...state, added: run.added },
    { done: run.added, total: run.total, phase: 'adding' },
  );
  await updateTransfer(run.deps.db, run.transfer.id, { addedTracks: run.added });
}

/**
 * Adds what is not yet in the playlist. A 5xx or a lost answer on an add may or may not have been applied:
 * reconcile and go on, rather than fail the attempt (a streak of failures with no progress still fails it).
 */
async function addRemainingTracks(
  run: TransferRun,
  destination: MusicProvider,
  playlistId: string,
  state: TransferJobState,
) {
  let failuresWithoutProgress = 0;
  for (;;) {
    const from = run.added;
    try {
      await destination.addTracks(
        playlistId,
        run.uris.slice(from),
        async (progress) => {
          run.added = from + progress.added;
          failuresWithoutProgress = 0;
          await saveAddProgress(run, state);
        },
        run.context.holdLease,
      );
      return;
    } catch (error) {
      // Refused for the rate limit (a 429, or a wait too long for us): that batch was not applied (adds are
      // never retried after a 5xx), and every earlier one is checkpointed. The requeued run goes on from here.
      if (error instanceof ProviderError && error.kind === 'rate_limited') {
        await run.context.checkpoint(
          { ...state, added: run.added, exact: true },
          { done: run.added, total: run.total, phase: 'adding' },
        );
      }
      if (!isUncertainWriteFailure(error) || ++failuresWithoutProgress > MAX_UNCERTAIN_WRITES) throw error;
      run.added = await settledProgress(destination, playlistId, run.uris, run.added);
      await saveAddProgress(run, state);
    }
  }
}

/** The playlist path: create it once, add in order (resuming after what is there), read it back. */
async function transferToPlaylist(
  run: TransferRun,
  destination: MusicProvider,
  playlistName: string,
): Promise<VerificationResult> {
  const resuming = run.state?.destinationPlaylistId !== undefined || run.context.job.attempts > 1;
  const playlistId = await ensurePlaylist(run, destination, playlistName, resuming);
  const { exact, ...current } = run.state ?? { added: run.added };
  // What is really in the destination decides where to go on (we are its only writer); on Apple only
  // once its reads have caught up with our last writes. Unless the last attempt ended on a refusal with
  // nothing in doubt: then the checkpoint is exact, and only a crash from here on can put a write in
  // doubt, so the mark goes before the first add.
  // (After verification began, the playlist may hold re-added tracks at its end: no prefix any more.)
  if (resuming && !current.verifying && !exact) {
    run.added = await settledProgress(destination, playlistId, run.uris, run.added);
  } else if (exact && !current.verifying) {
    await run.context.checkpoint(current, { done: run.added, total: run.total, phase: 'adding' });
  }
  if (!current.verifying) await addRemainingTracks(run, destination, playlistId, current);

  // Verify every write (issue 14): read the destination back, add once more what is missing.
  await run.context.checkpoint(
    { ...current, added: run.total, verifying: true },
    { done: run.total, total: run.total, phase: 'verifying' },
  );
  // The read-back is also the playlist's new version in its history (decision 0030): no extra read.
  let readBack: { name: string; entries: PlaylistEntry[] } | null = null;
  const verification = await verifyDestination(
    await readBackClient(run),
    playlistId,
    run.selected.map((item) => ({ position: item.row.position, track: item.track })),
    {
      ...verifyOptions(run),
      onRead: (entries) => {
        readBack = { name: playlistName, entries };
      },
    },
  );
  await history.wrote(run.deps, {
    userId: run.transfer.userId,
    service: run.transfer.destinationService,
    playlistId,
    provider: destination,
    cause: 'transfer',
    origin: transferOrigin(run.transfer.id),
    readBack,
  });
  return verification;
}

/** What the transfer page says of a library collection's save, and where each saved row went. */
function describeLibrarySave(
  run: TransferRun,
  library: LibraryPlan,
  collection: ParsedCollection,
  playlist: { id: string; url: string; name: string } | null,
) {
  const destinationService = run.transfer.destinationService;
  const librarySave: LibrarySaveRecord = {
    kind: collection.kind,
    savedTo: savedToText({
      kind: collection.kind,
      destination: destinationService,
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
  const libraryPlace: Record<number, string> = {};
  const service = SERVICE_LABELS[destinationService];
  for (const item of library.albumItems)
    libraryPlace[item.row.position] = `saved with the album to your ${service} library`;
  for (const item of library.trackItems)
    libraryPlace[item.row.position] = `saved to ${savedTracksPlace(destinationService)}`;
  return { librarySave, libraryPlace };
}

/** Records the finished transfer: counts, confidence, the CSV snapshot and the read-back's result. */
async function recordSuccess(
  run: TransferRun,
  verification: VerificationResult,
  extra: {
    libraryPlace: ((position: number) => string | undefined) | undefined;
    librarySave: LibrarySaveRecord | null;
    libraryDestination: Awaited<ReturnType<typeof libraryDestination>> | Record<string, never>;
  },
) {
  const { rows, selected, total } = run;
  const matched = selected.length;
  const confidences = selected.map((item) => item.row.confidence);
  const overallConfidence = matched === 0 ? 0 : Math.round(confidences.reduce((a, b) => a + b, 0) / matched);
  const finished = await updateTransfer(run.deps.db, run.transfer.id, {
    status: 'succeeded',
    totalTracks: rows.length,
    matchedTracks: matched,
    unmatchedTracks: rows.length - matched,
    addedTracks: total,
    overallConfidence,
    // What was added and what the read-back found, as this run decided it: rows changed later do not rewrite it.
    csvSnapshot: transferCsvLines(rows, selected, verification, extra.libraryPlace),
    verifiedTracks: verification.verified,
    verificationMissing: verification.missing,
    ...extra.libraryDestination,
    librarySave: extra.librarySave,
    completedAt: new Date(),
    error: null,
  });
  return { transferId: run.transfer.id, addedTracks: finished?.addedTracks ?? total };
}

/**
 * Liked Songs saved as liked songs only (no playlist): the rows are read a page at a time for the counts,
 * the saves and the "contains" verification, so a 100,000-song library is never held whole (issue 25,
 * decision 0039). No CSV snapshot: its file is described from the match rows (transfer-csv.ts), as they
 * would be held whole to write it.
 */
async function runLikedSongsTransfer(
  deps: AppDeps,
  transfer: TransferRun['transfer'],
  context: JobContext<TransferJobState>,
  askedAt: Date | undefined,
) {
  const { matchSetId, includeUnmatched } = transfer;
  const counts = await countLikedSongs(deps.db, matchSetId, includeUnmatched);
  await updateTransfer(deps.db, transfer.id, { status: 'running' });
  const added = context.state?.added ?? 0;
  const run: TransferRun = {
    ...{ deps, transfer, context, rows: [], selected: [], uris: [] },
    ...{ total: counts.selected, state: context.state, added, askedAt },
  };
  const liked = {
    ...{ db: deps.db, matchSetId, includeUnmatched, context, total: counts.selected },
    destination: await addingClient(run),
    state: { ...context.state, added },
  };
  await saveLikedSongs(liked);
  const verification = combineVerifications(counts.selected, [
    await verifyLikedSongs({ ...liked, destination: await readBackClient(run) }, verifyOptions(run)),
  ]);
  const service = transfer.destinationService;
  const savedTo = savedToText({
    ...{ kind: 'liked', destination: service, albumSaved: false },
    ...{ savedTracks: counts.selected, playlistName: null },
  });
  const plan: LibraryPlan = { kind: 'liked', album: null, albumItems: [], trackItems: [] };
  const finished = await updateTransfer(deps.db, transfer.id, {
    status: 'succeeded',
    totalTracks: counts.rows,
    matchedTracks: counts.selected,
    unmatchedTracks: counts.rows - counts.selected,
    addedTracks: counts.selected,
    overallConfidence: counts.selected === 0 ? 0 : Math.round(counts.confidenceSum / counts.selected),
    csvSnapshot: null,
    verifiedTracks: verification.verified,
    verificationMissing: verification.missing,
    ...libraryDestination(service, plan, deps.providers.sandboxPages),
    librarySave: { kind: 'liked', savedTo, album: null, savedTracks: counts.selected, playlist: null },
    completedAt: new Date(),
    error: null,
  });
  return { transferId: transfer.id, addedTracks: finished?.addedTracks ?? counts.selected };
}

async function runTransfer(
  deps: AppDeps,
  transfer: TransferRun['transfer'],
  context: JobContext<TransferJobState>,
) {
  const likedOnly =
    parseCollectionId(transfer.sourcePlaylistId)?.kind === 'liked' && !transfer.alsoAddToPlaylist;
  const matchSet = await matchSetForTransfer(deps.db, transfer.matchSetId);
  if (likedOnly) return runLikedSongsTransfer(deps, transfer, context, matchSet.startedAt);
  const rows = await listMatchRowsInOrder(deps.db, transfer.matchSetId);
  const selected = tracksToAdd(rows, transfer.includeUnmatched);
  const uris = selected.map((item) => item.track.uri);
  await updateTransfer(deps.db, transfer.id, { status: 'running' });
  const run: TransferRun = {
    deps,
    transfer,
    context,
    rows,
    selected,
    uris,
    total: uris.length,
    state: context.state,
    added: context.state?.added ?? 0,
    askedAt: matchSet.startedAt,
  };
  const destination = await addingClient(run);

  // A library collection (issue 14) is saved as liked songs or as an album; Liked Songs may also go
  // to a playlist, which then takes the path every playlist takes.
  const collection = parseCollectionId(transfer.sourcePlaylistId);
  let library: LibraryPlan | null = null;
  if (collection) {
    library = libraryPlan(collection.kind, matchSet.albumMatch, selected);
    run.state = await saveToLibrary(destination, library, run.state, context, run.total);
  }
  const toPlaylist = collection === null || transfer.alsoAddToPlaylist;
  const playlistName = collection
    ? `${transfer.name} (from ${SERVICE_LABELS[transfer.sourceService]})`
    : transfer.name;

  const playlistVerification = toPlaylist ? await transferToPlaylist(run, destination, playlistName) : null;
  const libraryVerification = library
    ? await verifyLibrary(await readBackClient(run), library, verifyOptions(run))
    : null;
  const verification = combineVerifications(
    selected.length,
    [libraryVerification, playlistVerification].filter((v): v is VerificationResult => v !== null),
  );

  if (!library || !collection)
    return recordSuccess(run, verification, {
      libraryPlace: undefined,
      librarySave: null,
      libraryDestination: {},
    });
  const playlist =
    toPlaylist && run.state?.destinationPlaylistId
      ? { id: run.state.destinationPlaylistId, url: run.state.destinationUrl ?? '', name: playlistName }
      : null;
  const { librarySave, libraryPlace } = describeLibrarySave(run, library, collection, playlist);
  return recordSuccess(run, verification, {
    libraryPlace: (position) => libraryPlace[position],
    librarySave,
    libraryDestination: toPlaylist
      ? {}
      : libraryDestination(transfer.destinationService, library, deps.providers.sandboxPages),
  });
}

/** A permanent failure, or the last attempt's, is recorded on the transfer; the error to throw. */
async function recordFailure(
  deps: AppDeps,
  transferId: string,
  context: JobContext<TransferJobState>,
  error: unknown,
): Promise<unknown> {
  const classified = classifyJobError(error);
  const finalAttempt = context.job.attempts >= context.job.maxAttempts;
  if (
    classified instanceof PermanentJobError ||
    (finalAttempt && !(classified instanceof Error && classified.name === 'RetryLater'))
  ) {
    await updateTransfer(deps.db, transferId, {
      status: 'failed',
      error: classified instanceof Error ? classified.message : String(classified),
    });
  }
  return classified;
}

export function createTransferJobHandler(deps: AppDeps) {
  return async ({ transferId }: TransferJobPayload, context: JobContext<TransferJobState>) => {
    const transfer = await findTransfer(deps.db, transferId);
    const matchSetId = transfer?.matchSetId;
    if (!transfer || !matchSetId) throw new PermanentJobError('The transfer no longer exists.');
    try {
      return await runTransfer(deps, { ...transfer, matchSetId }, context);
    } catch (error) {
      throw await recordFailure(deps, transferId, context, error);
    }
  };
}

export const transferJob = defineJob({
  kind: TRANSFER_JOB,
  payloadSchema: transferJobPayloadSchema,
  stateSchema: transferJobStateSchema,
  handler: createTransferJobHandler,
});
