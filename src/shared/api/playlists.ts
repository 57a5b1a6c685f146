import { z } from 'zod';
import { text } from '../text';

/** A playlist as the pages show it (spec section 3): GET /api/playlists/:service answers a list of these. */
export const playlistKindSchema = z.enum(['liked', 'album', 'playlist']);
export type PlaylistKind = z.infer<typeof playlistKindSchema>;

export const playlistSummarySchema = z.object({
  id: text(),
  name: text(),
  imageUrl: text().optional(),
  trackCount: z.number().int().nonnegative(),
  /** The service did not say how long the playlist is (Apple without `meta.total`): `trackCount` is a lower bound. */
  trackCountUnknown: z.boolean().optional(),
  description: text().optional(),
  ownerName: text().optional(),
  /** False for followed playlists the person cannot read in Spotify's development mode. */
  isOwned: z.boolean().optional(),
  /** Set when this app cannot read the playlist's tracks, saying why and what to do instead. */
  unreadableReason: text().optional(),
  /**
   * Issue 14: what the entry is. `GET /api/playlists/{service}` sets it on every entry ("playlist" for
   * playlists and imports so far; "liked" for Liked Songs / favourites, "album" for saved albums).
   */
  kind: playlistKindSchema.optional(),
  /** When the playlist last changed (ISO 8601), where the service says (Apple); tells same names apart. */
  updatedAt: text().max(64).optional(),
});
export type PlaylistSummary = z.infer<typeof playlistSummarySchema>;
export const playlistListSchema = z.array(playlistSummarySchema);

/**
 * "12 tracks", or "201+ tracks" when the service did not say how long the playlist is: a lower bound is
 * never shown as the count.
 */
export function playlistTrackCountText(playlist: Pick<PlaylistSummary, 'trackCount' | 'trackCountUnknown'>) {
  const { trackCount } = playlist;
  if (playlist.trackCountUnknown) return `${trackCount}+ tracks`;
  return `${trackCount} ${trackCount === 1 ? 'track' : 'tracks'}`;
}

/** A track as the pages show it (spec section 3), with what matching needs. */
export const trackSchema = z.object({
  id: text(),
  name: text(),
  artists: z.array(text()),
  album: text(),
  imageUrl: text().optional(),
  durationMs: z.number().optional(),
  isrc: text().optional(),
  explicit: z.boolean().optional(),
  uri: text().optional(),
});
export type Track = z.infer<typeof trackSchema>;

const MAX_URL_LENGTH = 2048;
const urlField = (field: string, blankMessage: string) =>
  text({ error: `${field} is required` })
    .max(MAX_URL_LENGTH, `${field} is too long`)
    .trim()
    .min(1, blankMessage);

/** POST /api/fetch-playlist-tracks */
export const fetchPlaylistTracksRequestSchema = z.object({
  playlistUrl: urlField('playlistUrl', 'Please enter a playlist URL to analyze'),
});
export const fetchPlaylistTracksResponseSchema = z.object({
  playlist: playlistSummarySchema.extend({ service: z.enum(['spotify', 'apple']) }),
  tracks: z.array(trackSchema),
  /** Entries that are not tracks (local files, episodes, unavailable), with why. */
  skipped: z.array(z.object({ position: z.number(), name: text().optional(), reason: text() })),
});
export type FetchPlaylistTracksResponse = z.infer<typeof fetchPlaylistTracksResponseSchema>;

/** POST /api/fetch-friend-playlist (spec: id, name, owner, trackCount). */
export const fetchFriendPlaylistRequestSchema = z.object({
  shareUrl: urlField('shareUrl', 'Please enter a playlist share URL'),
});
export const friendPlaylistSchema = z.object({
  id: text(),
  name: text(),
  owner: text(),
  trackCount: z.number().int().nonnegative(),
  service: z.enum(['spotify', 'apple']),
});
export type FriendPlaylist = z.infer<typeof friendPlaylistSchema>;

/** POST /api/import/csv (the file as the raw body, its name in `?fileName=`): the imported playlist. */
export const csvImportResponseSchema = z.object({
  playlist: z.object({ id: text(), name: text(), trackCount: z.number().int().nonnegative() }),
  /** Rows left out, by line number. */
  warnings: z.array(z.object({ row: z.number().int(), message: text() })),
});
export type CsvImportResponse = z.infer<typeof csvImportResponseSchema>;
