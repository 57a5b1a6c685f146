/**
 * What the logs may say about a request or an error. Paths can carry bearer tokens (a merge invitation's
 * link is `/api/merge/invitations/<token>`), and error messages carry values (the database driver puts
 * a failed query's parameters in its message: user ids, e-mails, token hashes). Logs keep the shape of
 * both, never the values.
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

/**
 * The error as logs may show it: its kind (class name and driver code) and where it was raised, without
 * the message, which can hold the values that caused it.
 */
export function describeErrorForLog(error: unknown): { type: string; code?: string; at?: string[] } {
  if (!(error instanceof Error)) return { type: typeof error };
  const code = codeOf(error) ?? codeOf((error as { cause?: unknown }).cause);
  const at = (error.stack ?? '')
    .split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .slice(0, 5)
    .map((line) => line.trim());
  const cause = (error as { cause?: unknown }).cause;
  const type = cause instanceof Error ? `${error.name} (${cause.name})` : error.name;
  return { type, ...(code ? { code } : {}), at };
}

function codeOf(value: unknown): string | undefined {
  if (value && typeof value === 'object' && 'code' in value) {
    const code = (value as { code: unknown }).code;
    if (typeof code === 'string' || typeof code === 'number') return String(code);
  }
  return undefined;
}
