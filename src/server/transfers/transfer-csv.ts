import { asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { matchRows, type transfers } from '../db/schema';
import { toCsv } from '../export/csv';
import { TRANSFER_CSV_HEADER, transferCsvLines } from './transfer-csv-lines';
import { tracksToAdd } from './transfer-job';

/**
 * playlist_transfer.csv: what the transfer added, as stored when it finished (decision 0012). A transfer
 * that finished before snapshots existed is described from its match rows as they are now.
 */
export async function transferCsv(db: Database, transfer: typeof transfers.$inferSelect): Promise<string> {
  return toCsv(TRANSFER_CSV_HEADER, await transferCsvRows(db, transfer));
}

/** The lines of a transfer's playlist_transfer.csv, under `TRANSFER_CSV_HEADER` (a batch's file joins them). */
export async function transferCsvRows(
  db: Database,
  transfer: typeof transfers.$inferSelect,
): Promise<string[][]> {
  if (transfer.csvSnapshot) return transfer.csvSnapshot;
  const rows = transfer.matchSetId
    ? await db
        .select()
        .from(matchRows)
        .where(eq(matchRows.matchSetId, transfer.matchSetId))
        .orderBy(asc(matchRows.position))
    : [];
  const verification =
    transfer.verifiedTracks === null
      ? null
      : { verified: transfer.verifiedTracks, missing: transfer.verificationMissing ?? [] };
  return transferCsvLines(rows, tracksToAdd(rows, transfer.includeUnmatched), verification);
}
