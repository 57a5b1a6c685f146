import type { Context } from 'hono';
import { setCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import type { AppEnv } from '../app-context';
import type { Config } from '../config';

type ClientContext = Context<AppEnv>;

/** Secure when people reach Crossfade over HTTPS (directly, or through a trusted proxy: client-address.ts). */
export function isSecureRequest(c: ClientContext, config: Config): boolean {
  if (config.publicUrl.startsWith('https://')) return true;
  return c.get('forwardedProtocol') === 'https';
}

export function setAppCookie(
  c: ClientContext,
  config: Config,
  name: string,
  value: string,
  options: CookieOptions = {},
) {
  setCookie(c, name, value, { path: '/', sameSite: 'Lax', secure: isSecureRequest(c, config), ...options });
}
