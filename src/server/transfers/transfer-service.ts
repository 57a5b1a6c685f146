import type { SessionUser } from '../../shared/api/auth';
import type { TransferRequest, TransferResult } from '../../shared/api/transfer';
import type { AppDeps } from '../app-context';
import { badRequest, notFound } from '../domain-errors';
import { enqueue } from '../jobs/define-job';
import { requeueFinishedJob } from '../jobs/job-store';
import { withTransferSlot } from '../plans/plan-limits';
import { collectionKind } from './library-collections';
import { latestReadySet, requireOwnedMatchSet } from './match-service';
import { transferJob } from './transfer-job';
import {
  findNewestSucceededTransfer,
  findUserTransfer,
  insertTransfer,
  listUserTransfers,
  requeueFailedTransfer,
  type TransferRecord,
  updateTransfer,
} from './transfer-store';

export function toTransferResult(record: TransferRecord): TransferResult {
  return {
    transferId: record.id,
    playlistId: record.destinationPlaylistId ?? '',
    name: record.name,
    totalTracks: record.totalTracks,
    matchedTracks: record.matchedTracks,
    unmatchedTracks: record.unmatchedTracks,
    addedTracks: record.addedTracks,
    destinationUrl: record.destinationUrl ?? '',
    overallConfidence: record.overallConfidence,
    verifiedTracks: record.verifiedTracks,
    verificationMissing: record.verificationMissing ?? [],
    status: record.status,
    error: record.error,
    jobId: record.jobId,
    kind: collectionKind(record.sourcePlaylistId),
    librarySave: record.librarySave ?? null,
    sourceService: record.sourceService,
    destinationService: record.destinationService,
    createdAt: record.createdAt.toISOString(),
    completedAt: record.completedAt?.toISOString() ?? null,
  };
}

export async function startTransfer(deps: AppDeps, user: SessionUser, request: TransferRequest) {
  const set = request.matchSetId
    ? await requireOwnedMatchSet(deps, user.id, request.matchSetId)
    : await latestReadySet(deps, user.id, request);
  if (set?.status !== 'ready' || set.sourcePlaylistId !== request.playlistId) {
    throw badRequest('Please complete track matching first');
  }
  const record = await withTransferSlot(deps.db, user.id, (tx) =>
    insertTransfer(tx, {
      userId: user.id,
      matchSetId: set.id,
      sourceService: request.sourceService,
      destinationService: request.destinationService,
      sourcePlaylistId: request.playlistId,
      name: set.sourcePlaylistName,
      includeUnmatched: request.includeUnmatched,
      // Only Liked Songs can also go to a playlist; an album is saved as an album.
      alsoAddToPlaylist: request.alsoAddToPlaylist && collectionKind(request.playlistId) === 'liked',
    }),
  );
  const job = await enqueue(deps.db, transferJob, {
    userId: user.id,
    payload: { transferId: record.id },
  });
  const withJob = await updateTransfer(deps.db, record.id, { jobId: job.id });
  deps.jobs.poke();
  return toTransferResult(withJob ?? record);
}

export async function getTransfer(deps: AppDeps, userId: string, transferId: string) {
  const record = await findUserTransfer(deps.db, userId, transferId);
  if (!record) throw notFound('That transfer does not exist.');
  return record;
}

export async function listTransfers(deps: AppDeps, userId: string) {
  const records = await listUserTransfers(deps.db, userId, 200);
  return records.map(toTransferResult);
}

/**
 * The newest finished transfer for GET /api/export/csv/{playlistId}: the id may be the transfer's own id,
 * the destination playlist id the transfer answered as `playlistId` (what the spec's page passes), or the
 * source playlist id.
 */
export async function findTransferForExport(deps: AppDeps, userId: string, idOrPlaylistId: string) {
  const record = await findNewestSucceededTransfer(deps.db, userId, idOrPlaylistId);
  if (!record) throw notFound('No transfer completed to download');
  return record;
}

/**
 * A failed transfer goes on from where it stopped: the same job, with its checkpoint, runs again. It counts
 * against the plan again, so it needs a free slot like a new transfer (decided under the same lock).
 */
export async function retryTransfer(deps: AppDeps, userId: string, transferId: string) {
  const record = await getTransfer(deps, userId, transferId);
  const onlyFailed = () => badRequest('Only a failed transfer can be retried.');
  const jobId = record.jobId;
  if (record.status !== 'failed' || !jobId) throw onlyFailed();
  const updated = await withTransferSlot(
    deps.db,
    userId,
    async (tx) => {
      // Only one of two simultaneous retries of one transfer finds it still failed.
      const row = await requeueFailedTransfer(tx, transferId);
      if (!row) throw onlyFailed();
      await requeueFinishedJob(tx, jobId);
      return row;
    },
    transferId,
  );
  deps.jobs.poke();
  return toTransferResult(updated ?? record);
}
