import type { Database } from '../db/client';
import { csvLine } from '../export/csv';
import { keysetPages } from '../export/streamed-download';
import { savedTracksPlace } from './library-collections';
import { tracksToAdd } from './match-rows';
import { listMatchRowsInOrder, listMatchRowsPage } from './match-set-store';
import { TRANSFER_CSV_HEADER, transferCsvLines } from './transfer-csv-lines';
import { listCsvSnapshotPage, type TransferForCsv, type TransferRecord } from './transfer-store';

/** Lines of playlist_transfer.csv read per query when it is downloaded: what the server holds of it. */
export const CSV_PAGE_ROWS = 500;

/** A byte-order mark makes spreadsheet programs read the file as UTF-8. */
const BYTE_ORDER_MARK = '\uFEFF';

/**
 * playlist_transfer.csv as it is downloaded, in pieces (decision 0042): the byte-order mark and the header,
 * then a page of lines at a time. What the transfer added, as stored when it finished (decision 0012); a
 * transfer that keeps no snapshot (Liked Songs saved as liked songs, or one from before snapshots) is
 * described from its match rows as they are now, read a page at a time by position.
 */
export async function* transferCsvPieces(db: Database, transfer: TransferForCsv): AsyncGenerator<string> {
  yield `${BYTE_ORDER_MARK}${csvLine(TRANSFER_CSV_HEADER)}`;
  for await (const lines of transferCsvLinePages(db, transfer)) yield lines.map(csvLine).join('');
}

/**
 * The batch's CSV (`batch_transfer.csv`) as it is downloaded: the header with a Playlist column first, then
 * each moved playlist's lines, a page at a time, each line led by the playlist's name.
 */
export async function* batchCsvPieces(
  db: Database,
  moved: readonly TransferForCsv[],
): AsyncGenerator<string> {
  yield `${BYTE_ORDER_MARK}${csvLine(['Playlist', ...TRANSFER_CSV_HEADER])}`;
  for (const transfer of moved) {
    for await (const lines of transferCsvLinePages(db, transfer)) {
      yield lines.map((line) => csvLine([transfer.name, ...line])).join('');
    }
  }
}

/** A transfer's lines under `TRANSFER_CSV_HEADER`, a page at a time: its snapshot, or its rows as they are. */
function transferCsvLinePages(db: Database, transfer: TransferForCsv): AsyncIterable<string[][]> {
  if (transfer.hasCsvSnapshot) return snapshotPages(db, transfer.id);
  if (transfer.matchSetId) return rowLinePages(db, transfer, transfer.matchSetId);
  return keysetPages(async () => ({ rows: [], next: null }));
}

function snapshotPages(db: Database, transferId: string) {
  return keysetPages(async (after: number | undefined) => {
    const page = await listCsvSnapshotPage(db, transferId, after ?? 0, CSV_PAGE_ROWS);
    const last = page.at(-1);
    return {
      rows: page.map((line) => line.cells),
      next: page.length < CSV_PAGE_ROWS || !last ? null : last.line,
    };
  });
}

async function* rowLinePages(db: Database, transfer: TransferForCsv, matchSetId: string) {
  const rows = keysetPages(async (after: number | undefined) => {
    const page = await listMatchRowsPage(db, matchSetId, after ?? -1, CSV_PAGE_ROWS);
    const last = page.at(-1);
    return { rows: page, next: page.length < CSV_PAGE_ROWS || !last ? null : last.position };
  });
  for await (const page of rows) yield liveLines(transfer, page);
}

/** The lines of rows as they are now (no snapshot), for the rows given. */
function liveLines(
  transfer: Omit<TransferRecord, 'csvSnapshot'>,
  rows: Parameters<typeof tracksToAdd>[0],
): string[][] {
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

/**
 * Every line at once, under `TRANSFER_CSV_HEADER`: how the file was built before it was streamed, kept as
 * the reference the streamed downloads are compared with byte for byte (transfer-csv-download tests).
 */
export async function transferCsvRows(db: Database, transfer: TransferRecord): Promise<string[][]> {
  if (transfer.csvSnapshot) return transfer.csvSnapshot;
  return liveLines(transfer, transfer.matchSetId ? await listMatchRowsInOrder(db, transfer.matchSetId) : []);
}
