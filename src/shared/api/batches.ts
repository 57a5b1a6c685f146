import { z } from 'zod';
import { serviceIdSchema } from '../services';
import { text } from '../text';
import { matchRowSchema, verificationMissingSchema } from './transfer';

/**
 * Batch (issue 14 item 2): several playlists moved as one, with one review for all of them. Each playlist
 * keeps its own match set, so its rows are fixed with the match endpoints (`PATCH
 * /api/match/:matchSetId/rows/:position`, `POST /api/match/:matchSetId/accept-review`).
 */
export const MAX_BATCH_PLAYLISTS = 50;

const missing = 'Missing required data for the batch';

export const batchRequestSchema = z
  .object({
    sourceService: z.enum(['spotify', 'apple'], { error: missing }),
    destinationService: z.enum(['spotify', 'apple'], { error: missing }),
    playlistIds: z
      .array(
        text({ error: 'Each playlist id must be text' }).trim().min(1, 'A playlist id is empty').max(200),
        {
          error: 'playlistIds must be a list of playlist ids',
        },
      )
      .min(1, 'Pick at least one playlist for the batch.')
      .max(MAX_BATCH_PLAYLISTS, `A batch holds at most ${MAX_BATCH_PLAYLISTS} playlists.`)
      .refine((ids) => new Set(ids).size === ids.length, 'Each playlist can be in a batch only once.'),
  })
  .refine((value) => value.sourceService !== value.destinationService, {
    message: 'Source and destination services must be different.',
  });
export type BatchRequest = z.infer<typeof batchRequestSchema>;

export const batchStatusSchema = z.enum(['matching', 'review', 'transferring', 'done', 'failed']);
export type BatchStatus = z.infer<typeof batchStatusSchema>;

export const batchPlaylistStatusSchema = z.enum([
  'waiting',
  'matching',
  'matched',
  'transferring',
  'done',
  'failed',
]);

/** Where one part of the batch stands: tracks done of total, with seconds left when there is a pace to tell. */
export const batchProgressSchema = z.object({
  done: z.number(),
  total: z.number(),
  phase: text(),
  etaSeconds: z.number().nullable(),
});
export type BatchProgress = z.infer<typeof batchProgressSchema>;

/** A track a playlist's transfer did not add, and the reason in the person's words (as step 4 says it). */
export const batchNotFoundSchema = z.object({
  position: z.number().int().nonnegative(),
  name: text(),
  artists: z.array(text()),
  reason: text(),
});
export type BatchNotFound = z.infer<typeof batchNotFoundSchema>;

export const batchPlaylistSchema = z.object({
  sourcePlaylistId: text(),
  name: text(),
  matchSetId: text(),
  transferId: text().nullable(),
  status: batchPlaylistStatusSchema,
  counts: z.object({
    /** Once matched: `total = matched + inReview + unmatched`. */
    total: z.number(),
    matched: z.number(),
    inReview: z.number(),
    /** Issue 23: rows with no match (none found, or skipped by the person or as not a song). */
    unmatched: z.number().default(0),
    added: z.number(),
    /** Tracks the read-back found in the destination; null until the transfer is verified. */
    verified: z.number().nullable(),
  }),
  progress: batchProgressSchema,
  destinationUrl: text().nullable(),
  /** Liked Songs and saved albums (issue 14): where they went, once moved ("Saved to your Apple Music library as an album"). */
  savedTo: text().nullable().default(null),
  verificationMissing: z.array(verificationMissingSchema),
  /** Once moved (issue 23): every track the transfer did not add, with why, in source order. */
  notFound: z.array(batchNotFoundSchema).default([]),
  error: text().nullable(),
});
export type BatchPlaylist = z.infer<typeof batchPlaylistSchema>;

export const batchViewSchema = z.object({
  batchId: text(),
  status: batchStatusSchema,
  sourceService: serviceIdSchema,
  destinationService: serviceIdSchema,
  jobId: text().nullable(),
  error: text().nullable(),
  progress: batchProgressSchema,
  playlists: z.array(batchPlaylistSchema),
  createdAt: text(),
});
export type BatchView = z.infer<typeof batchViewSchema>;

export const batchCreatedSchema = z.object({ batchId: text() });

/**
 * GET /api/batches/:batchId/review: the rows that need a person, across every playlist of the batch: those
 * in review and those with no match (issue 23), each fixed with its match set's endpoints.
 */
export const batchReviewSchema = z.object({
  batchId: text(),
  status: batchStatusSchema,
  rows: z.array(z.object({ matchSetId: text(), playlistName: text(), row: matchRowSchema })),
});
export type BatchReview = z.infer<typeof batchReviewSchema>;

/** GET /api/batches/:batchId/csv: one file for the whole batch, each moved playlist's rows with its name. */
export const BATCH_CSV_FILE_NAME = 'batch_transfer.csv';
