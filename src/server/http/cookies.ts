import type { Context } from 'hono';
import { setCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import type { Config } from '../config';

/** Secure when people reach Crossfade over HTTPS (directly, or through a trusted proxy). */
export function isSecureRequest(c: Context, config: Config): boolean {
  if (config.publicUrl.startsWith('https://')) return true;
  return config.TRUST_PROXY && c.req.header('x-forwarded-proto') === 'https';
}

export function setAppCookie(
  c: Context,
  config: Config,
  name: string,
  value: string,
  options: CookieOptions = {},
) {
  setCookie(c, name, value, { path: '/', sameSite: 'Lax', secure: isSecureRequest(c, config), ...options });
}
