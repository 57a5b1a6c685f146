import { z } from 'zod';

/**
 * Apple Music API answers the client reads, written from the Apple Music API reference. Unknown fields are
 * allowed (Apple adds attributes over time); the fields the client relies on are required.
 */

/** Apple sends `width`/`height` as null for some artwork (user uploads); artwork is cosmetic either way. */
export const artworkSchema = z.object({
  url: z.string().includes('{w}x{h}'),
  width: z.number().nullable().optional(),
  height: z.number().nullable().optional(),
  bgColor: z.string().optional(),
});
/** Broken artwork loses the picture, never the song or playlist it belongs to. */
const cosmeticArtwork = artworkSchema.optional().catch(undefined);

export const playParamsSchema = z.object({ id: z.string(), kind: z.string() });

export const songSchema = z.object({
  // Apple's catalog ids are numeric; any other non-empty id (a library id, an imported catalog's) is
  // still usable as an opaque id, so it is not a reason to refuse the whole answer.
  id: z.string().min(1),
  type: z.literal('songs'),
  href: z.string().startsWith('/v1/').optional(),
  attributes: z.object({
    name: z.string(),
    artistName: z.string(),
    // Missing on some songs (singles, uploads matched to the catalog).
    albumName: z.string().default(''),
    durationInMillis: z.number().int().nonnegative(),
    isrc: z.string().optional(),
    contentRating: z.enum(['explicit', 'clean']).optional().catch(undefined),
    artwork: cosmeticArtwork,
    url: z.string().optional(),
    playParams: playParamsSchema.optional(),
    genreNames: z.array(z.string()).default([]),
    releaseDate: z.string().optional(),
    trackNumber: z.number().int().optional(),
    discNumber: z.number().int().optional(),
  }),
});
export type AppleSong = z.infer<typeof songSchema>;

/**
 * Any resource in a playlist's track list, read loosely: music videos, kinds Apple adds later and songs
 * with a broken field all reach the client, which parses each on its own and reports what it cannot use
 * as a skipped entry with its reason, instead of failing the page.
 */
