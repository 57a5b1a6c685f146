/**
 * What the request log may say about a path: paths can carry bearer tokens (a merge invitation's link is
 * `/api/merge/invitations/<token>`). Logs keep their shape, never the values. (Errors: logger.ts.)
 */

/** Path segments that are secrets: the segment after each of these prefixes is replaced. */
const TOKEN_PREFIXES = ['/api/merge/invitations/', '/merge/invite/'];
/** Any other segment that looks like a random token (32+ base64url characters, not a UUID). */
const TOKEN_LIKE = /^[A-Za-z0-9_-]{32,}$/;

export function redactPath(path: string): string {
  for (const prefix of TOKEN_PREFIXES) {
    if (path.startsWith(prefix)) {
      const rest = path.slice(prefix.length);
      const slash = rest.indexOf('/');
      return `${prefix}[token]${slash === -1 ? '' : rest.slice(slash)}`;
    }
  }
  return path
    .split('/')
    .map((segment) => (TOKEN_LIKE.test(segment) ? '[token]' : segment))
    .join('/');
}
