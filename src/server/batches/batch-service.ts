import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { SessionUser } from '../../shared/api/auth';
import type {
  BatchPlaylist,
  BatchProgress,
  BatchRequest,
  BatchReview,
  BatchView,
} from '../../shared/api/batches';
import { SERVICE_LABELS } from '../../shared/services';
import type { AppDeps } from '../app-context';
import type { Database } from '../db/client';
import { batches, matchRows, matchSets, transfers, users } from '../db/schema';
import type { BatchItemRecord } from '../db/stored-json';
import { isUuid } from '../db/uuid';
import { badRequest, conflict, notFound } from '../domain-errors';
import { enqueue } from '../jobs/define-job';
import { getJob, requeueFinishedJob } from '../jobs/job-queue';
import { toJobView } from '../jobs/job-view';
import { assertPro } from '../plans/plan-limits';
import { listSourcePlaylists } from '../playlists/source-playlists';
import { toMatchRow } from '../transfers/match-rows';
import { batchJob, batchJobStateSchema, PHASE_SEPARATOR } from './batch-job';

/**
 * Batches (issue 14 item 2): several playlists matched, reviewed once and moved by one durable job
 * (batch-job.ts). Each playlist has its own match set and transfer, so review, history, CSV and
 * verification are the single-playlist ones.
 */
const FEATURE = 'Moving several playlists at once';

type BatchRecord = typeof batches.$inferSelect;

/** The plan is read from the user's row, not the session: an upgrade or downgrade counts at once. */
async function requirePro(db: Database, userId: string) {
  const [user] = await db.select({ plan: users.plan }).from(users).where(eq(users.id, userId));
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
  const batch = await deps.db.transaction(async (tx) => {
    const sets = await tx
      .insert(matchSets)
      .values(
        request.playlistIds.map((playlistId) => ({
          userId: user.id,
          sourceService: request.sourceService,
          destinationService: request.destinationService,
          sourcePlaylistId: playlistId,
          sourcePlaylistName: names.get(playlistId) ?? 'Playlist',
        })),
      )
      .returning({ id: matchSets.id, sourcePlaylistId: matchSets.sourcePlaylistId });
    const items: BatchItemRecord[] = request.playlistIds.map((playlistId) => {
      const set = sets.find((candidate) => candidate.sourcePlaylistId === playlistId);
      if (!set) throw new Error('match set insert returned fewer rows');
      return { sourcePlaylistId: playlistId, matchSetId: set.id, transferId: null };
    });
    const [created] = await tx
      .insert(batches)
      .values({
        userId: user.id,
        sourceService: request.sourceService,
        destinationService: request.destinationService,
        items,
      })
      .returning();
    if (!created) throw new Error('batch insert returned no row');
    const job = await enqueue(tx, batchJob, { userId: user.id, payload: { batchId: created.id } });
    await tx.update(batches).set({ jobId: job.id }).where(eq(batches.id, created.id));
    // The match sets point at the batch's job: a failed batch shows as a failed match on the review page.
    await tx
      .update(matchSets)
      .set({ jobId: job.id })
      .where(
        inArray(
          matchSets.id,
          sets.map((set) => set.id),
        ),
      );
    return created;
  });
  deps.jobs.poke();
  return { batchId: batch.id };
}

async function ownedBatch(db: Database, userId: string, batchId: string): Promise<BatchRecord> {
  const [batch] = isUuid(batchId)
    ? await db
        .select()
        .from(batches)
        .where(and(eq(batches.id, batchId), eq(batches.userId, userId)))
    : [];
  if (!batch) throw notFound('That batch does not exist.');
  return batch;
}

const matchSetIds = (batch: BatchRecord) => batch.items.map((item) => item.matchSetId);

