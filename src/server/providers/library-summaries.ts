import { albumCollectionId, albumCollectionName } from '../../shared/library-ids';
import type { LibraryAlbum, PlaylistSummary } from './types';

/** A saved album listed as a collection next to the playlists (both services list them alike). */
export function albumSummary(album: LibraryAlbum): PlaylistSummary {
  return {
    id: albumCollectionId(album.id),
    name: albumCollectionName(album),
    trackCount: album.trackCount,
    ...(album.imageUrl ? { imageUrl: album.imageUrl } : {}),
    ...(album.artists.length > 0 ? { ownerName: album.artists.join(', ') } : {}),
    // Saved albums are the person's to read (and to transfer); nobody edits an album.
    isOwned: true,
    ...(album.url ? { url: album.url } : {}),
  };
}
