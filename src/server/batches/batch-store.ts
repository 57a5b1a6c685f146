import { and, asc, count, eq, inArray, ne, or, sql } from 'drizzle-orm';
import type { ServiceId } from '../../shared/services';
import type { Database } from '../db/client';
import { batches, matchRows, matchSets, transfers } from '../db/schema';
import type { BatchItemRecord } from '../db/stored-json';
import { isUuid } from '../db/uuid';
import { TRANSFER_WITHOUT_SNAPSHOT, type TransferForCsv } from '../transfers/transfer-store';

/**
 * The SQL of batches (house rule, issue 26): the batch row, the match sets and transfers of its playlists,
 * and the match rows its counts, review and not-found lists are read from. The service and the job call
 * these; nothing else of batches touches the database.
 */

export type BatchRecord = typeof batches.$inferSelect;
export type BatchTransferRecord = TransferForCsv;

export interface NewBatch {
  userId: string;
  sourceService: ServiceId;
  destinationService: ServiceId;
  playlistIds: readonly string[];
  /** Names as step 2 shows them; a playlist missing here is named once its match reads it. */
  names: ReadonlyMap<string, string>;
}

/**
 * One match set per playlist and the batch that holds them, in one transaction; `enqueueJob` queues the
 * batch's job inside it, and the batch and its match sets point at that job (a failed batch shows as a
 * failed match on the review page).
 */
export async function insertBatch(
  db: Database,
  input: NewBatch,
  enqueueJob: (tx: Database, batchId: string) => Promise<{ id: string }>,
): Promise<BatchRecord> {
  return db.transaction(async (tx) => {
    const sets = await tx
      .insert(matchSets)
      .values(
        input.playlistIds.map((playlistId) => ({
          userId: input.userId,
          sourceService: input.sourceService,
          destinationService: input.destinationService,
          sourcePlaylistId: playlistId,
          sourcePlaylistName: input.names.get(playlistId) ?? 'Playlist',
        })),
      )
      .returning({ id: matchSets.id, sourcePlaylistId: matchSets.sourcePlaylistId });
    const items: BatchItemRecord[] = input.playlistIds.map((playlistId) => {
      const set = sets.find((candidate) => candidate.sourcePlaylistId === playlistId);
      if (!set) throw new Error('match set insert returned fewer rows');
      return { sourcePlaylistId: playlistId, matchSetId: set.id, transferId: null };
    });
    const [created] = await tx
      .insert(batches)
      .values({
        userId: input.userId,
        sourceService: input.sourceService,
        destinationService: input.destinationService,
        items,
      })
      .returning();
    if (!created) throw new Error('batch insert returned no row');
    const job = await enqueueJob(tx, created.id);
    await tx.update(batches).set({ jobId: job.id }).where(eq(batches.id, created.id));
    await tx
      .update(matchSets)
      .set({ jobId: job.id })
      .where(
        inArray(
          matchSets.id,
          sets.map((set) => set.id),
        ),
      );
    return { ...created, jobId: job.id };
  });
}

/** The person's own batch, or undefined (an id that is not a uuid names none). */
export async function findOwnedBatch(
  db: Database,
  userId: string,
  batchId: string,
): Promise<BatchRecord | undefined> {
  if (!isUuid(batchId)) return undefined;
  const [batch] = await db
    .select()
    .from(batches)
    .where(and(eq(batches.id, batchId), eq(batches.userId, userId)));
  return batch;
}

export async function findBatch(db: Database, batchId: string): Promise<BatchRecord | undefined> {
  const [batch] = await db.select().from(batches).where(eq(batches.id, batchId));
  return batch;
}

export async function setBatchItems(db: Database, batchId: string, items: BatchItemRecord[]): Promise<void> {
  await db.update(batches).set({ items }).where(eq(batches.id, batchId));
}

export async function setBatchStatus(
  db: Database,
  batchId: string,
  status: BatchRecord['status'],
): Promise<void> {
  await db.update(batches).set({ status }).where(eq(batches.id, batchId));
}

/** The match sets of a batch: name, status and how many entries the source had once it was read. */
export async function batchMatchSets(db: Database, setIds: readonly string[]) {
  if (setIds.length === 0) return [];
  return db
    .select({
      id: matchSets.id,
      name: matchSets.sourcePlaylistName,
      status: matchSets.status,
      sourceLength: sql<
        number | null
      >`coalesce(${matchSets.sourceLength}, jsonb_array_length(${matchSets.sourceEntries}))`,
    })
    .from(matchSets)
    .where(inArray(matchSets.id, [...setIds]));
}

export async function matchSetStatus(db: Database, matchSetId: string) {
  const [set] = await db
    .select({ status: matchSets.status })
    .from(matchSets)
    .where(eq(matchSets.id, matchSetId));
  return set?.status;
}

