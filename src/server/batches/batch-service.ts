import type { SessionUser } from '../../shared/api/auth';
import type {
  BatchNotFound,
  BatchPlaylist,
  BatchProgress,
  BatchRequest,
  BatchReview,
  BatchView,
} from '../../shared/api/batches';
import { type JobView, notAddedReason } from '../../shared/api/transfer';
import { SERVICE_LABELS } from '../../shared/services';
import type { AppDeps } from '../app-context';
import type { Database } from '../db/client';
import { badRequest, conflict, notFound } from '../domain-errors';
import { enqueue } from '../jobs/define-job';
import { getJob, requeueFinishedJob } from '../jobs/job-store';
import { toJobView } from '../jobs/job-view';
import { assertPro } from '../plans/plan-limits';
import { findUserById } from '../plans/plan-store';
import { listSourcePlaylists } from '../playlists/source-playlists';
import { toMatchRow } from '../transfers/match-rows';
import { batchCsvPieces } from '../transfers/transfer-csv';
import { batchJob, batchJobStateSchema, PHASE_SEPARATOR } from './batch-job';
import {
  type BatchRecord,
  type BatchTransferRecord,
  batchMatchSets,
  batchRowCounts,
  claimBatchForTransfer,
  findOwnedBatch,
  insertBatch,
  type NotAcceptedRow,
  rowsNeedingPerson,
  rowsNotAccepted,
  transfersByIds,
} from './batch-store';

/**
 * Batches (issue 14 item 2): several playlists matched, reviewed once and moved by one durable job
 * (batch-job.ts). Each playlist has its own match set and transfer, so review, history, CSV and
 * verification are the single-playlist ones. Issue 23: the counts, the review and the result also show
 * the tracks that did not match. The SQL is in batch-store.ts.
 */
const FEATURE = 'Moving several playlists at once';

/** The plan is read from the user's row, not the session: an upgrade or downgrade counts at once. */
async function requirePro(db: Database, userId: string) {
  const user = await findUserById(db, userId);
  assertPro(user?.plan ?? 'free', FEATURE);
}

export async function createBatch(deps: AppDeps, user: SessionUser, request: BatchRequest) {
  await requirePro(deps.db, user.id);
  for (const service of [request.sourceService, request.destinationService]) {
    if (!(await deps.providers.connections.get(user.id, service))) {
      throw badRequest(`Connect ${SERVICE_LABELS[service]} before moving playlists.`);
    }
  }
  // Names as step 2 shows them, so playlists still waiting are named before their match reads them
  // (an id the listing does not show is matched as /api/match would, and named once it is read).
  const names = new Map(
    (await listSourcePlaylists(deps, user.id, request.sourceService).catch(() => [])).map((item) => [
      item.id,
      item.name,
    ]),
  );
  const batch = await insertBatch(
    deps.db,
    {
      userId: user.id,
      sourceService: request.sourceService,
      destinationService: request.destinationService,
      playlistIds: request.playlistIds,
      names,
    },
    (tx, batchId) => enqueue(tx, batchJob, { userId: user.id, payload: { batchId } }),
  );
  deps.jobs.poke();
  return { batchId: batch.id };
}

async function ownedBatch(db: Database, userId: string, batchId: string): Promise<BatchRecord> {
  const batch = await findOwnedBatch(db, userId, batchId);
  if (!batch) throw notFound('That batch does not exist.');
  return batch;
}

const matchSetIds = (batch: BatchRecord) => batch.items.map((item) => item.matchSetId);

const phaseOf = (status: BatchRecord['status']) => (status === 'transferring' ? 'transferring' : 'matching');

type RowCount = Awaited<ReturnType<typeof batchRowCounts>>[number];
type SetSummary = Awaited<ReturnType<typeof batchMatchSets>>[number];

/** What every playlist of one view is read against: the job under way and where it stands. */
interface ViewContext {
  batch: BatchRecord;
  jobView: JobView | undefined;
  /** The playlist the job is on in the batch's current phase, if it runs. */
  currentIndex: number | null;
}

/** A playlist's rows: accepted, in review (the engine's), and the rest, which did not match. */
function countRows(counts: readonly RowCount[]) {
  const sum = (test: (row: RowCount) => boolean) =>
    counts.filter(test).reduce((total, row) => total + row.rows, 0);
  const stored = sum(() => true);
  const matched = sum((row) => row.status === 'accepted');
  const inReview = sum((row) => row.status === 'review' && !row.byPerson);
  return { stored, matched, inReview, unmatched: stored - matched - inReview };
}

