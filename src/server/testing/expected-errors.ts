/**
 * The errors a test or benchmark may expect and get past, by name (issue 26: nothing swallows an error it
 * does not name). Anything else is rethrown by the caller.
 */

/** Codes of a connection that was refused or dropped: a server still starting, or one just killed. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/** `fetch` failed because no connection could be made or kept (not an HTTP answer, not a bug of ours). */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof TypeError) || error.message !== 'fetch failed') return false;
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && CONNECTION_CODES.has(code);
}

/** A file or a process's /proc entry that is not there (any other file-system error is a failure). */
export function isMissingFile(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === 'ENOENT';
}
