import { SHARE_URL_MESSAGES as M } from './messages';
import type { ShareUrlResult } from './types';

/** Catalog playlists: user-shared `pl.u-…` and editorial `pl.<hex>`. */
export const APPLE_CATALOG_PLAYLIST_ID = /^pl\.(?:u-[A-Za-z0-9]{4,64}|[0-9a-f]{8,64})$/;
/** Library playlists (`p.…`) can only be read by their owner through /v1/me. */
export const APPLE_LIBRARY_PLAYLIST_ID = /^p\.[A-Za-z0-9]{4,64}$/;
/** Songs, albums and artists have numeric catalog ids. */
export const APPLE_NUMERIC_ID = /^[0-9]{1,15}$/;

const STOREFRONT = /^[a-z]{2}$/i;

// Legacy itunes.apple.com links prefix numeric ids with `id` (`/album/x/id1440857781`).
const numericId = (segment: string | undefined): string | undefined => {
  if (segment === undefined) return undefined;
  const bare = /^id[0-9]/i.test(segment) ? segment.slice(2) : segment;
  return APPLE_NUMERIC_ID.test(bare) ? bare : undefined;
};

/** The id is the last segment; an optional cosmetic slug may stand before it. */
const idSegment = (afterType: readonly string[]): string | undefined =>
  afterType.length === 1 || afterType.length === 2 ? afterType[afterType.length - 1] : undefined;

/**
 * Path segments (non-empty, still percent-encoded) and the `i` query parameter of a music.apple.com,
 * embed.music.apple.com or itunes.apple.com link.
 */
export const parseApplePath = (segments: readonly string[], songParam: string | null): ShareUrlResult => {
  let rest = segments;
  let storefront: string | undefined;
  if (rest[0] !== undefined && STOREFRONT.test(rest[0])) {
    storefront = rest[0].toLowerCase();
    rest = rest.slice(1);
  }
  const [kindSegment, ...afterKind] = rest;
  const kind = kindSegment?.toLowerCase();

  if (kind === 'library') {
    const [what, id, ...extra] = afterKind;
    if (what?.toLowerCase() !== 'playlist' || id === undefined || extra.length > 0) {
      return { ok: false, message: M.appleUnknownPage };
    }
    if (!APPLE_LIBRARY_PLAYLIST_ID.test(id)) return { ok: false, message: M.appleBadId };
    return { ok: true, link: { service: 'apple', type: 'library-playlist', id } };
  }
  if (kind !== 'playlist' && kind !== 'album' && kind !== 'song' && kind !== 'artist') {
    return { ok: false, message: M.appleUnknownPage };
  }
  if (storefront === undefined) return { ok: false, message: M.appleNoStorefront };

  const raw = idSegment(afterKind);
  if (raw === undefined) return { ok: false, message: M.appleUnknownPage };

  if (kind === 'playlist') {
    if (!APPLE_CATALOG_PLAYLIST_ID.test(raw)) return { ok: false, message: M.appleBadId };
    return { ok: true, link: { service: 'apple', type: 'playlist', id: raw, storefront } };
  }
  const id = numericId(raw);
  if (id === undefined) return { ok: false, message: M.appleBadId };
  if (kind === 'album' && songParam !== null) {
    const songId = numericId(songParam);
    if (songId === undefined) return { ok: false, message: M.appleBadId };
    return { ok: true, link: { service: 'apple', type: 'album', id, storefront, songId } };
  }
  return { ok: true, link: { service: 'apple', type: kind, id, storefront } };
};
