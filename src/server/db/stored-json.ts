import type { NormalizedTrack } from '../providers/types';

/**
 * Shapes of the `jsonb` columns the server writes and reads back as they are (the schema types those
 * columns with them, so no reader casts). Columns that may hold rows of older versions are parsed with
 * zod where they are read instead (backup contents, merge sources).
 */

/** A candidate of a match row as stored: the destination track and why it was scored so. */
export interface StoredCandidate {
  track: NormalizedTrack;
  confidence: number;
  reasons: string[];
  versionLabels: string[];
  sameVersion: boolean;
}

/** A background job's progress as the person sees it. */
export interface JobProgress {
  done: number;
  total: number;
  phase: string;
  message?: string;
  /** ISO time until which the job waits for a service's rate limit. */
  waitingUntil?: string;
}
