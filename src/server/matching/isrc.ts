const ISRC_RE = /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/;
const SEPARATORS_RE = /[\s-]/g;

/**
 * Upper-cased, dashes and spaces removed, validated. Spotify sometimes answers in lower case, which made
 * other tools match 0% by ISRC; malformed codes are dropped so they never reach a lookup.
 */
export function normalizeIsrc(raw: string | undefined | null): string | null {
  if (!raw) return null;
  const isrc = raw.replace(SEPARATORS_RE, '').toUpperCase();
  return ISRC_RE.test(isrc) ? isrc : null;
}
