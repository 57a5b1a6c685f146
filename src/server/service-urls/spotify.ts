import { SHARE_URL_MESSAGES as M } from './messages';
import type { ShareUrlResult, ShareUrlType } from './types';

/** Spotify ids are base62 and always 22 characters long. */
export const SPOTIFY_ID = /^[A-Za-z0-9]{22}$/;

const SPOTIFY_TYPES: ReadonlySet<string> = new Set([
  'playlist',
  'track',
  'album',
  'artist',
  'episode',
  'show',
]);

// `intl-de`, `intl-pt`; a region-qualified variant (`intl-pt-br`) is tolerated because it is just as harmless.
const INTL_PREFIX = /^intl-[a-z]{2}(?:-[a-z0-9]{2,4})?$/i;

const fromTypeAndId = (type: string, id: string): ShareUrlResult => {
  const lowerType = type.toLowerCase();
  if (!SPOTIFY_TYPES.has(lowerType)) return { ok: false, message: M.spotifyUnknownPage };
  if (!SPOTIFY_ID.test(id)) return { ok: false, message: M.spotifyBadId };
  return { ok: true, link: { service: 'spotify', type: lowerType as ShareUrlType, id } };
};

/** Path segments of an open.spotify.com link, without empty segments (so trailing slashes are fine). */
export const parseSpotifyPath = (segments: readonly string[]): ShareUrlResult => {
  let rest = segments;
  if (rest[0] !== undefined && INTL_PREFIX.test(rest[0])) rest = rest.slice(1);
  if (rest[0]?.toLowerCase() === 'embed') rest = rest.slice(1);

  const [first, second, third, fourth, ...extra] = rest;
  if (first === undefined) return { ok: false, message: M.spotifyUnknownPage };

  if (first.toLowerCase() === 'user') {
    // Legacy `/user/{userId}/playlist/{id}`; the user id is irrelevant to the API call.
    if (second === undefined || third === undefined) return { ok: false, message: M.spotifyProfile };
    if (third.toLowerCase() !== 'playlist' || fourth === undefined || extra.length > 0) {
      return { ok: false, message: M.spotifyUnknownPage };
    }
    return fromTypeAndId('playlist', fourth);
  }
  if (second === undefined || third !== undefined) return { ok: false, message: M.spotifyUnknownPage };
  return fromTypeAndId(first, second);
};

/** `spotify:playlist:{id}`, `spotify:track:{id}`, `spotify:user:{u}:playlist:{id}` and the other types. */
export const parseSpotifyUri = (uri: string): ShareUrlResult => {
  const parts = uri.split(':');
  const kind = parts[1]?.toLowerCase();
  if (kind === 'local') return { ok: false, message: M.spotifyLocalFile };
  if (kind === 'user') {
    if (parts.length === 3) return { ok: false, message: M.spotifyProfile };
    if (parts.length !== 5 || parts[2] === '' || parts[3]?.toLowerCase() !== 'playlist') {
      return { ok: false, message: M.spotifyUnknownPage };
    }
    return fromTypeAndId('playlist', parts[4] ?? '');
  }
  if (parts.length !== 3 || kind === undefined) return { ok: false, message: M.spotifyUnknownPage };
  return fromTypeAndId(kind, parts[2] ?? '');
};