/** Every track a playlist's transfer did not add, in the words step 4 uses. */
export function notFoundList(rows: readonly NotAcceptedRow[]): BatchNotFound[] {
  return rows.map((row) => ({
    position: row.position,
    name: row.source.name,
    artists: row.source.artists,
    reason: notAddedReason(row),
  }));
}

function playlistProgress(
  context: ViewContext,
  index: number,
  set: SetSummary | undefined,
  transfer: BatchTransferRecord | undefined,
  rows: ReturnType<typeof countRows>,
  failed: boolean,
): { status: BatchPlaylist['status']; progress: BatchProgress } {
  const { batch, jobView } = context;
  const current = context.currentIndex === index;
  const progressNow = jobView?.progress;
  const currentProgress = current && progressNow && progressNow.total > 0 ? progressNow : undefined;
  const etaSeconds = currentProgress ? (jobView?.etaSeconds ?? null) : null;
  if (batch.status === 'matching' || !transfer) {
    const status =
      set?.status === 'failed' || failed
        ? 'failed'
        : set?.status === 'ready'
          ? 'matched'
          : current
            ? 'matching'
            : 'waiting';
    const total = Number(set?.sourceLength ?? 0);
    return {
      status,
      progress: {
        done: set?.status === 'ready' ? total : (currentProgress?.done ?? rows.stored),
        total: currentProgress?.total ?? total,
        phase: 'matching',
        etaSeconds,
      },
    };
  }
  const status =
    transfer.status === 'succeeded'
      ? 'done'
      : transfer.status === 'failed'
        ? 'failed'
        : transfer.status === 'running' || current
          ? 'transferring'
          : 'waiting';
  const total = transfer.status === 'succeeded' ? transfer.addedTracks : rows.matched;
  return {
    status,
    progress: {
      done: transfer.status === 'succeeded' ? total : (currentProgress?.done ?? transfer.addedTracks),
      total: currentProgress?.total ?? total,
      phase: currentProgress?.phase.split(PHASE_SEPARATOR)[0] ?? 'adding',
      etaSeconds,
    },
  };
}

export async function getBatchView(deps: AppDeps, userId: string, batchId: string): Promise<BatchView> {
  const batch = await ownedBatch(deps.db, userId, batchId);
  const job = batch.jobId ? await getJob(deps.db, batch.jobId) : undefined;
  const jobView = job ? toJobView(job) : undefined;
  // The view reads the checkpoint only to say which playlist is under way; one it cannot read says none.
  const jobState = batchJobStateSchema.safeParse(job?.state).data;
  const jobFailed = job?.status === 'failed' || job?.status === 'cancelled';
  const status = jobFailed && batch.status !== 'done' && batch.status !== 'review' ? 'failed' : batch.status;
  const running = job?.status === 'running' || job?.status === 'queued';
  const context: ViewContext = {
    batch,
    jobView,
    currentIndex: running && jobState?.phase === phaseOf(batch.status) ? jobState.index : null,
  };

  const setIds = matchSetIds(batch);
  const sets = await batchMatchSets(deps.db, setIds);
  const rowCounts = await batchRowCounts(deps.db, setIds);
  const transferRecords = await transfersByIds(
    deps.db,
    batch.items.flatMap((item) => (item.transferId ? [item.transferId] : [])),
  );
  // Once moved, each playlist lists what it did not add (issue 23).
  const movedSetIds = transferRecords.flatMap((record) =>
    record.status === 'succeeded' && record.matchSetId ? [record.matchSetId] : [],
  );
  const notAccepted = await rowsNotAccepted(deps.db, movedSetIds);

  const playlists = batch.items.map((item, index): BatchPlaylist => {
    const set = sets.find((candidate) => candidate.id === item.matchSetId);
    const rows = countRows(rowCounts.filter((row) => row.matchSetId === item.matchSetId));
    const transfer = transferRecords.find((record) => record.id === item.transferId);
    const { status: itemStatus, progress } = playlistProgress(
      context,
      index,
      set,
      transfer,
      rows,
      Boolean(item.error),
    );
    const moved = transfer?.status === 'succeeded';
    return {
      sourcePlaylistId: item.sourcePlaylistId,
      name: set?.name ?? 'Playlist',
      matchSetId: item.matchSetId,
      transferId: item.transferId,
      status: itemStatus,
      counts: {
        total: Number(set?.sourceLength ?? rows.stored),
        matched: rows.matched,
        inReview: rows.inReview,
        unmatched: rows.unmatched,
        added: transfer?.addedTracks ?? 0,
        verified: transfer?.verifiedTracks ?? null,
      },
      progress,
      destinationUrl: transfer?.destinationUrl ?? null,
      savedTo: transfer?.librarySave?.savedTo ?? null,
      verificationMissing: transfer?.verificationMissing ?? [],
      notFound: moved ? notFoundList(notAccepted.filter((row) => row.matchSetId === item.matchSetId)) : [],
      error: item.error ?? transfer?.error ?? null,
    };
  });

  return {
    batchId: batch.id,
    status,
    sourceService: batch.sourceService,
    destinationService: batch.destinationService,
    jobId: batch.jobId,
    error: jobFailed ? (job?.error ?? null) : null,
    progress: overallProgress(playlists, status, jobView),
    playlists,
    createdAt: batch.createdAt.toISOString(),
  };
}