export async function getBatchView(deps: AppDeps, userId: string, batchId: string): Promise<BatchView> {
  const batch = await ownedBatch(deps.db, userId, batchId);
  const job = batch.jobId ? await getJob(deps.db, batch.jobId) : undefined;
  const jobView = job ? toJobView(job) : undefined;
  // The view reads the checkpoint only to say which playlist is under way; one it cannot read says none.
  const jobState = batchJobStateSchema.safeParse(job?.state).data;
  const jobFailed = job?.status === 'failed' || job?.status === 'cancelled';
  const status = jobFailed && batch.status !== 'done' && batch.status !== 'review' ? 'failed' : batch.status;
  const running = job?.status === 'running' || job?.status === 'queued';

  const setIds = matchSetIds(batch);
  const sets = await deps.db
    .select({
      id: matchSets.id,
      name: matchSets.sourcePlaylistName,
      status: matchSets.status,
      sourceLength: sql<number | null>`jsonb_array_length(${matchSets.sourceEntries})`,
    })
    .from(matchSets)
    .where(inArray(matchSets.id, setIds));
  const rowCounts = await deps.db
    .select({
      matchSetId: matchRows.matchSetId,
      status: matchRows.status,
      byPerson: sql<boolean>`${matchRows.decidedBy} = 'person'`,
      rows: count(),
    })
    .from(matchRows)
    .where(inArray(matchRows.matchSetId, setIds))
    .groupBy(matchRows.matchSetId, matchRows.status, sql`${matchRows.decidedBy} = 'person'`);
  const transferIds = batch.items.flatMap((item) => (item.transferId ? [item.transferId] : []));
  const transferRecords = transferIds.length
    ? await deps.db.select().from(transfers).where(inArray(transfers.id, transferIds))
    : [];

  const progressNow = jobView?.progress;
  const secondsPerTrack =
    jobView?.etaSeconds != null && progressNow && progressNow.total > progressNow.done
      ? jobView.etaSeconds / (progressNow.total - progressNow.done)
      : null;

  const playlists = batch.items.map((item, index): BatchPlaylist => {
    const set = sets.find((candidate) => candidate.id === item.matchSetId);
    const counts = rowCounts.filter((row) => row.matchSetId === item.matchSetId);
    const sum = (test: (row: (typeof counts)[number]) => boolean) =>
      counts.filter(test).reduce((total, row) => total + Number(row.rows), 0);
    const stored = sum(() => true);
    const matched = sum((row) => row.status === 'accepted');
    const inReview = sum((row) => row.status === 'review' && !row.byPerson);
    const transfer = transferRecords.find((record) => record.id === item.transferId);
    const current = running && jobState?.index === index && jobState.phase === phaseOf(batch.status);
    const currentProgress = current && progressNow && progressNow.total > 0 ? progressNow : undefined;
    let itemStatus: BatchPlaylist['status'];
    let progress: BatchProgress;
    if (batch.status === 'matching' || !transfer) {
      itemStatus =
        set?.status === 'failed' || item.error
          ? 'failed'
          : set?.status === 'ready'
            ? 'matched'
            : current
              ? 'matching'
              : 'waiting';
      const total = Number(set?.sourceLength ?? 0);
      progress = {
        done: set?.status === 'ready' ? total : (currentProgress?.done ?? stored),
        total: currentProgress?.total ?? total,
        phase: 'matching',
        etaSeconds: currentProgress ? (jobView?.etaSeconds ?? null) : null,
      };
    } else {
      itemStatus =
        transfer.status === 'succeeded'
          ? 'done'
          : transfer.status === 'failed'
            ? 'failed'
            : transfer.status === 'running' || current
              ? 'transferring'
              : 'waiting';
      const total = transfer.status === 'succeeded' ? transfer.addedTracks : matched;
      progress = {
        done: transfer.status === 'succeeded' ? total : (currentProgress?.done ?? transfer.addedTracks),
        total: currentProgress?.total ?? total,
        phase: currentProgress?.phase.split(PHASE_SEPARATOR)[0] ?? 'adding',
        etaSeconds: currentProgress ? (jobView?.etaSeconds ?? null) : null,
      };
    }
    return {
      sourcePlaylistId: item.sourcePlaylistId,
      name: set?.name ?? 'Playlist',
      matchSetId: item.matchSetId,
      transferId: item.transferId,
      status: itemStatus,
      counts: {
        total: Number(set?.sourceLength ?? stored),
        matched,
        inReview,
        added: transfer?.addedTracks ?? 0,
        verified: transfer?.verifiedTracks ?? null,
      },
      progress,
      destinationUrl: transfer?.destinationUrl ?? null,
      savedTo: transfer?.librarySave?.savedTo ?? null,
      verificationMissing: transfer?.verificationMissing ?? [],
      error: item.error ?? transfer?.error ?? null,
    };
  });

  const done = playlists.reduce((total, item) => total + item.progress.done, 0);
  const total = playlists.reduce((sum, item) => sum + item.progress.total, 0);
  return {
    batchId: batch.id,
    status,
    sourceService: batch.sourceService,
    destinationService: batch.destinationService,
    jobId: batch.jobId,
    error: jobFailed ? (job?.error ?? null) : null,
    progress: {
      done,
      total,
      phase: status,
      // The pace of the playlist under way, applied to every track still to go in this phase.
      etaSeconds:
        secondsPerTrack !== null && total > done
          ? Math.max(1, Math.round(secondsPerTrack * (total - done)))
          : null,
    },
    playlists,
    createdAt: batch.createdAt.toISOString(),
  };
}

