import { asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { matchRows, type transfers } from '../db/schema';
import { toCsv } from '../exports/csv';
import { tracksToAdd } from './transfer-job';

/** The spec's export columns first, then what happened to each track. */
export const TRANSFER_CSV_HEADER = [
  'Track Name',
  'Artist',
  'Album',
  'Duration',
  'Destination Track',
  'Destination Artist',
  'Confidence',
  'Status',
  'Reason',
];

export const formatDuration = (ms: number) =>
  ms > 0 ? `${Math.floor(ms / 60_000)}:${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}` : '';

/** playlist_transfer.csv: every source entry in order, with its destination track or why there is none. */
export async function transferCsv(db: Database, transfer: typeof transfers.$inferSelect): Promise<string> {
  const rows = transfer.matchSetId
    ? await db
        .select()
        .from(matchRows)
        .where(eq(matchRows.matchSetId, transfer.matchSetId))
        .orderBy(asc(matchRows.position))
    : [];
  const added = new Map(
    tracksToAdd(rows, transfer.includeUnmatched).map((item) => [item.row.position, item.track]),
  );
  const lines = rows.map((row) => {
    const source = row.source;
    const destination = added.get(row.position);
    const status = destination
      ? 'transferred'
      : row.status === 'skipped'
        ? 'skipped'
        : row.status === 'review'
          ? 'not added (needs review)'
          : 'not found';
    const reason = destination
      ? row.decidedBy === 'person'
        ? 'Chosen by you'
        : (row.reasons[0] ?? '')
      : row.status === 'review'
        ? 'Waiting for your review: not added until you accept it'
        : (row.reasons[0] ?? 'No match on the destination');
    return [
      source.name,
      source.artists.join(', '),
      source.album,
      formatDuration(source.durationMs),
      destination?.name ?? '',
      destination?.artists.join(', ') ?? '',
      destination ? String(row.confidence) : '',
      status,
      reason,
    ];
  });
  return toCsv(TRANSFER_CSV_HEADER, lines);
}
