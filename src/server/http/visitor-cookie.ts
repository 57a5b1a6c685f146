import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Config } from '../config';
import { setAppCookie } from './cookies';

export const VISITOR_COOKIE = 'cf_visitor';
const VISITOR_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/**
 * The link landing page's random visitor cookie, set on first visit; it identifies a browser, not a
 * person. The links service only ever sees the value (links/visitor.ts hashes it per link).
 */
export function visitorId(c: Context, config: Config): string {
  const existing = getCookie(c, VISITOR_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{22,64}$/.test(existing)) return existing;
  const fresh = randomBytes(18).toString('base64url');
  setAppCookie(c, config, VISITOR_COOKIE, fresh, { httpOnly: true, maxAge: VISITOR_COOKIE_MAX_AGE_S });
  return fresh;
}