const phaseOf = (status: BatchRecord['status']) => (status === 'transferring' ? 'transferring' : 'matching');

/** The rows that need a person, across every playlist of the batch, in batch then playlist order. */
export async function getBatchReview(deps: AppDeps, userId: string, batchId: string): Promise<BatchReview> {
  const batch = await ownedBatch(deps.db, userId, batchId);
  const setIds = matchSetIds(batch);
  const sets = await deps.db
    .select({ id: matchSets.id, name: matchSets.sourcePlaylistName })
    .from(matchSets)
    .where(inArray(matchSets.id, setIds));
  const rows = await deps.db
    .select()
    .from(matchRows)
    .where(
      and(
        inArray(matchRows.matchSetId, setIds),
        eq(matchRows.status, 'review'),
        ne(matchRows.decidedBy, 'person'),
      ),
    )
    .orderBy(asc(matchRows.position));
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
 * After the review: one transfer per matched playlist, then the batch's job runs again for the transfer
 * phase. Only one of two simultaneous requests finds the batch still in review, so transfers are created once.
 */
export async function startBatchTransfer(deps: AppDeps, userId: string, batchId: string) {
  // A batch begun on Pro finishes after a downgrade (issue 22): only starting one needs Pro.
  const batch = await ownedBatch(deps.db, userId, batchId);
  if (batch.status === 'matching') throw conflict('The playlists are still being matched.');
  if (batch.status !== 'review' || !batch.jobId) throw conflict('This batch has already been moved.');
  const jobId = batch.jobId;
  await deps.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(batches)
      .set({ status: 'transferring' })
      .where(and(eq(batches.id, batch.id), eq(batches.status, 'review')))
      .returning();
    if (!claimed) throw conflict('This batch has already been moved.');
    const sets = await tx
      .select({ id: matchSets.id, name: matchSets.sourcePlaylistName, status: matchSets.status })
      .from(matchSets)
      .where(inArray(matchSets.id, matchSetIds(claimed)));
    const items: BatchItemRecord[] = [];
    for (const item of claimed.items) {
      const set = sets.find((candidate) => candidate.id === item.matchSetId);
      if (set?.status !== 'ready') {
        items.push(item);
        continue;
      }
      const [transfer] = await tx
        .insert(transfers)
        .values({
          userId,
          matchSetId: set.id,
          sourceService: claimed.sourceService,
          destinationService: claimed.destinationService,
          sourcePlaylistId: item.sourcePlaylistId,
          name: set.name,
          // No job of its own: the batch's job runs it (a retry of one playlist is not offered).
        })
        .returning({ id: transfers.id });
      items.push({ ...item, transferId: transfer?.id ?? null });
    }
    await tx.update(batches).set({ items }).where(eq(batches.id, batch.id));
    await requeueFinishedJob(tx, jobId);
  });
  deps.jobs.poke();
  return getBatchView(deps, userId, batch.id);
}
