import { z } from 'zod';
import { text } from '../text';
import { type RowProblemDto, rowProblemSchema } from './errors';

/** Rebuilding a lost playlist (/recreate): POST /api/recreate and POST /api/recreate/from-link. */

export const MAX_RECREATE_NAME_LENGTH = 100;

export const RECREATE_MESSAGES = {
  nameRequired: 'Please enter a name for the playlist',
  listRequired: 'Paste at least one song, one per line, such as "Artist - Title".',
} as const;

export const recreateRequestSchema = z.object({
  name: text({ error: RECREATE_MESSAGES.nameRequired })
    .trim()
    .min(1, RECREATE_MESSAGES.nameRequired)
    .max(MAX_RECREATE_NAME_LENGTH, `The name must be at most ${MAX_RECREATE_NAME_LENGTH} characters`),
  text: text({ error: RECREATE_MESSAGES.listRequired }),
});
export type RecreateRequest = z.infer<typeof recreateRequestSchema>;

export const recreateFromLinkRequestSchema = z.object({
  playlistUrl: text({ error: 'playlistUrl is required' })
    .max(2048, 'playlistUrl is too long')
    .trim()
    .min(1, 'Please enter a playlist URL'),
});

export { type RowProblemDto, rowProblemSchema };

export const recreatedPlaylistSchema = z.object({
  /** `import:<uuid>`: a source the transfer wizard reads like any playlist. */
  id: text(),
  name: text(),
  trackCount: z.number().int().nonnegative(),
});

export const recreateResponseSchema = z.object({
  playlist: recreatedPlaylistSchema,
  /** Lines (or playlist entries) that could not become a song, with why. */
  problems: z.array(rowProblemSchema),
  /** The service the list came from, when it came from a share URL. */
  originService: z.enum(['spotify', 'apple']).nullable(),
});
export type RecreateResponse = z.infer<typeof recreateResponseSchema>;
