import { z } from 'zod';
import { serviceIdSchema } from '../services';
import { text } from '../text';
import { trackSchema } from './playlists';

/**
 * Matching and transfer API (spec sections 3, 5, 7). Match rows are the spec's match results (source and
 * destination track, confidence, matched flag) plus what review needs: an id, the status band, the
 * reasons, and the other candidates.
 */

/** Spec section 9 and the matching engine: accepted at 90+, review 70-89, unmatched below. */
export const ACCEPT_CONFIDENCE = 90;
export const REVIEW_CONFIDENCE = 70;

export const matchStatusSchema = z.enum(['accepted', 'review', 'unmatched', 'skipped']);
export type MatchStatus = z.infer<typeof matchStatusSchema>;

export const candidateSchema = z.object({
  track: trackSchema,
  confidence: z.number(),
  reasons: z.array(text()),
  versionLabels: z.array(text()),
  sameVersion: z.boolean(),
});
export type Candidate = z.infer<typeof candidateSchema>;

export const matchRowSchema = z.object({
  /** Stable row id: `<matchSetId>:<position>`. */
  id: text(),
  position: z.number().int().nonnegative(),
  sourceTrack: trackSchema,
  destinationTrack: trackSchema.nullable(),
  confidence: z.number(),
  isMatched: z.boolean(),
  status: matchStatusSchema,
  reasons: z.array(text()),
  candidates: z.array(candidateSchema),
  decidedBy: z.enum(['engine', 'person', 'ai']),
});
export type MatchRow = z.infer<typeof matchRowSchema>;

/** Prefix of playlists brought in as files or backups: they can go to either service, even "back" to their own. */
export const IMPORTED_PLAYLIST_PREFIX = 'import:';

/**
 * Why a followed playlist cannot be a transfer's source under Spotify's development mode, and the way out.
 * Shown on step 2 before anyone picks it, and as the failed match's reason (with the CSV import button).
 */
export const FOLLOWED_PLAYLIST_MESSAGE =
  'This playlist belongs to someone else; Spotify lets this app read only your own playlists. Import it as a CSV (Exportify) instead.';
/** Step 3 for a playlist with nothing in it: there is nothing to match, and nothing failed. */
export const EMPTY_PLAYLIST_MESSAGE =
  'This playlist has no tracks, so there is nothing to match. Add songs to it first, or pick another playlist.';

const differentServicesUnlessImported = (value: {
  sourceService: string;
  destinationService: string;
  playlistId: string;
}) =>
  value.sourceService !== value.destinationService || value.playlistId.startsWith(IMPORTED_PLAYLIST_PREFIX);

const missingForMatching = 'Missing required data for matching';
const missingForTransfer = 'Missing required data for transfer';

export const matchRequestSchema = z
  .object({
    sourceService: z.enum(['spotify', 'apple'], { error: missingForMatching }),
    destinationService: z.enum(['spotify', 'apple'], { error: missingForMatching }),
    playlistId: text({ error: missingForMatching }).trim().min(1, missingForMatching).max(200),
  })
  .refine(differentServicesUnlessImported, { message: 'Source and destination services must be different.' });
export type MatchRequest = z.infer<typeof matchRequestSchema>;

export const jobStatusSchema = z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']);

export const jobProgressSchema = z.object({
  done: z.number(),
  total: z.number(),
  phase: text(),
  message: text().optional(),
  waitingUntil: text().optional(),
});
export type JobProgress = z.infer<typeof jobProgressSchema>;

export const jobViewSchema = z.object({
  id: text(),
  kind: text(),
  status: jobStatusSchema,
  progress: jobProgressSchema.nullable(),
  error: text().nullable(),
  /** Seconds left, estimated from the progress so far (null until there is enough to tell). */
  etaSeconds: z.number().nullable(),
  createdAt: text(),
  finishedAt: text().nullable(),
});
export type JobView = z.infer<typeof jobViewSchema>;

export const matchSetViewSchema = z.object({
  matchSetId: text(),
  status: z.enum(['matching', 'ready', 'failed']),
  playlistName: text(),
  sourceService: serviceIdSchema,
  destinationService: serviceIdSchema,
  jobId: text().nullable(),
  results: z.array(matchRowSchema),
  error: text().nullable().optional(),
});
export type MatchSetView = z.infer<typeof matchSetViewSchema>;

/** PATCH /api/match/:matchSetId/rows/:position — the person's fix for one row. */
export const matchChoiceSchema = z.union([
  z.object({ action: z.literal('choose'), trackId: text().min(1).max(200) }),
  z.object({ action: z.literal('manual'), track: trackSchema.extend({ uri: text().min(1).max(300) }) }),
  z.object({ action: z.literal('skip') }),
  z.object({ action: z.literal('reset') }),
]);
export type MatchChoice = z.infer<typeof matchChoiceSchema>;

export const transferRequestSchema = z
  .object({
    sourceService: z.enum(['spotify', 'apple'], { error: missingForTransfer }),
    destinationService: z.enum(['spotify', 'apple'], { error: missingForTransfer }),
    playlistId: text({ error: missingForTransfer }).trim().min(1, missingForTransfer).max(200),
    includeUnmatched: z.boolean({ error: 'includeUnmatched must be true or false' }).default(false),
    /** The reviewed match set; the newest ready one for the playlist when left out. */
    matchSetId: z.uuid({ error: 'matchSetId must be a match set id' }).optional(),
    /** The spec's "Create playlist in destination" option, which must be on. */
    createPlaylist: z.boolean().default(true),
  })
  .refine(differentServicesUnlessImported, { message: 'Source and destination services must be different.' })
  .refine((value) => value.createPlaylist, { message: 'Create playlist option is required' });
export type TransferRequest = z.infer<typeof transferRequestSchema>;

/** Spec section 3 transfer result, plus the transfer's id and what happened to every track. */
export const transferResultSchema = z.object({
  transferId: text(),
  playlistId: text(),
  name: text(),
  totalTracks: z.number(),
  matchedTracks: z.number(),
  unmatchedTracks: z.number(),
  addedTracks: z.number(),
  destinationUrl: text(),
  overallConfidence: z.number(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed']),
  error: text().nullable(),
  jobId: text().nullable(),
  sourceService: serviceIdSchema,
  destinationService: serviceIdSchema,
  createdAt: text(),
  completedAt: text().nullable(),
});
export type TransferResult = z.infer<typeof transferResultSchema>;

export const CSV_FILE_NAME = 'playlist_transfer.csv';

/** Spec section 9 quality labels of the overall confidence. */
export function qualityLabel(confidence: number): 'Excellent' | 'Good' | 'Fair' | 'Poor' | 'Very Poor' {
  if (confidence >= 90) return 'Excellent';
  if (confidence >= 70) return 'Good';
  if (confidence >= 50) return 'Fair';
  if (confidence >= 30) return 'Poor';
  return 'Very Poor';
}
