import { createHash } from 'node:crypto';
import type { CatalogRelease, CatalogTrack } from '../catalog/types';

/**
 * How Apple Music writes the catalog's credits. Apple joins the credited artists into one `artistName`
 * ("A & B", "A, B & C") and moves featured artists into the song title as "(feat. X)", so matching against
 * Spotify's artists arrays is a real problem rather than a string compare.
 */

export function joinArtists(names: string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} & ${names[names.length - 1]}`;
}

export function appleArtistName(track: CatalogTrack): string {
  const main = track.artists.filter((artist) => !track.featured.includes(artist));
  return joinArtists(main.length > 0 ? main : track.artists);
}

/** "Heaven - Acoustic" with a featured artist becomes "Heaven (feat. X) - Acoustic", as Apple prints it. */
export function appleSongName(track: CatalogTrack): string {
  if (track.featured.length === 0) return track.title;
  const credit = `(feat. ${joinArtists(track.featured)})`;
  const dash = track.title.indexOf(' - ');
  if (dash > 0) return `${track.title.slice(0, dash)} ${credit}${track.title.slice(dash)}`;
  return `${track.title} ${credit}`;
}

export function appleAlbumName(release: CatalogRelease | undefined, fallback: string): string {
  if (!release) return fallback;
  return release.type === 'single' ? `${release.name} - Single` : release.name;
}

export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'song' : slug;
}

/** FNV-1a: stable ids derived from catalog keys, so the same catalog always yields the same Apple ids. */
export function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A 14-character base62 id in the style of Apple's library ids (`i.PkdZbQXsPaDZv`), from a SHA-256 of the
 * seed: ids are derived from catalog ids and must never collide (two songs under one library id read back
 * as each other; a 32-bit hash did collide within a 24,000-song catalog).
 */
export function stableLibraryId(prefix: 'i' | 'p' | 'l' | 'pl.u', seed: string): string {
  const digest = createHash('sha256').update(seed).digest();
  let text = '';
  for (let index = 0; text.length < 14; index++) text += BASE62[(digest[index] ?? 0) % 62];
  return prefix === 'pl.u' ? `pl.u-${text}` : `${prefix}.${text}`;
}

/** Numeric album id (Apple catalog ids are numbers). */
export function albumIdFor(releaseKey: string): string {
  return String(1_000_000_000 + (hash32(`album:${releaseKey}`) % 900_000_000));
}

/** Apple's tokenisation for search: accents folded, case folded, split on anything not a letter or digit. */
export function searchTokens(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token !== '');
}

/** Apple's names for the catalog's genres, where they differ from plain title case. */
const APPLE_GENRES: Record<string, string> = {
  'hip-hop': 'Hip-Hop/Rap',
  'r&b': 'R&B/Soul',
  reggaeton: 'Urbano latino',
  'c-pop': 'Mandopop',
  'lo-fi': 'Lo-Fi',
};

export function appleGenreName(genre: string): string {
  const known = APPLE_GENRES[genre.toLowerCase()];
  if (known) return known;
  return genre.replace(
    /(^|[\s-])(\p{L})/gu,
    (_, before: string, letter: string) => `${before}${letter.toUpperCase()}`,
  );
}

/** Apple's genre names for a track, always ending with the catch-all "Music" as Apple's do. */
export function genreNames(genres: string[]): string[] {
  const named = genres.map(appleGenreName);
  return named.includes('Music') ? named : [...named, 'Music'];
}
