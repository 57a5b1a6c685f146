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

export const batchPlaylistSchema = z.object({
  sourcePlaylistId: text(),
  name: text(),
  matchSetId: text(),
  transferId: text().nullable(),
  status: batchPlaylistStatusSchema,
  counts: z.object({
    total: z.number(),
    matched: z.number(),
    inReview: z.number(),
    added: z.number(),
    /** Tracks the read-back found in the destination; null until the transfer is verified. */
    verified: z.number().nullable(),
  }),
  progress: batchProgressSchema,
  destinationUrl: text().nullable(),
  /** Liked Songs and saved albums (issue 14): where they went, once moved ("Saved to your Apple Music library as an album"). */
  savedTo: text().nullable().default(null),
  verificationMissing: z.array(verificationMissingSchema),
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

/** GET /api/batches/:batchId/review: the rows that need a person, across every playlist of the batch. */
export const batchReviewSchema = z.object({
  batchId: text(),
  status: batchStatusSchema,
  rows: z.array(z.object({ matchSetId: text(), playlistName: text(), row: matchRowSchema })),
});
export type BatchReview = z.infer<typeof batchReviewSchema>;
