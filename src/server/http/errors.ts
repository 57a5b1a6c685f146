import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from '../logger';
import { ProviderError } from '../providers/http';

/**
 * Errors a route raises on purpose. They reach the person as `{message}` with this status; anything else
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

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message = 'Please sign in to continue.') => new ApiError(401, message);
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (message: string) => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);
export const paymentRequired = (message: string) => new ApiError(402, message);

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
