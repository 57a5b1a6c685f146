import { unifyText } from './normalize';

/**
 * Artist credits arrive in three shapes: Spotify's list of names, Apple's one string ("A & B", "A, B & C",
 * "A x B") and credits inside the title ("(feat. X)", "[with X]", "ft. X"). Splitting both sides the same
 * way makes the sets comparable even when a band name itself contains "&" ("Hootie & the Blowfish").
 */

const ARTIST_SEPARATOR_RE =
  /\s*(?:,|;|\s&\s|\s\+\s|\s[xX×]\s(?![&,+])|\s(?:feat\.?|ft\.?|featuring|with|w\/|vs\.?|versus)\s)\s*/giu;

/** Splits one credit string into artist names, keeping each name's spelling. */
const SEPARATOR_HINT_RE = /[,;&+×/]|\s[xX]\s|\s(?:feat|ft|featuring|with|vs|versus)\b/i;

export function splitArtistString(credit: string): string[] {
  if (!SEPARATOR_HINT_RE.test(credit)) {
    const single = unifyText(credit);
    return single === '' ? [] : [single];
  }
  const unified = ` ${unifyText(credit)} `;
  const parts = unified.split(ARTIST_SEPARATOR_RE);
  const names: string[] = [];
  for (const part of parts) {
    const name = part.trim();
    if (name !== '') names.push(name);
  }
  return names;
}

/** Every artist name in a list of credits, each split, first-seen order, duplicates dropped. */
export function splitArtists(credits: readonly string[]): string[] {
  const [only] = credits;
  if (credits.length === 1 && only !== undefined) return splitArtistString(only);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const credit of credits) {
    for (const name of splitArtistString(credit)) {
      const key = name.toLowerCase();
      if (!seen.has(key)) {
        seen.add(key);
        out.push(name);
      }
    }
  }
  return out;
}

const FEAT_PREFIX_RE = /^(?:feat\.?|ft\.?|featuring|with|w\/)\s+/i;

/** The names in a "(feat. X & Y)" segment, or null when the segment is not a credit. */
export function parseCreditSegment(segment: string): string[] | null {
  const match = FEAT_PREFIX_RE.exec(segment.trim());
  if (!match) return null;
  const rest = segment.trim().slice(match[0].length);
  const names = splitArtistString(rest);
  return names.length > 0 ? names : null;
}
