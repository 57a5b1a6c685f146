import { z } from 'zod';

/**
 * Apple Music API answers the client reads, written from provider-apis.md B.3–B.5. Unknown fields are
 * allowed (Apple adds attributes over time); the fields the client relies on are required.
 */

export const artworkSchema = z.object({
  url: z.string().includes('{w}x{h}'),
  width: z.number().optional(),
  height: z.number().optional(),
  bgColor: z.string().optional(),
});

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
    albumName: z.string(),
    durationInMillis: z.number().int().nonnegative(),
    isrc: z.string().optional(),
    contentRating: z.enum(['explicit', 'clean']).optional(),
    artwork: artworkSchema.optional(),
    url: z.string().optional(),
    playParams: playParamsSchema.optional(),
    genreNames: z.array(z.string()).default([]),
    releaseDate: z.string().optional(),
    trackNumber: z.number().int().optional(),
    discNumber: z.number().int().optional(),
  }),
});
export type AppleSong = z.infer<typeof songSchema>;

/** Music videos and other kinds can sit in playlists; the client reports them, it does not read them. */
const otherResourceSchema = z.object({
  id: z.string(),
  // A malformed song must fail the parse, not pass as "some other kind".
  type: z.string().regex(/^(?!songs$|library-songs$)/, 'a song that does not match the song shape'),
  attributes: z.object({ name: z.string().optional(), artistName: z.string().optional() }).optional(),
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
    artwork: artworkSchema.optional(),
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

export const songsResponseSchema = z.object({ data: z.array(songSchema) });

const resourceRefSchema = z.object({ id: z.string(), type: z.string(), href: z.string().optional() });

export const isrcSongsResponseSchema = z.object({
  data: z.array(songSchema),
  meta: z
    .object({
      filters: z.object({ isrc: z.record(z.string(), z.array(resourceRefSchema)).optional() }).optional(),
    })
    .optional(),
});

export const searchResponseSchema = z.object({
  results: z.object({
    songs: z.object({ href: z.string().optional(), next: nextSchema, data: z.array(songSchema) }).optional(),
  }),
  meta: z.unknown().optional(),
});

const catalogTracksSchema = z.array(z.union([songSchema, otherResourceSchema]));

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
          artwork: artworkSchema.optional(),
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
