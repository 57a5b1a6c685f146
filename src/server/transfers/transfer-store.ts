import { and, desc, eq, getTableColumns, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { transfers } from '../db/schema';
import { isUuid } from '../db/uuid';

/** The SQL of transfers; the service is transfer-service.ts, the job transfer-job.ts. */

export type TransferRecord = typeof transfers.$inferSelect;
export type NewTransfer = typeof transfers.$inferInsert;
export type TransferChanges = Partial<Omit<NewTransfer, 'id' | 'userId'>>;

export async function insertTransfer(db: Database, values: NewTransfer): Promise<TransferRecord> {
  const [record] = await db.insert(transfers).values(values).returning();
  if (!record) throw new Error('transfer insert returned no row');
  return record;
}

export async function findTransfer(db: Database, transferId: string): Promise<TransferRecord | undefined> {
  const [record] = await db.select().from(transfers).where(eq(transfers.id, transferId));
  return record;
}

/** The person's transfer, or undefined (also for an id that is no uuid). */
export async function findUserTransfer(
  db: Database,
  userId: string,
  transferId: string,
): Promise<TransferRecord | undefined> {
  if (!isUuid(transferId)) return undefined;
  const [record] = await db
    .select()
    .from(transfers)
    .where(and(eq(transfers.id, transferId), eq(transfers.userId, userId)));
  return record;
}

export function listUserTransfers(db: Database, userId: string, limit: number): Promise<TransferRecord[]> {
  return db
    .select()
    .from(transfers)
    .where(eq(transfers.userId, userId))
    .orderBy(desc(transfers.createdAt))
    .limit(limit);
}

/** A transfer without its CSV snapshot, which is read a page at a time (`listCsvSnapshotPage`). */
export type TransferForCsv = Omit<TransferRecord, 'csvSnapshot'> & { hasCsvSnapshot: boolean };

const { csvSnapshot: _snapshot, ...columnsButSnapshot } = getTableColumns(transfers);
/**
 * A transfer's columns without its CSV snapshot (up to a line per song: read a page at a time when the
 * CSV is downloaded, `listCsvSnapshotPage`), and whether it has one: what a `TransferForCsv` holds.
 */
export const TRANSFER_WITHOUT_SNAPSHOT = {
  ...columnsButSnapshot,
  hasCsvSnapshot: sql<boolean>`${transfers.csvSnapshot} is not null`,
};

/**
 * The person's newest succeeded transfer whose own id, destination playlist id or source playlist id is
 * `idOrPlaylistId`, without its CSV snapshot.
 */
export async function findNewestSucceededTransfer(
  db: Database,
  userId: string,
  idOrPlaylistId: string,
): Promise<TransferForCsv | undefined> {
  const byPlaylist = or(
    eq(transfers.destinationPlaylistId, idOrPlaylistId),
    eq(transfers.sourcePlaylistId, idOrPlaylistId),
  );
  const byId = isUuid(idOrPlaylistId) ? eq(transfers.id, idOrPlaylistId) : undefined;
  const [record] = await db
    .select(TRANSFER_WITHOUT_SNAPSHOT)
    .from(transfers)
    .where(
      and(
        eq(transfers.userId, userId),
        eq(transfers.status, 'succeeded'),
        byId ? or(byId, byPlaylist) : byPlaylist,
      ),
    )
    .orderBy(desc(transfers.createdAt))
    .limit(1);
  return record;
}

/**
 * At most `limit` lines of a transfer's CSV snapshot after line `after` (0: from the first; lines count
 * from 1), in order. The database takes the lines out of the stored array; this process holds a page.
 */
export async function listCsvSnapshotPage(
  db: Database,
  transferId: string,
  after: number,
  limit: number,
): Promise<{ line: number; cells: string[] }[]> {
  const result = await db.execute(sql`
    select line, cells from ${transfers},
      jsonb_array_elements(${transfers.csvSnapshot}) with ordinality as snapshot(cells, line)
    where ${transfers.id} = ${transferId} and line > ${after}
    order by line
    limit ${limit}`);
  const { rows } = result as unknown as { rows: { line: string | number; cells: string[] }[] };
  return rows.map((row) => ({ line: Number(row.line), cells: row.cells }));
}

/** Changes one transfer; the row as it is afterwards (undefined when it is gone). */
export async function updateTransfer(
  db: Database,
  transferId: string,
  changes: TransferChanges,
): Promise<TransferRecord | undefined> {
  const [record] = await db.update(transfers).set(changes).where(eq(transfers.id, transferId)).returning();
  return record;
}

/** Queues a failed transfer again; undefined when it was not failed (only one of two retries wins). */
export async function requeueFailedTransfer(
  db: Database,
  transferId: string,
): Promise<TransferRecord | undefined> {
  const [row] = await db
    .update(transfers)
    .set({ status: 'queued', error: null })
    .where(and(eq(transfers.id, transferId), eq(transfers.status, 'failed')))
    .returning();
  return row;
}
