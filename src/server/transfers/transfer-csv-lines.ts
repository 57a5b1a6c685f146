import { notAddedReason } from '../../shared/api/transfer';
import type { VerificationMissing } from '../db/stored-json';
import type { NormalizedTrack } from '../providers/types';
import type { MatchRowRecord } from './match-rows';

/** The spec's export columns first, then what happened to each track and whether the read-back found it. */
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
  'Verified',
];

export const formatDuration = (ms: number) =>
  ms > 0 ? `${Math.floor(ms / 60_000)}:${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}` : '';

/**
 * The lines of playlist_transfer.csv: every source entry in order, with the destination track the transfer
 * added (`selected`, what `tracksToAdd` chose) or why there is none. The transfer job stores them when it
 * finishes, so the file describes what was added, whatever happens to the rows later.
 */
export function transferCsvLines(
  rows: readonly MatchRowRecord[],
  selected: readonly { row: MatchRowRecord; track: Pick<NormalizedTrack, 'name' | 'artists'> }[],
  /** What the read-back after the adds found (verify every write); null for transfers from before it. */
  verification: { missing: readonly VerificationMissing[] } | null,
  /** Library collections (issue 14): where a transferred row went ("saved to your Liked Songs on Spotify"). */
  placeOf?: (position: number) => string | undefined,
): string[][] {
  const added = new Map(selected.map((item) => [item.row.position, item.track]));
  const missing = new Map((verification?.missing ?? []).map((item) => [item.position, item.reason]));
  const verifiedCell = (position: number) => {
    if (verification === null) return '';
    const reason = missing.get(position);
    return reason === undefined ? 'verified' : `missing: ${reason}`;
  };
  return rows.map((row) => {
    const source = row.source;
    const destination = added.get(row.position);
    const status = destination
      ? (placeOf?.(row.position) ?? 'transferred')
      : row.status === 'skipped'
        ? 'skipped'
        : row.status === 'review'
          ? 'not added (needs review)'
          : 'not found';
    const reason = destination
      ? row.decidedBy === 'person'
        ? 'Chosen by you'
        : (row.reasons[0] ?? '')
      : notAddedReason({ ...row, closestConfidence: row.candidates[0]?.confidence ?? null });
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
      destination ? verifiedCell(row.position) : '',
    ];
  });
}
