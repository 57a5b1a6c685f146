import { z } from 'zod';

/**
 * Spotify's answers as far as Crossfade reads them: strict on those fields, and lenient on everything else
 * (unknown keys are dropped), so a new field on Spotify's side never breaks a transfer.
 */

const imageSchema = z.object({ url: z.string() });

export const simplifiedArtistSchema = z.object({ name: z.string() });

export const albumSchema = z.object({
  name: z.string(),
  album_type: z.string().nullish(),
  images: z.array(imageSchema).nullish(),
  release_date: z.string().nullish(),
});

export const trackSchema = z.object({
  type: z.literal('track'),
  id: z.string().nullable(),
  uri: z.string(),
  name: z.string(),
  artists: z.array(simplifiedArtistSchema),
  album: albumSchema,
  duration_ms: z.number().int().nonnegative(),
  explicit: z.boolean().optional(),
  is_local: z.boolean().optional(),
  is_playable: z.boolean().optional(),
  track_number: z.number().int().optional(),
  external_ids: z.object({ isrc: z.string().optional() }).partial().nullish(),
  external_urls: z.object({ spotify: z.string().optional() }).nullish(),
  available_markets: z.array(z.string()).optional(),
});
export type SpotifyTrack = z.infer<typeof trackSchema>;

const episodeSchema = z.object({
  type: z.literal('episode'),
  name: z.string(),
  duration_ms: z.number().int().nonnegative().optional(),
  show: z.object({ name: z.string() }).optional(),
});

export const playlistItemSchema = z.object({
  is_local: z.boolean().optional(),
  item: z.discriminatedUnion('type', [trackSchema, episodeSchema]).nullish(),
  track: z.discriminatedUnion('type', [trackSchema, episodeSchema]).nullish(),
});
export type SpotifyPlaylistItem = z.infer<typeof playlistItemSchema>;

/**
 * A list read item by item: an item that does not parse is dropped (a search result, a candidate) rather
 * than failing the whole answer. Playlist items are read raw and reported one by one instead.
 */
export function validItems<T extends z.ZodType>(item: T) {
  return z.array(z.unknown()).transform((items) =>
    items.flatMap((raw) => {
      const parsed = item.safeParse(raw);
      return parsed.success ? [parsed.data as z.output<T>] : [];
    }),
  );
}

export function pagingSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    limit: z.number().int(),
    offset: z.number().int(),
    total: z.number().int().nonnegative(),
    next: z.string().nullable(),
  });
}

export const userSchema = z.object({
  id: z.string(),
  display_name: z.string().nullish(),
  account_id: z.string().optional(),
  country: z.string().optional(),
});

const ownerSchema = z.object({ id: z.string(), display_name: z.string().nullish() });

export const simplifiedPlaylistSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullish(),
  collaborative: z.boolean().optional(),
  owner: ownerSchema,
  images: z.array(imageSchema).nullish(),
  external_urls: z.object({ spotify: z.string().optional() }).nullish(),
  // Renamed from `tracks` in 2026; either may be present.
  items: z.object({ total: z.number().int().nonnegative() }).nullish(),
  tracks: z.object({ total: z.number().int().nonnegative() }).nullish(),
  snapshot_id: z.string().nullish(),
});
export type SpotifySimplifiedPlaylist = z.infer<typeof simplifiedPlaylistSchema>;

export const playlistPageSchema = pagingSchema(simplifiedPlaylistSchema.nullable());
/** Raw items: each is parsed on its own (see toPlaylistEntry), so one odd item never fails the page. */
export const playlistItemsPageSchema = pagingSchema(z.unknown());

/**
 * A playlist as GET /playlists/{id} answers it: with the first page of its items (up to 100) where the
 * reader may see them, else (development mode, someone else's playlist) their count alone.
 */
const firstItemsSchema = z.union([
  playlistItemsPageSchema,
  z.object({ total: z.number().int().nonnegative() }),
]);
export const playlistWithItemsSchema = simplifiedPlaylistSchema.extend({
  items: firstItemsSchema.nullish(),
  tracks: firstItemsSchema.nullish(),
});

export const createdPlaylistSchema = z.object({
  id: z.string(),
  external_urls: z.object({ spotify: z.string() }).partial().nullish(),
});

export const snapshotSchema = z.object({ snapshot_id: z.string() });

export const searchSchema = z.object({
  // `href` names the market Spotify answered in (with `market=from_token`, the token user's country).
  tracks: pagingSchema(z.unknown()).extend({ items: validItems(trackSchema), href: z.string().optional() }),
});

export const severalTracksSchema = z.object({
  tracks: z.array(z.unknown()).transform((items) =>
    items.map((raw) => {
      const parsed = trackSchema.safeParse(raw);
      return parsed.success ? parsed.data : null;
    }),
  ),
});

export const errorBodySchema = z.object({
  error: z.object({ status: z.number().int(), message: z.string(), reason: z.string().optional() }),
});

export const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().positive(),
  refresh_token: z.string().min(1).optional(),
  scope: z.string().optional(),
});

/** SimplifiedAlbumObject (search results); `external_ids` only on full albums. */
export const simplifiedAlbumSchema = z.object({
  id: z.string(),
  name: z.string(),
  album_type: z.string().nullish(),
  total_tracks: z.number().int().nonnegative(),
  artists: z.array(simplifiedArtistSchema),
  images: z.array(imageSchema).nullish(),
  release_date: z.string().nullish(),
  external_urls: z.object({ spotify: z.string().optional() }).nullish(),
  external_ids: z.object({ upc: z.string().optional() }).partial().nullish(),
});
export type SpotifySimplifiedAlbum = z.infer<typeof simplifiedAlbumSchema>;

/** AlbumObject: the album with the first page of its (simplified) tracks. */
export const albumObjectSchema = simplifiedAlbumSchema.extend({ tracks: pagingSchema(z.unknown()) });
export type SpotifyAlbum = z.infer<typeof albumObjectSchema>;

/** A track inside an album: no album, no ISRC. Only the id is read; the full track is fetched after. */
export const simplifiedTrackSchema = z.object({ id: z.string().nullable(), uri: z.string() });

/** GET /me/tracks: raw items, each read on its own as a playlist item (`{added_at, track}`). */
export const savedTracksPageSchema = pagingSchema(z.unknown());

export const savedAlbumsPageSchema = pagingSchema(z.unknown()).extend({
  items: validItems(z.object({ added_at: z.string().optional(), album: albumObjectSchema })),
});

export const albumSearchSchema = z.object({
  albums: pagingSchema(z.unknown()).extend({ items: validItems(simplifiedAlbumSchema) }),
});
