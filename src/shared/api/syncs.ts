import { z } from 'zod';
import { serviceIdSchema } from '../services';
import { text } from '../text';
import { verificationMissingSchema } from './transfer';

/**
 * Sync (issue 14, item 4): a pair of playlists kept in sync. Each run adds what is new in the source
 * (matched as in a transfer, with the person's rules), never a recording already there, and handles
 * removals honestly (listed on Apple Music, applied on Spotify only when `removals` is on). Pro.
 */

export const SYNC_SCHEDULES = ['manual', 'hourly', 'daily', 'weekly'] as const;
export const syncScheduleSchema = z.enum(SYNC_SCHEDULES);
export type SyncSchedule = z.infer<typeof syncScheduleSchema>;

/** Why a Free account cannot sync (the API's 402, and a run queued before a downgrade). */
export const SYNC_PLAN_MESSAGE = 'Sync is a Pro feature. Upgrade to Pro or Vault+ to use it: see /pricing.';

/** A run that would remove more than this share of the destination stops for the person's confirmation. */
export const SYNC_REMOVAL_CONFIRM_SHARE = 0.1;

export const SYNC_DIRECTIONS = ['one-way', 'two-way'] as const;
export const syncDirectionSchema = z.enum(SYNC_DIRECTIONS);
export type SyncDirection = z.infer<typeof syncDirectionSchema>;

/** The one conflict rule of a two-way sync (decision 0024), stated on the page. */
export const TWO_WAY_CONFLICT_RULE =
  'When a song is removed on one side and added (again) on the other, the add wins: the song stays on both sides, and the run lists it.';

/** A side whose read returns less than this share of what the last run saw stops the run for the person. */
export const SYNC_COLLAPSED_READ_SHARE = 0.5;

const playlistId = () => text().trim().min(1, 'Choose a playlist.').max(200, 'That playlist id is too long.');

export const createSyncRequestSchema = z
  .object({
    sourceService: serviceIdSchema,
    sourcePlaylistId: playlistId(),
    destinationService: serviceIdSchema,
    /** Absent: the first real run creates the destination playlist. */
    destinationPlaylistId: playlistId().optional(),
    schedule: syncScheduleSchema,
    removals: z.boolean(),
    /** One way (default) or both ways (Pro; decision 0024). */
    direction: syncDirectionSchema.default('one-way'),
  })
  .strict()
  .refine(
    (input) =>
      !(
        input.sourceService === input.destinationService &&
        input.sourcePlaylistId === input.destinationPlaylistId
      ),
    { message: 'A playlist cannot be kept in sync with itself.', path: ['destinationPlaylistId'] },
  );
export type CreateSyncRequest = z.infer<typeof createSyncRequestSchema>;

export const runSyncRequestSchema = z.object({ dryRun: z.boolean().optional() }).strict();
export type RunSyncRequest = z.infer<typeof runSyncRequestSchema>;

export const syncRunStatusSchema = z.enum(['queued', 'running', 'needs_confirmation', 'succeeded', 'failed']);
export type SyncRunStatus = z.infer<typeof syncRunStatusSchema>;

/** One song named in a run's history. */
export const syncTrackSchema = z.object({
  name: text(),
  artists: z.array(text()),
  /** Why it was listed (not matched, a removal that cannot be applied…), when there is a reason. */
  reason: text().nullable().default(null),
});
export type SyncTrack = z.infer<typeof syncTrackSchema>;

export const syncRunSchema = z.object({
  id: text(),
  syncId: text(),
  dryRun: z.boolean(),
  trigger: z.enum(['manual', 'scheduled', 'first']),
  status: syncRunStatusSchema,
  /** Two-way: this run rebuilds the Apple Music playlist as a new one holding the merged state. */
  rebuild: z.boolean().default(false),
  /** Added to the destination (a preview: what would be added), in source order. */
  added: z.array(syncTrackSchema),
  /** Removed from the destination (a preview, or a run waiting for confirmation: what would be removed). */
  removed: z.array(syncTrackSchema),
  /** Gone from the source but left in the destination, with why (Apple Music is append-only; removals off). */
  listedRemovals: z.array(syncTrackSchema),
  /** New in the source but not added: no confident match, or the person's rule says skip. */
  notAdded: z.array(syncTrackSchema),
  /** Tracks already in the destination (by recording) that the source also holds. */
  unchanged: z.number().int().nonnegative(),
  /** Of `added`, how many the read-back found; null for previews and runs that added nothing yet. */
  verifiedTracks: z.number().int().nullable(),
  verificationMissing: z.array(verificationMissingSchema),
  /** Two-way: added to the source side from the destination (a preview: what would be added). */
  addedToSource: z.array(syncTrackSchema).default([]),
  /** Two-way: removed from the source side because the destination removed them. */
  removedFromSource: z.array(syncTrackSchema).default([]),
  /** Two-way: removed on one side and added (again) on the other: kept on both, the add wins. */
  conflicts: z.array(syncTrackSchema).default([]),
  error: text().nullable(),
  jobId: text().nullable(),
  createdAt: text(),
  completedAt: text().nullable(),
});
export type SyncRun = z.infer<typeof syncRunSchema>;

export const syncSchema = z.object({
  id: text(),
  sourceService: serviceIdSchema,
  sourcePlaylistId: text(),
  sourcePlaylistName: text().nullable(),
  destinationService: serviceIdSchema,
  destinationPlaylistId: text().nullable(),
  destinationUrl: text().nullable(),
  schedule: syncScheduleSchema,
  removals: z.boolean(),
  direction: syncDirectionSchema,
  paused: z.boolean(),
  nextRunAt: text().nullable(),
  lastRun: syncRunSchema.nullable(),
  createdAt: text(),
});
export type Sync = z.infer<typeof syncSchema>;

export const syncListSchema = z.object({ syncs: z.array(syncSchema) });
export type SyncList = z.infer<typeof syncListSchema>;

export const syncRunListSchema = z.object({ runs: z.array(syncRunSchema) });
export type SyncRunList = z.infer<typeof syncRunListSchema>;

/** POST /api/syncs: the new sync and its first run (always a preview). */
export const createSyncResponseSchema = z.object({ sync: syncSchema, run: syncRunSchema });
export type CreateSyncResponse = z.infer<typeof createSyncResponseSchema>;
