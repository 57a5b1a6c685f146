import { parseShareUrl } from '../service-urls/parse';

const MAX_DURATION_MS = 24 * 60 * 60 * 1000;

export type DurationValue = { ok: true; ms: number | undefined } | { ok: false };

/**
 * Milliseconds ("215000", "215000.0"), "m:ss" or "h:mm:ss". Empty means "not given" (Crossfade's own
 * export leaves it empty), which is not a problem.
 */
export const parseDuration = (value: string): DurationValue => {
  const text = value.trim();
  if (text === '') return { ok: true, ms: undefined };
  let ms: number | undefined;
  if (/^\d+(?:\.\d+)?$/.test(text)) ms = Math.round(Number(text));
  const clock = /^(?:(\d+):)?(\d+):([0-5]\d)(?:\.(\d{1,3}))?$/.exec(text);
  if (clock) {
    const [, hours = '0', minutes = '0', seconds = '0', fraction = ''] = clock;
    if (hours !== '0' && Number(minutes) > 59) return { ok: false };
    const fractionMs = fraction === '' ? 0 : Number(fraction.padEnd(3, '0'));
    ms = ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000 + fractionMs;
  }
  if (ms === undefined || !Number.isFinite(ms) || ms > MAX_DURATION_MS) return { ok: false };
  return { ok: true, ms };
};

/** ISO 3901: country (2 letters), registrant (3 alphanumerics), year (2 digits), designation (5 digits). */
const ISRC = /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/;

/** Upper-cased ISRC without the hyphens and spaces some tools print, or undefined when it is not one. */
export const normalizeIsrc = (value: string): string | undefined => {
  const compact = value.replace(/[\s-]/g, '').toUpperCase();
  return ISRC.test(compact) ? compact : undefined;
};

const TRUE_WORDS = new Set([
  'true',
  '1',
  'yes',
  'y',
  'x',
  'ja',
  'wahr',
  'oui',
  'vrai',
  'si',
  'sí',
  'sim',
  'vero',
  'はい',
]);
const FALSE_WORDS = new Set([
  'false',
  '0',
  'no',
  'n',
  'nein',
  'falsch',
  'non',
  'faux',
  'não',
  'nao',
  'falso',
  'いいえ',
]);

export const parseExplicit = (value: string): boolean | undefined => {
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
};

/**
 * Splits the artist field. Exportify's newer exports separate artists with ";" (so a name such as
 * "Tyler, The Creator" survives); older ones with "," and escape commas inside names as "\,". When a
 * field holds a ";" we split only on ";", otherwise on commas that are not escaped. An older export
 * without the escape cannot be told apart from two artists, so it splits; matching tolerates that.
 */
export const splitArtists = (value: string): string[] => {
  const parts = value.includes(';')
    ? value.split(';')
    : value.split(/(?<!\\),/).map((p) => p.replace(/\\,/g, ','));
  const seen = new Set<string>();
  const artists: string[] = [];
  for (const part of parts) {
    const name = part.trim();
    if (name !== '' && !seen.has(name.toLowerCase())) {
      seen.add(name.toLowerCase());
      artists.push(name);
    }
  }
  return artists;
};

/** `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, as `NormalizedTrack.releaseDate` expects; anything else is dropped. */
export const parseReleaseDate = (value: string): string | undefined => {
  const text = value.trim();
  return /^\d{4}(?:-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\d|3[01]))?)?$/.test(text) ? text : undefined;
};

export const parseAddedAt = (value: string): string | undefined => {
  const text = value.trim();
  return /^\d{4}-\d{2}-\d{2}(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(text) &&
    !Number.isNaN(Date.parse(text))
    ? text
    : undefined;
};

/** The Spotify track id behind a "Track URI" field (`spotify:track:…` or an open.spotify.com track link). */
export const spotifyTrackId = (value: string): string | undefined => {
  const text = value.trim();
  if (text === '') return undefined;
  const parsed = parseShareUrl(text);
  return parsed.ok && parsed.link.service === 'spotify' && parsed.link.type === 'track'
    ? parsed.link.id
    : undefined;
};