const otherResourceSchema = z.object({
  id: z.string().catch(''),
  type: z.string().catch('unknown'),
  attributes: z
    .object({
      name: z.string().optional().catch(undefined),
      artistName: z.string().optional().catch(undefined),
      albumName: z.string().optional().catch(undefined),
      durationInMillis: z.number().optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
});

export const librarySongSchema = z.object({
  id: z.string(),
  type: z.enum(['library-songs', 'library-music-videos']),
  href: z.string().optional(),
  attributes: z.object({
    name: z.string(),
    artistName: z.string().default(''),
    albumName: z.string().optional(),
    durationInMillis: z.number().int().nonnegative().optional(),
    contentRating: z.enum(['explicit', 'clean']).optional(),
    playParams: z
      .object({
        id: z.string(),
        kind: z.string(),
        isLibrary: z.boolean().optional(),
        catalogId: z.string().optional(),
      })
      .optional(),
  }),
  relationships: z
    .object({ catalog: z.object({ href: z.string().optional(), data: z.array(songSchema) }).optional() })
    .optional(),
});
export type AppleLibrarySong = z.infer<typeof librarySongSchema>;

export const libraryPlaylistSchema = z.object({
  id: z.string().startsWith('p.'),
  type: z.literal('library-playlists'),
  href: z.string().optional(),
  attributes: z.object({
    name: z.string(),
    description: z.object({ standard: z.string().optional(), short: z.string().optional() }).optional(),
    canEdit: z.boolean().optional(),
    isPublic: z.boolean().optional(),
    dateAdded: z.string().optional(),
    lastModifiedDate: z.string().optional(),
    artwork: cosmeticArtwork,
    playParams: z.object({ id: z.string(), kind: z.string(), globalId: z.string().optional() }).optional(),
  }),
});
export type AppleLibraryPlaylist = z.infer<typeof libraryPlaylistSchema>;

/** `next` is root-relative (`/v1/...?offset=100`) and does not carry `limit`. */
const nextSchema = z.string().startsWith('/v1/').optional();
const totalMetaSchema = z.object({ total: z.number().int().nonnegative().optional() }).optional();

export const libraryPlaylistsPageSchema = z.object({
  data: z.array(libraryPlaylistSchema),
  next: nextSchema,
  meta: totalMetaSchema,
});

export const libraryPlaylistResponseSchema = z.object({ data: z.array(libraryPlaylistSchema).min(1) });

export const libraryTracksPageSchema = z.object({
  data: z.array(z.union([librarySongSchema, otherResourceSchema])),
  next: nextSchema,
  meta: totalMetaSchema,
});

export const storefrontsResponseSchema = z.object({
  data: z
    .array(
      z.object({
        id: z.string(),
        type: z.literal('storefronts'),
        attributes: z.object({
          name: z.string(),
          defaultLanguageTag: z.string().optional(),
          explicitContentPolicy: z.enum(['allowed', 'opt-in', 'prohibited']).optional(),
        }),
      }),
    )
    .min(1),
});

/** Catalog song lists (ids, ISRC filter, search): a song that does not parse is left out, not fatal. */
const validSongs = z.array(z.unknown()).transform((items) =>
  items.flatMap((raw) => {
    const parsed = songSchema.safeParse(raw);
    return parsed.success ? [parsed.data] : [];
  }),
);

export const songsResponseSchema = z.object({ data: validSongs });

const resourceRefSchema = z.object({ id: z.string(), type: z.string(), href: z.string().optional() });

export const isrcSongsResponseSchema = z.object({
  data: validSongs,
  meta: z
    .object({
      filters: z.object({ isrc: z.record(z.string(), z.array(resourceRefSchema)).optional() }).optional(),
    })
    .optional(),
});

const catalogTracksSchema = z.array(z.union([songSchema, otherResourceSchema]));

/** A catalog album (`albums`): the UPC it is listed under, and its tracks when the answer includes them. */
export const catalogAlbumSchema = z.object({
  id: z.string().min(1),
  type: z.literal('albums'),
  href: z.string().optional(),
  attributes: z.object({
    name: z.string(),
    artistName: z.string().default(''),
    trackCount: z.number().int().nonnegative().optional(),
    upc: z.string().optional(),
    releaseDate: z.string().optional(),
    url: z.string().optional(),
    artwork: cosmeticArtwork,
  }),
  relationships: z
    .object({
      tracks: z.object({ href: z.string().optional(), next: nextSchema, data: catalogTracksSchema }),
    })
    .partial()
    .optional(),
});
export type AppleAlbum = z.infer<typeof catalogAlbumSchema>;

/** Album lists (ids, UPC filter, search): an album that does not parse is left out. */
const validAlbums = z.array(z.unknown()).transform((items) =>
  items.flatMap((raw) => {
    const parsed = catalogAlbumSchema.safeParse(raw);
    return parsed.success ? [parsed.data] : [];
  }),
);

export const albumsResponseSchema = z.object({ data: validAlbums });

export const libraryAlbumSchema = z.object({
  id: z.string().min(1),
  type: z.literal('library-albums'),
  attributes: z.object({
    name: z.string(),
    artistName: z.string().default(''),
    trackCount: z.number().int().nonnegative().optional(),
    releaseDate: z.string().optional(),
    dateAdded: z.string().optional(),
    artwork: cosmeticArtwork,
  }),
  relationships: z.object({ catalog: z.object({ data: validAlbums }).optional() }).optional(),
});
export type AppleLibraryAlbum = z.infer<typeof libraryAlbumSchema>;

export const libraryAlbumsPageSchema = z.object({
  data: z.array(z.unknown()).transform((items) =>
    items.flatMap((raw) => {
      const parsed = libraryAlbumSchema.safeParse(raw);
      return parsed.success ? [parsed.data] : [];
    }),
  ),
  next: nextSchema,
  meta: totalMetaSchema,
});

export const libraryAlbumResponseSchema = z.object({ data: z.array(libraryAlbumSchema).min(1) });

/** GET /v1/me/ratings/songs?ids=: the rated songs only (1 favourite, -1 dislike). */
export const ratingsResponseSchema = z.object({
  data: z.array(z.object({ id: z.string(), attributes: z.object({ value: z.number() }) })),
});

export const searchResponseSchema = z.object({
  results: z.object({
    songs: z.object({ href: z.string().optional(), next: nextSchema, data: validSongs }).optional(),
    albums: z.object({ href: z.string().optional(), next: nextSchema, data: validAlbums }).optional(),
  }),
  meta: z.unknown().optional(),
});

export const catalogPlaylistResponseSchema = z.object({
  data: z
    .array(
      z.object({
        id: z.string().startsWith('pl.'),
        type: z.literal('playlists'),
        attributes: z.object({
          name: z.string(),
          curatorName: z.string().optional(),
          description: z.object({ standard: z.string().optional() }).optional(),
          artwork: cosmeticArtwork,
          url: z.string().optional(),
          playlistType: z.string().optional(),
        }),
        relationships: z
          .object({
            tracks: z.object({ href: z.string().optional(), next: nextSchema, data: catalogTracksSchema }),
          })
          .partial()
          .optional(),
      }),
    )
    .min(1),
});

export const catalogTracksPageSchema = z.object({ data: catalogTracksSchema, next: nextSchema });

export const createdPlaylistResponseSchema = libraryPlaylistResponseSchema;

/** Apple's error envelope: `status` and `code` are strings. */
export const errorResponseSchema = z.object({
  errors: z
    .array(
      z.object({
        id: z.string(),
        title: z.string(),
        detail: z.string().optional(),
        status: z.string().regex(/^\d{3}$/),
        code: z.string().regex(/^\d+$/),
        source: z.object({ parameter: z.string().optional(), pointer: z.string().optional() }).optional(),
      }),
    )
    .min(1),
});
