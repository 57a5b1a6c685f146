import { z } from 'zod';
import { SOURCE_REGIONS, TARGET_REGIONS } from '../services';
import { text } from '../text';
import { trackSchema } from './playlists';

export const GEO_LOCK_MESSAGES = {
  missingUrl: 'Please enter a playlist URL to analyze',
  unknownSource: `Unknown source region: use one of ${SOURCE_REGIONS.join(', ')}.`,
  unknownTarget: `Unknown target region: use one of ${TARGET_REGIONS.join(', ')}.`,
  emptyPlaylist: 'This playlist has no tracks to analyze.',
} as const;

export const sourceRegionSchema = z.enum(SOURCE_REGIONS, { error: () => GEO_LOCK_MESSAGES.unknownSource });
export const targetRegionSchema = z.enum(TARGET_REGIONS, { error: () => GEO_LOCK_MESSAGES.unknownTarget });
export type SourceRegion = z.infer<typeof sourceRegionSchema>;
export type TargetRegion = z.infer<typeof targetRegionSchema>;

/** Most tracks one analysis checks (each needs availability and search calls). */
export const MAX_ANALYZED_TRACKS = 2000;

/**
 * Most tracks one POST /api/claude/geo-locked-alternatives checks: a longer playlist is sent in parts of
 * this size (the web app does), so no single request holds the server and the shared catalog quota long.
 */
export const GEO_TRACKS_PER_CALL = 200;

/** POST /api/claude/geo-locked-alternatives: the tracks /api/fetch-playlist-tracks answered. */
export const geoAlternativesRequestSchema = z.object({
  tracks: z
    .array(trackSchema)
    .max(
      GEO_TRACKS_PER_CALL,
      `At most ${GEO_TRACKS_PER_CALL} tracks can be checked in one request: send a longer playlist in parts.`,
    )
    .min(1, GEO_LOCK_MESSAGES.emptyPlaylist),
  sourceRegion: sourceRegionSchema,
  targetRegion: targetRegionSchema,
  /** Which service the tracks are from; read from the ids when missing (Apple ids are numeric). */
  service: z.enum(['spotify', 'apple']).optional(),
});
export type GeoAlternativesRequest = z.input<typeof geoAlternativesRequestSchema>;

export const regionTrackSchema = z.object({
  id: text(),
  name: text(),
  artists: z.array(text()),
  album: text(),
});
export type RegionTrack = z.infer<typeof regionTrackSchema>;

export const alternativeKindSchema = z.enum(['same_recording', 'same_song', 'other_version', 'none']);
export type AlternativeKindDto = z.infer<typeof alternativeKindSchema>;

export const geoAlternativeSchema = z.object({
  original: regionTrackSchema,
  alternative: regionTrackSchema.nullable(),
  confidence: z.number().int().min(0).max(100),
  kind: alternativeKindSchema,
  explanation: text(),
});
export type GeoAlternative = z.infer<typeof geoAlternativeSchema>;

export const geoAlternativesResponseSchema = z.object({
  alternatives: z.array(geoAlternativeSchema),
  /** Tracks whose availability was checked. */
  checked: z.number().int().nonnegative(),
  /** Of those, how many cannot be played in the target region. */
  unavailable: z.number().int().nonnegative(),
});
export type GeoAlternativesResponse = z.infer<typeof geoAlternativesResponseSchema>;

/** POST /api/create-region-optimized-playlist */
export const createRegionPlaylistRequestSchema = z.object({
  playlistUrl: text().trim().min(1, GEO_LOCK_MESSAGES.missingUrl).max(2048),
  targetRegion: targetRegionSchema,
  /** Original track ids whose alternative was chosen. */
  replacements: z.array(text().min(1).max(300)).max(MAX_ANALYZED_TRACKS).default([]),
});
export type CreateRegionPlaylistRequest = z.input<typeof createRegionPlaylistRequestSchema>;
export const createRegionPlaylistResponseSchema = z.object({
  playlistId: text(),
  url: text(),
  replaced: z.number().int().nonnegative(),
});
export type CreateRegionPlaylistResponse = z.infer<typeof createRegionPlaylistResponseSchema>;
