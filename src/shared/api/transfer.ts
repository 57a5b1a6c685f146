import { z } from 'zod';
import { serviceIdSchema } from '../services';
import { text } from '../text';
import { playlistKindSchema, trackSchema } from './playlists';

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

/**
 * The engine's reason for a row whose recording the destination lists only where the person cannot play
 * it (Apple's songs without `playParams`, Spotify's `is_playable: false`): it is there, so "not found"
 * would be wrong, but it cannot be added for them (decision 0051).
 */
export const NOT_PLAYABLE_HERE_REASON = 'listed, but not playable in your country';

/** Whether the engine left this row unmatched because the destination's copy is not playable for the person. */
export const notPlayableHere = (row: { reasons: readonly string[] }) =>
  row.reasons[0] === NOT_PLAYABLE_HERE_REASON;

/**
 * Why a row was not added, in words for the person; step 4 and playlist_transfer.csv say the same. A
 * row's `reasons` describe its best candidate ("same title"), so they never explain a missing match.
 */
export function notAddedReason(row: {
  status: MatchStatus;
  decidedBy: 'engine' | 'person' | 'ai';
  reasons: readonly string[];
  /** The best candidate's confidence, when there was one. */
  closestConfidence: number | null;
}): string {
  if (row.status === 'review') return 'Waiting for your review: not added until you accept it';
  if (row.status === 'skipped')
    return row.decidedBy === 'person' ? 'Skipped by you' : (row.reasons[0] ?? 'Not a transferable track');
  if (notPlayableHere(row)) return 'On the destination, but not playable in your country';
  return row.closestConfidence === null
    ? 'Not found on the destination'
    : `No confident match (the closest candidate scored ${Math.round(row.closestConfidence)}%)`;
}

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
  /** When the current phase began in this run, and `done` at that moment: the ETA's pace is measured from there. */
  phaseStartedAt: text().optional(),
  phaseStartDone: z.number().optional(),
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

/** A saved album's album-level match (issue 14), shown above its track rows in review. */
export const albumMatchViewSchema = z.object({
  sourceAlbum: z.object({ name: text(), artists: z.array(text()), trackCount: z.number() }),
  /** The destination album found for it; null when none was, and its tracks were matched one by one. */
  matchedAlbum: z
    .object({
      id: text(),
      name: text(),
      artists: z.array(text()),
      trackCount: z.number(),
      imageUrl: text().optional(),
      url: text().optional(),
    })
    .nullable(),
  method: z.enum(['upc', 'title_artist_count', 'title_artist_near_count']).nullable(),
  confidence: z.number(),
  /** "same UPC", "same title, artist and track count", or why there is no album match. */
  reason: text(),
});
export type AlbumMatchView = z.infer<typeof albumMatchViewSchema>;

/** Rows a page of the match view may hold (`?limit=`), and how many it holds when a page is asked without one. */
export const MATCH_PAGE_MAX = 500;
export const MATCH_PAGE_DEFAULT = 200;

/**
 * `GET /api/match/:matchSetId?cursor=&limit=&status=` (issue 25): a page of the view's rows. Without any of
 * them the answer is the whole view, as the spec's callers read it. `cursor` is the position the page
 * starts at (a page's `nextCursor`); `limit` 0 answers the set and its summary with no rows. The
 * summary and `filteredTotal` come with the first page (no `cursor`) and the whole view.
 */
export const matchPageQuerySchema = z.object({
  cursor: z.coerce
    .number({ error: 'cursor must be a row position' })
    .int('cursor must be a row position')
    .min(0, 'cursor must be a row position')
    .max(10_000_000, 'cursor must be a row position')
    .optional(),
  limit: z.coerce
    .number({ error: `limit must be a whole number from 0 to ${MATCH_PAGE_MAX}` })
    .int(`limit must be a whole number from 0 to ${MATCH_PAGE_MAX}`)
    .min(0, `limit must be a whole number from 0 to ${MATCH_PAGE_MAX}`)
    .max(MATCH_PAGE_MAX, `limit must be a whole number from 0 to ${MATCH_PAGE_MAX}`)
    .optional(),
  /**
   * Only the rows of this status (the review page's filters), or `not-added`: the rows a transfer of the set
   * leaves out (skipped, unmatched, review nobody accepted; with `includeUnmatched`, those with no candidate).
   */
  status: z
    .enum([...matchStatusSchema.options, 'not-added'], {
      error: 'status must be accepted, review, unmatched, skipped or not-added',
    })
    .optional(),
  includeUnmatched: z
    .enum(['true', 'false'], { error: 'includeUnmatched must be true or false' })
    .transform((value) => value === 'true')
    .optional(),
});
export type MatchPageQuery = z.infer<typeof matchPageQuerySchema>;
export type MatchRowFilter = MatchPageQuery['status'];

