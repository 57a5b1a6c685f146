import { transliterate } from 'transliteration';

/**
 * What the match benchmark builds its hard rows from, kept out of the matcher on purpose.
 *
 * HELD_OUT_LABELS name other recordings of a song with words the matcher's code never contains
 * (`match.test.ts` fails the day one of HELD_OUT_WORDS appears in the matcher). A matcher taught
 * these words would only learn the benchmark; it has to keep such versions out by its general rules.
 */
export const HELD_OUT_LABELS: readonly string[] = [
  'Reimagined',
  'Orchestral Version',
  'Symphonic Version',
  'Rehearsal',
  'Lofi Version',
  'Jazz Version',
  'Bossa Nova Version',
  'Christmas Version',
  'A COLORS SHOW',
  'Piano Version',
  'Chamber Version',
  '8D Audio',
  'Cinematic Version',
  'Choir Version',
  'Re-Recorded',
  'Unreleased',
  'Candlelight Session',
  'Ballad Version',
];

/** The distinctive word of each label: none may appear in the matcher's source. */
export const HELD_OUT_WORDS: readonly string[] = [
  'reimagined',
  'orchestral',
  'symphonic',
  'rehearsal',
  'lofi',
  'jazz',
  'bossa',
  'christmas',
  'colors',
  'piano',
  'chamber',
  '8d',
  'cinematic',
  'choir',
  'recorded',
  'unreleased',
  'candlelight',
  'ballad',
];

/** Other performers with the same title: plain names, nothing that says "cover" or "karaoke". */
export const OTHER_PERFORMERS: readonly string[] = [
  'Midnight Velvet Ensemble',
  'Harbor Lights Quartet',
  'The Session Allstars',
  'Northbound Players',
  'Amber Coast Collective',
];

/** Remixers whose mixes stand beside an original in a catalog. */
export const REMIXERS: readonly string[] = [
  'Kaskade',
  'Purple Disco Machine',
  'Claptone',
  'Sofi Tukker',
  'Fisher',
];

function titleCase(text: string): string {
  return text.replace(
    /(^|\s)(\p{Ll})/gu,
    (_, space: string, letter: string) => `${space}${letter.toUpperCase()}`,
  );
}

/**
 * The benchmark's own romanization of a name in another script, as another storefront prints it: a
 * different library from the matcher's (`transliteration`, not any-ascii), with the conventions that
 * vary between services (syllables of Chinese written apart or together, capitals or not).
 */
export function romanize(text: string, random: () => number): string {
  // "Meng Die" or "Mengdie": the syllables of a Chinese word written apart or together.
  const joinSyllables = random() < 0.4;
  const latin = text
    .replace(OTHER_SCRIPT_RUN, (run) => {
      const spelled = transliterate(run).trim();
      return ` ${joinSyllables && /\p{Script=Han}/u.test(run) ? spelled.replace(/ /g, '') : spelled} `;
    })
    .replace(/\s+/g, ' ')
    .replace(/([([]) /g, '$1')
    .replace(/ ([)\]])/g, '$1')
    .trim();
  const casing = random();
  if (casing < 0.45) return titleCase(latin);
  if (casing < 0.55) return latin.toUpperCase();
  return latin;
}

const OTHER_SCRIPT_RUN = /(?:(?!\p{Script=Latin})\p{L}[\p{M}\u30fc]*)+/gu;

/** Letters of another script than Latin: Cyrillic, Greek, Hangul, Kana, Han… */
export function hasOtherScript(text: string): boolean {
  return /(?!\p{Script=Latin})\p{L}/u.test(text);
}

/**
 * The Latin half of a name written in two scripts side by side ("WHAT WE DREW 우리가 그려왔던" → "WHAT WE
 * DREW", "박혜진 Park Hye Jin" → "Park Hye Jin"), if any. A half set apart by brackets or a dash is a
 * subtitle or a note, never shown alone.
 */
export function latinHalf(text: string): string | null {
  if (/[-([\])/]/.test(text)) return null;
  const half = text.replace(OTHER_SCRIPT_RUN, ' ').replace(/\s+/g, ' ').trim();
  return half.replace(/[^A-Za-z]/g, '').length >= 3 && half !== text ? half : null;
}