/** Rows per match set, status and whether the person decided them. */
export async function batchRowCounts(db: Database, setIds: readonly string[]) {
  if (setIds.length === 0) return [];
  const byPerson = sql<boolean>`${matchRows.decidedBy} = 'person'`;
  const rows = await db
    .select({ matchSetId: matchRows.matchSetId, status: matchRows.status, byPerson, rows: count() })
    .from(matchRows)
    .where(inArray(matchRows.matchSetId, [...setIds]))
    .groupBy(matchRows.matchSetId, matchRows.status, byPerson);
  return rows.map((row) => ({ ...row, rows: Number(row.rows) }));
}

/**
 * The rows that need a person: those in review the engine proposed, and those it found no match for
 * (issue 23: a batch lists what did not match, to be searched for by hand or marked not there). A row the
 * person decided (chosen, searched, skipped) has left both bands.
 */
export async function rowsNeedingPerson(db: Database, setIds: readonly string[]) {
  if (setIds.length === 0) return [];
  return db
    .select()
    .from(matchRows)
    .where(
      and(
        inArray(matchRows.matchSetId, [...setIds]),
        or(
          and(eq(matchRows.status, 'review'), ne(matchRows.decidedBy, 'person')),
          eq(matchRows.status, 'unmatched'),
        ),
      ),
    )
    .orderBy(asc(matchRows.position));
}

/**
 * The rows a transfer did not add: every row not accepted, in source order, with what their reason needs
 * (the best candidate's confidence, not the candidates: a running batch's page reads this every second).
 */
export async function rowsNotAccepted(db: Database, setIds: readonly string[]) {
  if (setIds.length === 0) return [];
  const rows = await db
    .select({
      matchSetId: matchRows.matchSetId,
      position: matchRows.position,
      source: matchRows.source,
      status: matchRows.status,
      decidedBy: matchRows.decidedBy,
      reasons: matchRows.reasons,
      closestConfidence: sql<string | number | null>`(${matchRows.candidates} -> 0 ->> 'confidence')`,
    })
    .from(matchRows)
    .where(and(inArray(matchRows.matchSetId, [...setIds]), ne(matchRows.status, 'accepted')))
    .orderBy(asc(matchRows.position));
  return rows.map((row) => ({
    ...row,
    closestConfidence: row.closestConfidence === null ? null : Number(row.closestConfidence),
  }));
}
export type NotAcceptedRow = Awaited<ReturnType<typeof rowsNotAccepted>>[number];

/** The batch's transfers, without their CSV snapshots (the batch's CSV reads those a page at a time). */
export async function transfersByIds(db: Database, ids: readonly string[]): Promise<BatchTransferRecord[]> {
  if (ids.length === 0) return [];
  return db
    .select(TRANSFER_WITHOUT_SNAPSHOT)
    .from(transfers)
    .where(inArray(transfers.id, [...ids]));
}

export async function transferStatus(db: Database, transferId: string) {
  const [transfer] = await db
    .select({ status: transfers.status })
    .from(transfers)
    .where(eq(transfers.id, transferId));
  return transfer?.status;
}

/** A transfer the batch gave up on is failed (never one that succeeded). */
export async function failTransfer(db: Database, transferId: string, message: string): Promise<void> {
  await db
    .update(transfers)
    .set({ status: 'failed', error: message })
    .where(and(eq(transfers.id, transferId), ne(transfers.status, 'succeeded')));
}

/**
 * After the review: the batch is claimed for moving (only one of two simultaneous requests finds it still
 * in review), each playlist whose match is ready gets its transfer (run by the batch's job, so it has no
 * job of its own), and `requeue` queues the batch's job again, all in one transaction. Undefined when the
 * batch was no longer in review.
 */
export async function claimBatchForTransfer(
  db: Database,
  batchId: string,
  userId: string,
  requeue: (tx: Database) => Promise<void>,
): Promise<BatchRecord | undefined> {
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(batches)
      .set({ status: 'transferring' })
      .where(and(eq(batches.id, batchId), eq(batches.status, 'review')))
      .returning();
    if (!claimed) return undefined;
    const sets = await tx
      .select({ id: matchSets.id, name: matchSets.sourcePlaylistName, status: matchSets.status })
      .from(matchSets)
      .where(
        inArray(
          matchSets.id,
          claimed.items.map((item) => item.matchSetId),
        ),
      );
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
        })
        .returning({ id: transfers.id });
      items.push({ ...item, transferId: transfer?.id ?? null });
    }
    await tx.update(batches).set({ items }).where(eq(batches.id, batchId));
    await requeue(tx);
    return { ...claimed, items };
  });
}
