import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from '../../shared/api/auth';
import type { AppDeps, AppEnv } from '../app-context';
import { findSessionUser } from '../auth/sessions';
import { setAppCookie } from './cookies';
import { ApiError } from './errors';
import { assertSafeRequestText } from './safe-request-text';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Runs before every /api route: loads the signed-in user from the session cookie and enforces CSRF
 * protection (the client's address is already known: client-address.ts).
 *
 * CSRF: double-submit token. Each browser gets a random `cf_csrf` cookie (readable by our page) and every
 * mutating request must echo it in the `x-csrf-token` header. Another site can make the browser send the
 * cookie but cannot read it to set the header. A cross-site `Origin` is refused outright as a second line.
 * SameSite=Lax on the session cookie is the third.
 */
export function requestContext(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    assertSafeRequestText(c);

    let csrfToken = getCookie(c, CSRF_COOKIE);
    if (!csrfToken || !/^[A-Za-z0-9_-]{43}$/.test(csrfToken)) {
      csrfToken = randomBytes(32).toString('base64url');
      setAppCookie(c, deps.config, CSRF_COOKIE, csrfToken, { httpOnly: false, maxAge: 365 * 24 * 60 * 60 });
    }
    c.set('csrfToken', csrfToken);

    if (MUTATING.has(c.req.method)) {
      const origin = c.req.header('origin');
      if (origin && origin !== 'null' && !sameOrigin(origin, c.req.url, deps.config.publicUrl)) {
        throw new ApiError(403, 'Requests from other sites are not accepted.');
      }
      const sent = c.req.header(CSRF_HEADER) ?? '';
      if (!constantTimeEqual(sent, csrfToken)) {
        throw new ApiError(
          403,
          'Your security token is missing or out of date. Reload the page and try again.',
        );
      }
    }

    const sessionToken = getCookie(c, SESSION_COOKIE) ?? null;
    c.set('sessionToken', sessionToken);
    c.set('user', sessionToken ? await findSessionUser(deps.db, sessionToken) : null);
    await next();
  };
}

function sameOrigin(origin: string, requestUrl: string, publicUrl: string): boolean {
  try {
    const originHost = new URL(origin).host;
    return originHost === new URL(requestUrl).host || originHost === new URL(publicUrl).host;
  } catch {
    return false;
  }
}

function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
