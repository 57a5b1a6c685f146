import { z } from 'zod';
import { serviceIdSchema } from '../services';
import { text } from '../text';
import { trackSchema } from './playlists';

/** How many backups per service a person keeps; older ones are removed when a new one is saved. */
export const BACKUPS_KEPT_PER_SERVICE = 30;

/** Vault+ backups: GET/POST /api/vault/backups, GET /api/vault/backups/:id, POST …/:id/restore. */
export const backupTriggerSchema = z.enum(['scheduled', 'manual']);

export const backupSummarySchema = z.object({
  id: text(),
  service: serviceIdSchema,
  createdAt: text(),
  trigger: backupTriggerSchema,
  playlistCount: z.number(),
  trackCount: z.number(),
});
export type BackupSummary = z.infer<typeof backupSummarySchema>;

export const backupPlaylistSchema = z.object({
  id: text(),
  name: text(),
  description: text().nullable(),
  tracks: z.array(trackSchema),
  /** Entries the service could not describe as tracks (local files, episodes, unavailable). */
  skippedEntries: z.number(),
});
export type BackupPlaylist = z.infer<typeof backupPlaylistSchema>;

export const backupDetailSchema = backupSummarySchema.extend({
  playlists: z.array(backupPlaylistSchema),
  /** Playlists the service would not let Crossfade read (followed playlists in Spotify's development mode). */
  unreadable: z.array(z.object({ id: text(), name: text(), reason: text() })),
});
export type BackupDetail = z.infer<typeof backupDetailSchema>;

export const backupStartedSchema = z.object({ jobId: text() });

export const restoreRequestSchema = z.object({
  playlistId: text({ error: 'Choose a playlist to restore' }).min(1, 'Choose a playlist to restore').max(200),
  destinationService: serviceIdSchema,
});
export type RestoreRequest = z.infer<typeof restoreRequestSchema>;

/** The restored playlist, ready for the transfer wizard (`openInWizard`). */
export const restoreResponseSchema = z.object({
  playlist: z.object({ id: text(), name: text(), trackCount: z.number() }),
  sourceService: serviceIdSchema,
  destinationService: serviceIdSchema,
});
export type RestoreResponse = z.infer<typeof restoreResponseSchema>;
