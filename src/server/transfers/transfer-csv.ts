import type { Database } from '../db/client';
import { toCsv } from '../export/csv';
import { listMatchRowsInOrder } from './match-set-store';
import { TRANSFER_CSV_HEADER, transferCsvLines } from './transfer-csv-lines';
import { tracksToAdd } from './transfer-job';
import type { TransferRecord } from './transfer-store';

/**
 * playlist_transfer.csv: what the transfer added, as stored when it finished (decision 0012). A transfer
 * that finished before snapshots existed is described from its match rows as they are now.
 */
export async function transferCsv(db: Database, transfer: TransferRecord): Promise<string> {
  if (transfer.csvSnapshot) return toCsv(TRANSFER_CSV_HEADER, transfer.csvSnapshot);
  const rows = transfer.matchSetId ? await listMatchRowsInOrder(db, transfer.matchSetId) : [];
  const verification =
    transfer.verifiedTracks === null
      ? null
      : { verified: transfer.verifiedTracks, missing: transfer.verificationMissing ?? [] };
  return toCsv(
    TRANSFER_CSV_HEADER,
    transferCsvLines(rows, tracksToAdd(rows, transfer.includeUnmatched), verification),
  );
}
