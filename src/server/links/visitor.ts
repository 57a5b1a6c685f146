import { createHash, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Config } from '../config';
import { setAppCookie } from '../http/cookies';

export const VISITOR_COOKIE = 'cf_visitor';
const VISITOR_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** The landing page's random visitor cookie, set on first visit; it identifies a browser, not a person. */
export function visitorId(c: Context, config: Config): string {
  const existing = getCookie(c, VISITOR_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{22,64}$/.test(existing)) return existing;
  const fresh = randomBytes(18).toString('base64url');
  setAppCookie(c, config, VISITOR_COOKIE, fresh, { httpOnly: true, maxAge: VISITOR_COOKIE_MAX_AGE_S });
  return fresh;
}

/** Salted with the link, so the same browser cannot be followed from one link's views to another's. */
export function visitorHash(linkId: string, visitor: string): string {
  return createHash('sha256').update(`${linkId}:${visitor}`).digest('hex');
}