/** The batch's own bar: the pace of the playlist under way, applied to every track still to go. */
function overallProgress(
  playlists: readonly BatchPlaylist[],
  status: BatchView['status'],
  jobView: JobView | undefined,
): BatchProgress {
  const progressNow = jobView?.progress;
  const secondsPerTrack =
    jobView?.etaSeconds != null && progressNow && progressNow.total > progressNow.done
      ? jobView.etaSeconds / (progressNow.total - progressNow.done)
      : null;
  const done = playlists.reduce((total, item) => total + item.progress.done, 0);
  const total = playlists.reduce((sum, item) => sum + item.progress.total, 0);
  return {
    done,
    total,
    phase: status,
    etaSeconds:
      secondsPerTrack !== null && total > done
        ? Math.max(1, Math.round(secondsPerTrack * (total - done)))
        : null,
  };
}

/**
 * The rows that need a person, across every playlist of the batch, in batch then playlist order: those in
 * review and those with no match (issue 23), each to be searched for by hand, chosen or skipped.
 */
export async function getBatchReview(deps: AppDeps, userId: string, batchId: string): Promise<BatchReview> {
  const batch = await ownedBatch(deps.db, userId, batchId);
  const setIds = matchSetIds(batch);
  const sets = await batchMatchSets(deps.db, setIds);
  const rows = await rowsNeedingPerson(deps.db, setIds);
  const order = new Map(setIds.map((id, index) => [id, index]));
  rows.sort((a, b) => (order.get(a.matchSetId) ?? 0) - (order.get(b.matchSetId) ?? 0));
  return {
    batchId: batch.id,
    status: batch.status,
    rows: rows.map((row) => ({
      matchSetId: row.matchSetId,
      playlistName: sets.find((set) => set.id === row.matchSetId)?.name ?? 'Playlist',
      row: toMatchRow(row),
    })),
  };
}

/**
 * GET /api/batches/:id/csv: every moved playlist's playlist_transfer.csv in one file, in batch order, each
 * line led by its playlist's name (with the reason of every track not added, as the single file has).
 */
/**
 * The batch's CSV, written as it is read (decision 0042): every moved playlist's lines, in the batch's
 * order. 404 before anything is sent while no playlist of it has been moved.
 */
export async function batchCsv(
  deps: AppDeps,
  userId: string,
  batchId: string,
): Promise<AsyncGenerator<string>> {
  const batch = await ownedBatch(deps.db, userId, batchId);
  const records = await transfersByIds(
    deps.db,
    batch.items.flatMap((item) => (item.transferId ? [item.transferId] : [])),
  );
  const moved = batch.items.flatMap((item) => {
    const transfer = records.find((record) => record.id === item.transferId);
    return transfer?.status === 'succeeded' ? [transfer] : [];
  });
  if (moved.length === 0) throw notFound('No playlist of this batch has been moved yet.');
  return batchCsvPieces(deps.db, moved);
}

/**
 * After the review: one transfer per matched playlist, then the batch's job runs again for the transfer
 * phase. Only one of two simultaneous requests finds the batch still in review, so transfers are created once.
 */
export async function startBatchTransfer(deps: AppDeps, userId: string, batchId: string) {
  // A batch begun on Pro finishes after a downgrade (issue 22): only starting one needs Pro.
  const batch = await ownedBatch(deps.db, userId, batchId);
  if (batch.status === 'matching') throw conflict('The playlists are still being matched.');
  if (batch.status !== 'review' || !batch.jobId) throw conflict('This batch has already been moved.');
  const jobId = batch.jobId;
  const claimed = await claimBatchForTransfer(deps.db, batch.id, userId, (tx) =>
    requeueFinishedJob(tx, jobId),
  );
  if (!claimed) throw conflict('This batch has already been moved.');
  deps.jobs.poke();
  return getBatchView(deps, userId, batch.id);
}
