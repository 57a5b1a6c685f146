/**
 * Ids of the person's library collections (Liked Songs / Apple favourites, saved albums) as they travel
 * through every `playlistId` field of the API, next to real playlist ids. Neither service uses a `library:`
 * prefix for its own playlist ids (Spotify base62, Apple `p.…`/`pl.…`), so the two never collide.
 */
export const LIKED_SONGS_ID = 'library:liked';
export const ALBUM_ID_PREFIX = 'library:album:';
export const albumCollectionId = (albumId: string) => `${ALBUM_ID_PREFIX}${albumId}`;

export type CollectionRef = { kind: 'liked' } | { kind: 'album'; albumId: string };

/** The collection an id names, or null for an ordinary playlist id. */
export function parseCollectionId(id: string): CollectionRef | null {
  if (id === LIKED_SONGS_ID) return { kind: 'liked' };
  if (id.startsWith(ALBUM_ID_PREFIX)) {
    const albumId = id.slice(ALBUM_ID_PREFIX.length);
    return albumId === '' ? null : { kind: 'album', albumId };
  }
  return null;
}

/** Names the listing gives the collections (the web shows them as they come). */
export const LIKED_SONGS_NAME = { spotify: 'Liked Songs', apple: 'Favourite Songs' } as const;
export const albumCollectionName = (album: { name: string; artists: string[] }) =>
  `Album: ${album.name}${album.artists.length > 0 ? ` — ${album.artists.join(', ')}` : ''}`;
