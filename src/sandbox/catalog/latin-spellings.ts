import anyAscii from 'any-ascii';

const ASCII_RE = /^[\x20-\x7e\t\n\r]*$/;
const OTHER_SCRIPT_LETTER_RE = /(?!\p{Script=Latin})\p{L}/u;
// any-ascii runs Han and Hangul syllables together, capitalised ("MengDie"): split them back into words too.
const SYLLABLE_BOUNDARY_RE = /(?<=\p{Ll})(?=\p{Lu})/gu;
// Runs of one script: "正しくなれない" is Han then Kana, and is also found as "zheng shikunarenai".
const SCRIPT_RUN_RE =
  /\p{Script=Han}+|[\p{Script=Hiragana}\p{Script=Katakana}\u30fc]+|\p{Script=Hangul}+|\p{Script=Cyrillic}+|\p{Script=Greek}+/gu;

/**
 * The Latin spellings a catalog search also answers to for a name written in another script: both
 * services find "Москва" by "moskva" and "梦蝶" by "meng die", whatever storefront shows which form. Empty
 * for names in Latin letters. Each search index tokenizes these its own way.
 */
export function latinSpellings(text: string): string[] {
  if (ASCII_RE.test(text) || !OTHER_SCRIPT_LETTER_RE.test(text)) return [];
  const latin = anyAscii(text);
  const byRun = anyAscii(
    text.replace(SCRIPT_RUN_RE, (run) => {
      const spelled = anyAscii(run);
      return /[\p{Script=Han}\p{Script=Hangul}]/u.test(run)
        ? ` ${spelled.replace(SYLLABLE_BOUNDARY_RE, ' ')} `
        : ` ${spelled} `;
    }),
  )
    .replace(/\s+/g, ' ')
    .trim();
  return byRun === latin ? [latin] : [latin, byRun];
}
