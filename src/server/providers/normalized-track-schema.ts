import { z } from 'zod';
import type { NormalizedTrack } from './types';

/**
 * A `NormalizedTrack` as our own code stored it (a job's checkpoint): parsed back before it is used, so
 * a checkpoint written by another version fails clearly instead of reaching a provider half-formed.
 */
export const normalizedTrackSchema = z.object({
  id: z.string(),
  uri: z.string(),
  name: z.string(),
  artists: z.array(z.string()),
  album: z.string(),
  durationMs: z.number(),
  isrc: z.string().exactOptional(),
  explicit: z.boolean().exactOptional(),
  imageUrl: z.string().exactOptional(),
  releaseDate: z.string().exactOptional(),
  genres: z.array(z.string()).exactOptional(),
  albumType: z.enum(['album', 'single', 'compilation']).exactOptional(),
  trackNumber: z.number().exactOptional(),
  url: z.string().exactOptional(),
  availability: z
    .object({ playable: z.boolean().exactOptional(), regions: z.array(z.string()).exactOptional() })
    .exactOptional(),
}) satisfies z.ZodType<NormalizedTrack>;
