import anyAscii from 'any-ascii';
import { foldText } from './normalize';

/**
 * Names across scripts. The services write one recording's title and artist in the storefront's script:
 * "Москва любит…" on one, "Moskva lyubit…" on the other; "ギラギラ" and "Giragira"; "梦蝶" and "Meng Die".
 * Comparing such names needs a form both sides can reach: the Latin transliteration (any-ascii, a maintained
 * library covering Cyrillic, Greek, Hangul, Kana and Han among others), reduced to a *romanization
 * skeleton* that forgets what the romanization conventions disagree on (Korean ㄹ as r or l, Cyrillic х as
 * kh, h or x, й as y, i or j, syllables written together or apart, long vowels doubled or not).
 *
 * A skeleton is lossy on purpose, so two names that agree only through it are weaker evidence than two
 * names that agree as written: the scorer asks for more before it accepts such a match (see score.ts).
 */

// A letter outside the Latin script (digits, punctuation and symbols are in no script, so they never count).
const OTHER_SCRIPT_LETTER_RE = /(?!\p{Script=Latin})\p{L}/u;
const ASCII_RE = /^[\x20-\x7e\t\n\r]*$/;
// A run of other-script letters, with their combining marks and the Kana prolonged-sound mark.
const OTHER_SCRIPT_RUN_RE = /(?:(?!\p{Script=Latin})\p{L}[\p{M}\u30fc]*)+/gu;

/** True when the text holds letters of another script than Latin (Cyrillic, Greek, Hangul, Kana, Han…). */
export function hasOtherScript(text: string): boolean {
  return !ASCII_RE.test(text) && OTHER_SCRIPT_LETTER_RE.test(text);
}

// Han and Hangul come out of any-ascii as capitalised syllables run together ("MengDie", "GangNamSeuTaIl"):
// a boundary before each capital after a lower-case letter gives the syllables back as words.
const SYLLABLE_BOUNDARY_RE = /(?<=\p{Ll})(?=\p{Lu})/gu;
// Only there: Cyrillic and Greek keep their own capitals ("ХОТБОКС" is "KhOTBOKS", one word).
const SYLLABIC_RE = /[\p{Script=Han}\p{Script=Hangul}]/u;

/** The text in Latin letters (others untouched); readable, for the searches sent to a service. */
export function transliterate(text: string): string {
  if (!hasOtherScript(text)) return text;
  // Transliterated run by run so the syllable split applies to Han and Hangul runs only ("McCartney"
  // stays), and without spaces around them: a name can mix scripts inside one word.
  return text
    .replace(OTHER_SCRIPT_RUN_RE, (run) => {
      const latin = anyAscii(run);
      return SYLLABIC_RE.test(run) ? latin.replace(SYLLABLE_BOUNDARY_RE, ' ') : latin;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Reductions applied in order to folded Latin text. Each pair merges spellings that romanization schemes
 * use for one sound; the list is about conventions (ISO 9, BGN/PCGN, Hepburn, Kunrei, Revised Romanization,
 * McCune-Reischauer, pinyin with or without spaces), not about any word.
 */
const SKELETON_STEPS: readonly [RegExp, string][] = [
  [/shch|sch/g, 's'],
  [/tch|ch/g, 'c'],
  [/sh/g, 's'],
  [/dzh|dj|zh/g, 'z'],
  [/kh|gh/g, 'h'],
  [/ts|tz/g, 'c'],
  [/ph/g, 'f'],
  [/th/g, 't'],
  [/eo/g, 'o'],
  [/eu/g, 'u'],
  [/ou/g, 'o'],
  [/y/g, 'i'],
  // Kunrei and Hepburn: zi/ji, ti/chi, tu/tsu, hu/fu.
  [/zi/g, 'ji'],
  [/ti/g, 'ci'],
  [/tu/g, 'cu'],
  [/hu/g, 'fu'],
  [/j/g, 'i'],
  // ё as yo, io, jo or e; 요 as yo or yo.
  [/io/g, 'e'],
  [/w/g, 'v'],
  [/q/g, 'k'],
  [/g/g, 'k'],
  [/d/g, 't'],
  [/b/g, 'p'],
  [/l/g, 'r'],
  [/ /g, ''],
  [/(.)\1+/g, '$1'],
];

/** The romanization skeleton of already-folded Latin text: "kolkhoznik" and "kolhoznik" both give "korhoznik". */
export function romanizationSkeleton(foldedLatin: string): string {
  let out = foldedLatin;
  for (const [pattern, replacement] of SKELETON_STEPS) out = out.replace(pattern, replacement);
  return out;
}

// Skeletons repeat (artists above all); bounded so a long-running server does not grow without limit.
const SKELETON_CACHE_LIMIT = 20_000;
const skeletonCache = new Map<string, string>();

/** The script-independent key of any text: transliterated, folded, reduced to its skeleton. */
export function scriptFreeKey(text: string): string {
  const cached = skeletonCache.get(text);
  if (cached !== undefined) return cached;
  const key = romanizationSkeleton(foldText(transliterate(text)));
  if (skeletonCache.size >= SKELETON_CACHE_LIMIT) skeletonCache.clear();
  skeletonCache.set(text, key);
  return key;
}

const LATIN_LETTER_RE = /\p{Script=Latin}/u;

/**
 * The two halves of a name written in two scripts at once ("WHAT WE DREW 우리가 그려왔던", "박혜진 Park Hye
 * Jin", "梦蝶 - Dream to be a butterfly"): the storefront of the other service often shows one half only,
 * the Latin one or the other. Empty when the name is in one script.
 */
export function scriptHalves(text: string): string[] {
  if (!hasOtherScript(text) || !LATIN_LETTER_RE.test(text)) return [];
  const latin = text.replace(OTHER_SCRIPT_RUN_RE, ' ');
  const other = [...text.matchAll(OTHER_SCRIPT_RUN_RE)].map((m) => m[0]).join(' ');
  const halves: string[] = [];
  for (const half of [latin, other]) {
    const folded = foldText(half);
    // A half of a letter or two ("A", "X") says nothing on its own.
    if (folded.replace(/ /g, '').length >= 3) halves.push(half);
  }
  return halves;
}
