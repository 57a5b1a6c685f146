import { z } from 'zod';

/**
 * The one text rule at every boundary. PostgreSQL refuses NUL in text ("invalid byte sequence 0x00") and
 * a lone UTF-16 surrogate cannot be encoded as UTF-8 (JSON columns, `encodeURIComponent`), so such a
 * string that slips through becomes a 500 deep inside a service. Input people send is refused up front
 * with this message; text we take from elsewhere (CSV cells, provider answers) is cleaned instead.
 */
export const UNSAFE_TEXT_MESSAGE = 'Text may not contain NUL characters or broken Unicode (lone surrogates).';

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point of this rule.
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSAFE_TEXT_GLOBAL = new RegExp(UNSAFE_TEXT.source, 'g');

export const isSafeText = (value: string) => !UNSAFE_TEXT.test(value);

/** Drops NUL and replaces a lone surrogate with U+FFFD, as a UTF-8 decoder would. */
export const cleanText = (value: string) =>
  value.replace(UNSAFE_TEXT_GLOBAL, (match) => (match === '\u0000' ? '' : '\uFFFD'));

/**
 * `cleanText` over every string of a parsed JSON value, object keys included: what a service answers is
 * cleaned once where it is read, so no title, name or description from outside can fail a write later.
 */
export function cleanJsonText(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return isSafeText(value) ? value : cleanText(value);
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => cleanJsonText(item, depth + 1));
  // fromEntries defines own properties, so a key such as "__proto__" stays plain data.
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [cleanText(key), cleanJsonText(item, depth + 1)]),
  );
}

/** `z.string()` with the text rule: every string schema of the API is built from this. */
export const text = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine(isSafeText, { message: UNSAFE_TEXT_MESSAGE, abort: true });

/**
 * True when any string in a parsed JSON value, object keys included, breaks the text rule. The server
 * checks every body with this before its schema runs, so a schema built by hand cannot miss it.
 */
export function containsUnsafeText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return !isSafeText(value);
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((item) => containsUnsafeText(item, depth + 1));
  for (const [key, item] of Object.entries(value)) {
    if (!isSafeText(key) || containsUnsafeText(item, depth + 1)) return true;
  }
  return false;
}
