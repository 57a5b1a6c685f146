/**
 * The one check for a redirect target taken from input (`returnTo` after connecting a service, `next`
 * after signing in): only a path of our own origin that starts with a single `/`. Anything else — another
 * site (`//evil.example`, `https://evil.example`), a backslash trick (`/\evil.example`, which browsers
 * read as `//`), a dot-segment trick (`/.//evil.example/x`, which URL parsing turns into `//evil.example/x`),
 * control characters — gives `fallback`.
 *
 * The value is parsed with `new URL(value, origin)` and the origins are compared; the answer is the
 * parsed path, query and fragment, checked again so that what the browser will follow is what was checked.
 */
export function safeRedirectPath(
  value: string | null | undefined,
  fallback: string,
  origin = 'http://crossfade.invalid',
): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return fallback;
  // Browsers drop tabs and line breaks inside URLs and read `\` as `/`: refuse rather than guess.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return fallback;
  if (!value.startsWith('/') || value.startsWith('//')) return fallback;
  let base: URL;
  let parsed: URL;
  try {
    base = new URL(origin);
    parsed = new URL(value, base);
  } catch {
    return fallback;
  }
  if (parsed.origin !== base.origin) return fallback;
  const path = `${parsed.pathname}${parsed.search}${parsed.hash}`;
  // The normalised path must itself be a single-slash path of our origin (`/.//x` normalises to `//x`).
  if (!path.startsWith('/') || path.startsWith('//')) return fallback;
  try {
    if (new URL(path, base).origin !== base.origin) return fallback;
  } catch {
    return fallback;
  }
  return path;
}
