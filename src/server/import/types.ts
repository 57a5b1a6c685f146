import type { RowProblem } from '../domain-errors';
import type { NormalizedTrack } from '../providers/types';

/** A problem with one row; `row` is 1-based and counts the header as row 1, as a spreadsheet shows it. */
export type { RowProblem } from '../domain-errors';

/**
 * One track read from a file, shaped like a `NormalizedTrack` so matching can take it as a source track.
 * `id`/`uri` are the Spotify track id and `spotify:track:…` when the file names one (`sourceService`
 * is then 'spotify'); otherwise both are `csv-<row>`. `durationMs` is 0 when the file gives no duration.
 */
export interface ImportedTrack extends NormalizedTrack {
  /** The row it came from, for messages. */
  row: number;
  sourceService?: 'spotify';
  /** Exportify's "Added At" (ISO 8601), when present. */
  addedAt?: string;
}

export type ImportFailure = { ok: false; message: string; problems: RowProblem[] };
