/**
 * Text normalization shared by every part of the matcher. Two layers:
 * - `unifyText` keeps the string readable (for queries sent to a service): NFKC, one kind of quote,
 *   apostrophe and dash, HTML entities that leak out of some catalogs decoded, whitespace collapsed.
 * - `foldText` is for comparison only: lower case, Latin diacritics removed, "&"/"+" read as "and",
 *   punctuation dropped. Letters of every script survive, so CJK, Cyrillic or Hangul titles never fold to "".
 */

const HTML_ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&quot;': '"',
  '&#39;': "'",
  '&apos;': "'",
  '&lt;': '<',
  '&gt;': '>',
  '&nbsp;': ' ',
};

// Characters NFKC leaves alone but that people and catalogs use interchangeably.
const CHAR_MAP: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u201B': "'",
  '\u2032': "'",
  '\u00B4': "'",
  '`': "'",
  '\u02BC': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u201F': '"',
  '\u00AB': '"',
  '\u00BB': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u2212': '-',
  '\u00A0': ' ',
  '\u3000': ' ',
};

// Letters that NFD does not split into base + mark but that readers treat as the plain letter.
const LATIN_SPECIALS: Record<string, string> = {
  ß: 'ss',
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
};

const ENTITY_RE = /&(?:amp|quot|#39|apos|lt|gt|nbsp);/g;
const MAPPED_CHARS_RE =
  /[\u2018\u2019\u201A\u201B\u2032\u00B4`\u02BC\u201C-\u201F\u00AB\u00BB\u2010-\u2015\u2212\u00A0\u3000]/g;
const SPACES_RE = /\s+/g;

const PLAIN_ASCII_RE = /^[\x21-\x25\x27-\x5f\x61-\x7e]+(?: [\x21-\x25\x27-\x5f\x61-\x7e]+)*$/;

/** NFKC, unified quotes/apostrophes/dashes, decoded entities, collapsed whitespace. Case and accents kept. */
export function unifyText(input: string): string {
  // Most titles are plain ASCII with single spaces and no "&" or backtick: nothing to do, and this runs per track.
  if (PLAIN_ASCII_RE.test(input)) return input;
  let s = input.normalize('NFKC');
  if (s.includes('&')) s = s.replace(ENTITY_RE, (m) => HTML_ENTITIES[m] ?? m);
  s = s.replace(MAPPED_CHARS_RE, (c) => CHAR_MAP[c] ?? c);
  return s.replace(SPACES_RE, ' ').trim();
}

const COMBINING_LATIN_MARKS_RE = /[\u0300-\u036f]/g;
const LATIN_SPECIALS_RE = /[ßøæœłđðþıħ]/g;
const APOSTROPHE_RE = /'/g;
const AND_RE = /\s*[&+]\s*/g;
// \p{M} stays: Thai, Devanagari and other scripts write vowels as combining marks.
const NON_WORD_RE = /[^\p{L}\p{N}\p{M}]+/gu;
const ASCII_ONLY_RE = /^[\x20-\x7e]*$/;

/** Removes the accents of Latin (and Greek/Cyrillic) letters; other scripts' marks are untouched. */
export function foldDiacritics(input: string): string {
  if (ASCII_ONLY_RE.test(input)) return input;
  return input
    .normalize('NFD')
    .replace(COMBINING_LATIN_MARKS_RE, '')
    .normalize('NFC')
    .replace(LATIN_SPECIALS_RE, (c) => LATIN_SPECIALS[c] ?? c);
}

/**
 * Folds plain ASCII by hand: the common case, several times faster than the general path, and it builds
 * the result from whole-word slices so a prepared track holds a few flat strings, not one rope per letter.
 */
function foldAscii(input: string): string | null {
  let out = '';
  let runStart = -1;
  let pendingSpace = false;
  for (let i = 0; i <= input.length; i++) {
    const c = i < input.length ? input.charCodeAt(i) : 0x20;
    if (c > 0x7e || c === 0x26 || c === 0x2b) return null; // "&" and "+" read as "and": general path
    const isWordChar = (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);
    if (isWordChar) {
      if (runStart < 0) runStart = i;
      continue;
    }
    if (runStart >= 0) {
      out += pendingSpace && out !== '' ? ` ${input.slice(runStart, i)}` : input.slice(runStart, i);
      runStart = -1;
      pendingSpace = false;
    }
    // Apostrophes join their word ("don't" → "dont"); every other mark separates words.
    if (c !== 0x27 && c !== 0x60) pendingSpace = true;
  }
  return out.toLowerCase();
}

function finishFold(lowered: string): string {
  return lowered
    .replace(APOSTROPHE_RE, '')
    .replace(AND_RE, ' and ')
    .replace(NON_WORD_RE, ' ')
    .replace(SPACES_RE, ' ')
    .trim();
}

/** The comparison key of a piece of text: idempotent, and never empty when the input had letters or digits. */
export function foldText(input: string): string {
  const ascii = foldAscii(input);
  if (ascii !== null) return ascii;
  const lowered = unifyText(input).toLowerCase();
  const folded = finishFold(foldDiacritics(lowered));
  // A string made only of marks (NFKC turns "ͺ" into a lone combining sign) keeps its marks, not nothing.
  return folded !== '' ? folded : finishFold(lowered);
}

/** Words of a folded string (already split on spaces). */
export function foldedWords(folded: string): string[] {
  return folded === '' ? [] : folded.split(' ');
}
