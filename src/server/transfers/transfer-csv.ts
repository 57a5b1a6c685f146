import type { Database } from '../db/client';
import { toCsv } from '../export/csv';
import { savedTracksPlace } from './library-collections';
import { tracksToAdd } from './match-rows';
import { listMatchRowsInOrder } from './match-set-store';
import { TRANSFER_CSV_HEADER, transferCsvLines } from './transfer-csv-lines';
import type { TransferRecord } from './transfer-store';

/**
 * playlist_transfer.csv: what the transfer added, as stored when it finished (decision 0012). A transfer
 * that finished before snapshots existed is described from its match rows as they are now.
 */
export async function transferCsv(db: Database, transfer: TransferRecord): Promise<string> {
  return toCsv(TRANSFER_CSV_HEADER, await transferCsvRows(db, transfer));
}

/** The lines of a transfer's playlist_transfer.csv, under `TRANSFER_CSV_HEADER` (a batch's file joins them). */
export async function transferCsvRows(db: Database, transfer: TransferRecord): Promise<string[][]> {
  if (transfer.csvSnapshot) return transfer.csvSnapshot;
  const rows = transfer.matchSetId ? await listMatchRowsInOrder(db, transfer.matchSetId) : [];
  const verification =
    transfer.verifiedTracks === null
      ? null
      : { verified: transfer.verifiedTracks, missing: transfer.verificationMissing ?? [] };
  // Liked Songs saved as liked songs (no playlist) keep no snapshot: a library is not held whole (issue 25).
  const likedOnly = transfer.librarySave?.kind === 'liked' && transfer.librarySave.playlist === null;
  const place = `saved to ${savedTracksPlace(transfer.destinationService)}`;
  return transferCsvLines(
    rows,
    tracksToAdd(rows, transfer.includeUnmatched),
    verification,
    likedOnly ? () => place : undefined,
  );
}
