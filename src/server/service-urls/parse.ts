import type { ServiceId } from '../../shared/services';
import type { SharedPlaylistRef } from '../providers/types';
import { parseApplePath } from './apple';
import { SHARE_URL_MESSAGES as M, wrongTypeMessage } from './messages';
import { parseSpotifyPath, parseSpotifyUri } from './spotify';
import type { LinkFailure, ParsedShareUrl, ShareUrlResult } from './types';

export { SHARE_URL_MESSAGES } from './messages';
export type { LinkFailure, ParsedShareUrl, ShareUrlResult, ShareUrlType } from './types';

export const MAX_SHARE_URL_LENGTH = 2048;

const SPOTIFY_HOST = 'open.spotify.com';
const APPLE_HOSTS: ReadonlySet<string> = new Set([
  'music.apple.com',
  'embed.music.apple.com',
  'itunes.apple.com',
]);
// Short links only resolve through an HTTP redirect, which the server must never follow for a typed URL.
const SPOTIFY_SHORT_HOSTS: ReadonlySet<string> = new Set(['spotify.link', 'spotify.app.link', 'spoti.fi']);
const APPLE_SHORT_HOSTS: ReadonlySet<string> = new Set(['apple.co']);
const KNOWN_BARE_HOSTS = [SPOTIFY_HOST, ...APPLE_HOSTS, ...SPOTIFY_SHORT_HOSTS, ...APPLE_SHORT_HOSTS];

const HTTP_SCHEME = /^https?:\/\//i;
// Inner whitespace, control or invisible format characters (bidi overrides, zero-width): the WHATWG parser would silently drop tabs and newlines, so a
// link with them is treated as garbage rather than "repaired".
const UNSAFE_CHARACTER = /[\s\p{Cc}\p{Cf}]/u;

const fail = (message: string): LinkFailure => ({ ok: false, message });

/** Accepts `open.spotify.com/playlist/…` typed without a scheme, but only for the hosts we know. */
const withScheme = (text: string): string | undefined => {
  if (HTTP_SCHEME.test(text)) return text;
  const lower = text.toLowerCase();
  const bareHost = KNOWN_BARE_HOSTS.find(
    (host) => lower.startsWith(host) && /^(?:[/?#]|$)/.test(lower.slice(host.length)),
  );
  return bareHost === undefined ? undefined : `https://${text}`;
};

const toUrl = (text: string): URL | undefined => {
  const candidate = withScheme(text);
  if (candidate === undefined) return undefined;
  try {
    return new URL(candidate);
  } catch {
    return undefined;
  }
};

const pathSegments = (pathname: string): string[] => pathname.split('/').filter((segment) => segment !== '');

/**
 * Reads a Spotify or Apple Music share URL (web link, `spotify:` URI, embed and legacy forms) into ids.
 * Never throws. Everything that is not one of the known hosts over http(s), without userinfo or port, fails.
 */
export const parseShareUrl = (input: string): ShareUrlResult => {
  if (typeof input !== 'string') return fail(M.notOurs);
  if (input.length > MAX_SHARE_URL_LENGTH) return fail(M.tooLong);
  const text = input.trim();
  if (text === '') return fail(M.empty);
  if (UNSAFE_CHARACTER.test(text)) return fail(M.notOurs);
  if (/^spotify:/i.test(text)) return parseSpotifyUri(text);

  const url = toUrl(text);
  if (url === undefined || url.username !== '' || url.password !== '' || url.port !== '')
    return fail(M.notOurs);
  const host = url.hostname;
  if (SPOTIFY_SHORT_HOSTS.has(host)) return fail(M.spotifyShortLink);
  if (APPLE_SHORT_HOSTS.has(host)) return fail(M.appleShortLink);
  if (host === SPOTIFY_HOST) return parseSpotifyPath(pathSegments(url.pathname));
  if (APPLE_HOSTS.has(host)) return parseApplePath(pathSegments(url.pathname), url.searchParams.get('i'));
  return fail(M.notOurs);
};

/** The type a person would call the link: an album link that highlights a song (`?i=`) is a song link. */
const perceivedType = (link: ParsedShareUrl) => (link.songId === undefined ? link.type : 'song');

const playlistRef = (link: ParsedShareUrl): SharedPlaylistRef | undefined => {
  if (link.type === 'library-playlist') return { service: link.service, id: link.id };
  if (link.type !== 'playlist') return undefined;
  return link.storefront === undefined
    ? { service: link.service, id: link.id }
    : { service: link.service, id: link.id, storefront: link.storefront };
};

export type PlaylistLinkResult = { ok: true; ref: SharedPlaylistRef; link: ParsedShareUrl } | LinkFailure;

/**
 * A link that must name a playlist: a Spotify playlist, an Apple catalog playlist (`pl.…`, with its
 * storefront) or an Apple library playlist (`p.…`, no storefront; only its owner can read it).
 */
export const parsePlaylistLink = (input: string): PlaylistLinkResult => {
  const parsed = parseShareUrl(input);
  if (!parsed.ok) return parsed;
  const ref = playlistRef(parsed.link);
  if (ref === undefined) return fail(wrongTypeMessage('a playlist', perceivedType(parsed.link)));
  return { ok: true, ref, link: parsed.link };
};

export interface SharedTrackRef {
  service: ServiceId;
  /** Spotify track id, or Apple catalog song id. */
  id: string;
  storefront?: string;
}

export type TrackOrPlaylistTarget =
  | { kind: 'playlist'; ref: SharedPlaylistRef }
  | { kind: 'track'; track: SharedTrackRef };

export type TrackOrPlaylistLinkResult =
  | { ok: true; target: TrackOrPlaylistTarget; link: ParsedShareUrl }
  | LinkFailure;

const trackRef = (link: ParsedShareUrl): SharedTrackRef | undefined => {
  const songId = link.type === 'song' || link.type === 'track' ? link.id : link.songId;
  if (songId === undefined) return undefined;
  return link.storefront === undefined
    ? { service: link.service, id: songId }
    : { service: link.service, id: songId, storefront: link.storefront };
};

/** For the sniper link: a playlist, or a single track (Spotify track, Apple song or album link with `?i=`). */
export const parseTrackOrPlaylistLink = (input: string): TrackOrPlaylistLinkResult => {
  const parsed = parseShareUrl(input);
  if (!parsed.ok) return parsed;
  const ref = playlistRef(parsed.link);
  if (ref !== undefined) return { ok: true, target: { kind: 'playlist', ref }, link: parsed.link };
  const track = trackRef(parsed.link);
  if (track !== undefined) return { ok: true, target: { kind: 'track', track }, link: parsed.link };
  return fail(wrongTypeMessage('a track or playlist', parsed.link.type));
};
