import { z } from 'zod';
import { serviceIdSchema } from '../services';
import { text } from '../text';
import { jobViewSchema } from './transfer';

/**
 * Every playlist's history (issue 21, decision 0030): GET /api/history/{service}/{playlistId},
 * POST …/restore, POST /api/syncs/{id}/runs/{runId}/undo, POST /api/transfers/{id}/undo,
 * GET /api/history/disappeared.
 */

/** Why a version exists: who changed the playlist (or read it first: the version it started from). */
export const historyCauseSchema = z.enum(['transfer', 'sync', 'restore', 'backup', 'outside']);
export type HistoryCause = z.infer<typeof historyCauseSchema>;

/** History is visible for this many days on every plan, in full with Vault+. */
export const HISTORY_FREE_DAYS = 7;
/** Versions per page of GET /api/history/{service}/{playlistId}. */
export const HISTORY_PAGE_SIZE = 50;
export const HISTORY_MAX_PAGE_SIZE = 200;

export const historyTrackSchema = z.object({
  id: text(),
  uri: text(),
  name: text(),
  artists: z.array(text()),
  album: text(),
});
export type HistoryTrack = z.infer<typeof historyTrackSchema>;

export const historyVersionSchema = z.object({
  id: text(),
  at: text(),
  cause: historyCauseSchema,
  trackCount: z.number().int().nonnegative(),
  added: z.array(historyTrackSchema),
  removed: z.array(historyTrackSchema),
  becameUnavailable: z.array(historyTrackSchema),
});
export type HistoryVersion = z.infer<typeof historyVersionSchema>;

export const historyQuerySchema = z.object({
  /** The `nextCursor` of the previous page: versions older than that one. */
  cursor: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(HISTORY_MAX_PAGE_SIZE).default(HISTORY_PAGE_SIZE),
});

export const historyPageSchema = z.object({
  service: serviceIdSchema,
  playlistId: text(),
  name: text(),
  /** Newest first. */
  versions: z.array(historyVersionSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.number().nullable(),
  /** Older versions exist that the plan does not show (history beyond 7 days is Vault+). */
  olderHidden: z.boolean(),
});
export type HistoryPage = z.infer<typeof historyPageSchema>;

export const restoreVersionRequestSchema = z.object({
  versionId: text({ error: 'Choose a version to restore' }).min(1, 'Choose a version to restore').max(100),
  dryRun: z.boolean().default(false),
});
export type RestoreVersionRequest = z.input<typeof restoreVersionRequestSchema>;

export const undoRequestSchema = z.object({ dryRun: z.boolean().default(false) }).default({ dryRun: false });

/** What a restore or an undo would do (its dry run) or set out to do. */
export const restorePlanSchema = z.object({
  service: serviceIdSchema,
  playlistId: text(),
  /** The playlist as it will be: its track count. */
  trackCount: z.number().int().nonnegative(),
  added: z.array(historyTrackSchema),
  removed: z.array(historyTrackSchema),
  /** Apple Music playlists cannot lose tracks or be reordered: the result goes into a new playlist. */
  newPlaylistName: text().nullable(),
  /** Why it goes into a new playlist (or null when in place). */
  why: text().nullable(),
});
export type RestorePlan = z.infer<typeof restorePlanSchema>;

/**
 * 200 with `plan` on a dry run; 202 with `jobId` (and the plan) otherwise. An undo of a two-way sync run
 * takes back both sides: `jobId` and `plan` are the side written in place (Spotify), `otherSides` the
 * rest (an Apple Music side, as a new playlist: its plan says so). Empty for a restore or a one-sided writer.
 */
export const restoreStartedSchema = z.object({
  dryRun: z.boolean(),
  jobId: text().nullable(),
  plan: restorePlanSchema,
  otherSides: z.array(z.object({ jobId: text().nullable(), plan: restorePlanSchema })).default([]),
});
export type RestoreStarted = z.infer<typeof restoreStartedSchema>;

/** The restore job's result (in GET /api/jobs/{id}): "verified N of N". */
export const restoreResultSchema = z.object({
  playlistId: text(),
  playlistUrl: text().nullable(),
  verified: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  versionId: text().nullable(),
});
export type RestoreResult = z.infer<typeof restoreResultSchema>;

/** GET /api/history/restores/{jobId}: the job's progress, and its result once it has one. */
export const restoreStatusSchema = z.object({ job: jobViewSchema, result: restoreResultSchema.nullable() });
export type RestoreStatus = z.infer<typeof restoreStatusSchema>;

export const disappearedSchema = z.object({
  items: z.array(
    z.object({
      service: serviceIdSchema,
      playlistId: text(),
      playlistName: text(),
      versionId: text(),
      at: text(),
      cause: historyCauseSchema,
      track: historyTrackSchema,
      /** removed (by whom: the cause) or unavailable (the service stopped offering it). */
      how: z.enum(['removed', 'unavailable']),
    }),
  ),
});
export type Disappeared = z.infer<typeof disappearedSchema>;
