import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { RollingWindowLimiter } from './rate-limiter';

/**
 * What both emulators' web pages share: the session cookie the consent page sets (so the sandbox's web
 * player knows who is signed in, as the real ones do), the checks on their forms, and the per-address
 * limit on consent posts.
 */

/**
 * Where the app that mounts the sandbox puts the client address it worked out (behind a trusted proxy,
 * from X-Forwarded-For), in the `env` it passes to the sandbox's fetch; standalone, the socket's address.
 */
export const CLIENT_ADDRESS_ENV = 'sandboxClientAddress';

export function clientAddressOf(c: Context): string {
  const given = (c.env as Record<string, unknown> | undefined)?.[CLIENT_ADDRESS_ENV];
  if (typeof given === 'string' && given !== '') return given;
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown'; // app.request() in unit tests has no socket
  }
}

/** Consent posts per address in a rolling hour (0 = no limit), answered 429 with Retry-After beyond it. */
export class ConsentLimiter {
  private readonly limiter: RollingWindowLimiter | undefined;

  constructor(perHour: number, now: () => number) {
    this.limiter = perHour > 0 ? new RollingWindowLimiter(perHour, 60 * 60_000, now) : undefined;
  }

  /** Counts a consent post from the request's address: 0, or the seconds until the next is accepted. */
  take(c: Context): number {
    const waitMs = this.limiter?.take(clientAddressOf(c)) ?? 0;
    return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
  }
}

/**
 * The mount prefix of an emulator (`/sandbox/spotify`, `/sandbox/apple`), read from a request to one of
 * its paths: what comes before the first segment that `below` matches. Cookies are scoped to it.
 */
export function emulatorPrefix(c: Context, below: RegExp): string {
  const path = new URL(c.req.url).pathname;
  const cut = path.search(below);
  return cut > 0 ? path.slice(0, cut) : '';
}

export function setWebSessionCookie(c: Context, name: string, value: string, path: string): void {
  setCookie(c, name, value, {
    path: path || '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: new URL(c.req.url).protocol === 'https:',
    maxAge: 30 * 24 * 60 * 60,
  });
}

export const webSessionCookie = (c: Context, name: string) => getCookie(c, name);

/**
 * A form post from the page itself: an `Origin` (when the browser sends one) equal to the page's own, and
 * the form token of the signed-in session. (The cookie is SameSite=Lax too.)
 */
export function isOwnFormPost(c: Context, expectedToken: string, sentToken: unknown): boolean {
  const origin = c.req.header('origin');
  if (origin !== undefined && origin !== 'null' && origin !== new URL(c.req.url).origin) return false;
  return typeof sentToken === 'string' && sentToken.length > 0 && sentToken === expectedToken;
}

export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A page saying why a consent was refused, with the status to answer. */
export function refusalPage(service: 'Spotify' | 'Apple Music', message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign-in refused – ${service} sandbox</title><style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}</style></head><body><main><h1>${service} sandbox: sign-in refused</h1><p role="alert">${escapeHtml(message)}</p></main></body></html>`;
}

export const tooManyConsentsText = (seconds: number) =>
  `Too many sign-ins from your address. Try again in ${Math.max(1, Math.ceil(seconds / 60))} minute${seconds > 60 ? 's' : ''}.`;