/** The whole set's counts, by SQL over all its rows (not the page): what the review page shows. */
export const matchSummarySchema = z.object({
  total: z.number().int().nonnegative(),
  accepted: z.number().int().nonnegative(),
  review: z.number().int().nonnegative(),
  unmatched: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  /** Mean confidence of all rows, rounded; 0 for none (the `ai_matching_used` event's figure). */
  averageConfidence: z.number(),
});
export type MatchSummary = z.infer<typeof matchSummarySchema>;

export const matchSetViewSchema = z.object({
  matchSetId: text(),
  /** What the source is: a playlist, Liked Songs / favourites, or a saved album (issue 14). */
  kind: playlistKindSchema.default('playlist'),
  albumMatch: albumMatchViewSchema.nullable().default(null),
  status: z.enum(['matching', 'ready', 'failed']),
  playlistName: text(),
  sourceService: serviceIdSchema,
  destinationService: serviceIdSchema,
  jobId: text().nullable(),
  results: z.array(matchRowSchema),
  error: text().nullable().optional(),
  /** Counts over the whole set (issue 25); a ready set's answers carry it. */
  summary: matchSummarySchema.optional(),
  /** A page's answer only: the `cursor` of the next page, null on the last. */
  nextCursor: z.number().int().nonnegative().nullable().optional(),
  /** A first page's answer only (no `cursor`): how many rows of the whole set its filter lets through. */
  filteredTotal: z.number().int().nonnegative().optional(),
});
export type MatchSetView = z.infer<typeof matchSetViewSchema>;

/** PATCH /api/match/:matchSetId/rows/:position — the person's fix for one row. */
/** The text of a manual search on the destination service (a match row, a rule being edited). */
export const searchQuerySchema = z
  .string()
  .trim()
  .min(1, 'Type something to search for')
  .max(200, 'That search is too long');

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
    /** Liked Songs (issue 14): besides saving them as liked / favourites, also put them in a new playlist. */
    alsoAddToPlaylist: z.boolean({ error: 'alsoAddToPlaylist must be true or false' }).default(false),
  })
  .refine(differentServicesUnlessImported, { message: 'Source and destination services must be different.' })
  .refine((value) => value.createPlaylist, { message: 'Create playlist option is required' });
export type TransferRequest = z.infer<typeof transferRequestSchema>;

export const verificationMissingSchema = z.object({
  position: z.number().int().nonnegative(),
  name: text(),
  artists: z.array(text()),
  reason: text(),
});
export type VerificationMissing = z.infer<typeof verificationMissingSchema>;

export const librarySaveSchema = z.object({
  kind: z.enum(['liked', 'album']),
  /** "Saved to your Liked Songs on Spotify", "Saved to your Apple Music library as an album", … */
  savedTo: text(),
  album: z.object({ id: text(), name: text(), artists: z.array(text()), url: text().optional() }).nullable(),
  savedTracks: z.number(),
  playlist: z.object({ id: text(), url: text(), name: text() }).nullable(),
});
export type LibrarySave = z.infer<typeof librarySaveSchema>;

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
  /**
   * Verify every write (issue 14): tracks found when the destination was read back after the adds
   * ("verified: N of addedTracks"); null until verified. Defaults keep results stored before it readable.
   */
  verifiedTracks: z.number().nullable().default(null),
  /** What the read-back still did not find after adding it once more, and why. */
  verificationMissing: z.array(verificationMissingSchema).default([]),
  status: z.enum(['queued', 'running', 'succeeded', 'failed']),
  error: text().nullable(),
  jobId: text().nullable(),
  /** What was moved: a playlist, Liked Songs / favourites, or a saved album (issue 14). */
  kind: playlistKindSchema.default('playlist'),
  /** Where a library collection went, once it has: null for playlists and before the transfer finishes. */
  librarySave: librarySaveSchema.nullable().default(null),
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
