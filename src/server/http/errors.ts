import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainError, type DomainErrorKind } from '../domain-errors';
import type { Logger } from '../logger';
import { ProviderError } from '../providers/http';

/**
 * Errors the HTTP layer itself raises (CSRF, body limits, request throttles): services raise
 * `DomainError`s instead (src/server/domain-errors.ts). They reach the person as `{message}` with this status; anything else
 * is logged and answered with a generic 500 (never a stack trace).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/** Each kind of domain error as the HTTP status it is answered with. */
const domainStatus: Record<DomainErrorKind, ContentfulStatusCode> = {
  invalid: 400,
  unauthenticated: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  rate_limited: 429,
  not_configured: 503,
  unavailable: 503,
};

/** How a provider failure is shown: the message is already written for a person. */
const providerStatus: Record<ProviderError['kind'], ContentfulStatusCode> = {
  bad_request: 400,
  unauthorized: 502,
  forbidden: 403,
  not_registered: 403,
  reconnect_required: 409,
  not_found: 404,
  rate_limited: 503,
  unavailable: 503,
  malformed: 502,
};

export function renderError(error: unknown, c: Context, logger: Logger): Response {
  if (error instanceof DomainError) {
    if (error.retryAfterSeconds !== undefined) c.header('Retry-After', String(error.retryAfterSeconds));
    const problems = error.problems === undefined ? {} : { problems: error.problems };
    return c.json({ message: error.message, ...problems }, domainStatus[error.kind]);
  }
  if (error instanceof ApiError) {
    for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
    return c.json({ message: error.message }, error.status);
  }
  if (error instanceof ProviderError) {
    logger.warn({ service: error.service, kind: error.kind, status: error.status }, 'provider error');
    return c.json({ message: error.message }, providerStatus[error.kind]);
  }
  // Hono's own HTTPException (e.g. body limit) carries a status and a plain message.
  if (
    error instanceof Error &&
    'getResponse' in error &&
    'status' in error &&
    typeof error.status === 'number'
  ) {
    const status = error.status as ContentfulStatusCode;
    return c.json({ message: error.message || 'The request could not be handled.' }, status);
  }
  // The error's kind and the route pattern only: never the path's ids, the query or the values involved.
  logger.error({ err: error, method: c.req.method, route: c.req.routePath }, 'unhandled error');
  return c.json({ message: 'Something went wrong on our side. Please try again.' }, 500);
}
