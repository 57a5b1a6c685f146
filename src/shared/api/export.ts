import { z } from 'zod';
import { serviceIdSchema } from '../services';
import { text } from '../text';

/**
 * Playlist export (spec sections 2, 3, 5 and 8), shared by the server and the web app. Files are built on
 * the server so the Vault+ rules (ZIP, cloud save) are enforced where they cannot be skipped.
 */

export const EXPORT_FORMATS = ['csv', 'json', 'zip'] as const;
export const exportFormatSchema = z.enum(EXPORT_FORMATS, {
  error: () => 'Unknown export format: use "csv", "json" or "zip".',
});
export type ExportFormat = z.infer<typeof exportFormatSchema>;

/** Spec section 3: the CSV's columns, in order. Include Metadata appends `CSV_METADATA_COLUMNS`. */
export const CSV_COLUMNS = ['Track Name', 'Artist', 'Album', 'Duration'] as const;
export const CSV_METADATA_COLUMNS = ['ISRC', 'Release Date', 'Genres', 'Artwork URL'] as const;

export const NO_DATA_MESSAGE = 'No data to export';
export const EXPORT_FAILED_TITLE = 'Export Failed';
export const EXPORT_FAILED_MESSAGE = 'There was a problem exporting your playlist';
export const EXPORT_COMPLETE_TITLE = 'Export Complete';

const flag = z.boolean({ error: 'Export options must be true or false' }).default(false);

export const exportPlaylistRequestSchema = z.object({
  service: serviceIdSchema,
  playlistId: text({ error: 'playlistId is required' })
    .trim()
    .min(1, 'Please choose a playlist to export')
    .max(200, 'playlistId is too long'),
  format: exportFormatSchema,
  includeMetadata: flag,
  includeLinks: flag,
  includeArtwork: flag,
});
export type ExportPlaylistRequest = z.input<typeof exportPlaylistRequestSchema>;

export const CLOUD_TARGETS = ['crossfade', 'google-drive', 'dropbox'] as const;
export const cloudTargetSchema = z.enum(CLOUD_TARGETS, {
  error: () => 'Unknown cloud target: use "crossfade", "google-drive" or "dropbox".',
});
export type CloudTarget = z.infer<typeof cloudTargetSchema>;
export const CLOUD_TARGET_LABELS: Record<CloudTarget, string> = {
  crossfade: 'Crossfade storage',
  'google-drive': 'Google Drive',
  dropbox: 'Dropbox',
};

export const cloudExportRequestSchema = exportPlaylistRequestSchema.extend({ target: cloudTargetSchema });
export type CloudExportRequest = z.input<typeof cloudExportRequestSchema>;

/** The cloud targets that are someone else's drive, reached with the person's own OAuth connection. */
export const CLOUD_DRIVES = ['google-drive', 'dropbox'] as const;
export const cloudDriveSchema = z.enum(CLOUD_DRIVES, {
  error: () => 'Unknown cloud drive: use "google-drive" or "dropbox".',
});
export type CloudDrive = z.infer<typeof cloudDriveSchema>;
export const isCloudDrive = (target: CloudTarget): target is CloudDrive =>
  (CLOUD_DRIVES as readonly string[]).includes(target);

/** GET /api/cloud-drives: each drive, whether this person connected it, and as whom. */
export const cloudDriveStatusSchema = z.object({
  drive: cloudDriveSchema,
  connected: z.boolean(),
  /** The drive account's name and address, as the service gave them. */
  accountName: text().optional(),
  /** True when this server talks to the built-in emulator of the drive rather than the real service. */
  sandbox: z.boolean(),
  /** Where the person sees their files (the drive's own web page). */
  webUrl: text(),
});
export type CloudDriveStatus = z.infer<typeof cloudDriveStatusSchema>;
export const cloudDriveStatusListSchema = z.array(cloudDriveStatusSchema);

/** GET /api/cloud-drives/{drive}/connect?returnTo=… → where to send the browser. */
export const cloudDriveConnectResponseSchema = z.object({ authUrl: text() });

/** GET /api/cloud-drives/{drive}/files: the files Crossfade saved there, newest first. */
export const cloudDriveFileSchema = z.object({
  id: text(),
  name: text(),
  sizeBytes: z.number().int().nonnegative(),
  createdAt: text(),
  webUrl: text().optional(),
});
export type CloudDriveFile = z.infer<typeof cloudDriveFileSchema>;
export const cloudDriveFileListSchema = z.array(cloudDriveFileSchema);

export const savedExportSchema = z.object({
  id: text(),
  format: exportFormatSchema,
  fileName: text(),
  sizeBytes: z.number().int().nonnegative(),
  playlistName: text(),
  createdAt: text(),
});
export type SavedExport = z.infer<typeof savedExportSchema>;
export const savedExportListSchema = z.array(savedExportSchema);

/** POST /api/export/cloud: the saved file, wherever it went. */
export const cloudSaveSchema = savedExportSchema.extend({
  target: cloudTargetSchema,
  /** Where the file is, in the target's words ("Crossfade storage", "My Drive › Crossfade", "/Apps/…"). */
  location: text(),
  /** The file's page on the drive, when the drive has one. */
  webUrl: text().optional(),
});
export type CloudSave = z.infer<typeof cloudSaveSchema>;

/** The JSON export's shape (spec section 3). */
export interface ExportedTrack {
  name: string;
  artists: string[];
  album: string;
  id: string;
  /** With Include Links: the service's own track URI (`spotify:track:…`, or the Apple catalog id). */
  uri?: string;
  /** With Include Metadata: the cover image URL the service returned. */
  artwork?: string;
}

export interface PlaylistExportJson {
  playlist: { name: string; id: string; trackCount: number; description: string };
  tracks: ExportedTrack[];
  exportedAt: string;
  includesMetadata: boolean;
}
