import type { ServiceId } from '../../shared/services';

export type ShareUrlType =
  | 'playlist'
  | 'track'
  | 'album'
  | 'artist'
  | 'episode'
  | 'show'
  | 'song'
  | 'library-playlist';

/**
 * What a share URL points at, reduced to ids. It never holds a URL: the server decides which service
 * API to call from these fields alone and never fetches anything a person typed.
 */
export interface ParsedShareUrl {
  service: ServiceId;
  type: ShareUrlType;
  /**
   * Spotify: the 22-character base62 id. Apple: the catalog id (`pl.…` playlists, digits for songs,
   * albums and artists) or the library id (`p.…`) for `library-playlist`.
   */
  id: string;
  /** Apple storefront from the first path segment, lower-case (`us`). Absent for library links and Spotify. */
  storefront?: string;
  /** Apple album links with `?i=`: the catalog id of the song the link highlights (`id` stays the album). */
  songId?: string;
}

export type ShareUrlResult = { ok: true; link: ParsedShareUrl } | { ok: false; message: string };

export type LinkFailure = { ok: false; message: string };
