import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { DriveGrants } from './grants';

/**
 * What the two cloud-drive emulators' web pages share: escaping, a plain accessible page shell, and the
 * sign-in cookie the consent page sets. A person's files page shows files only to the browser that signed
 * in to that account, as drive.google.com and dropbox.com do; anyone else gets the service's sign-in page.
 */

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export interface PageStyle {
  service: string;
  accent: string;
}

export function htmlPage(style: PageStyle, title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} – ${escapeHtml(style.service)} sandbox</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f8f9fa; color: #1f1f1f; margin: 0; line-height: 1.5; }
  header { background: ${style.accent}; color: #fff; padding: .75rem 1rem; font-weight: 600; }
  main { max-width: 46rem; margin: 2rem auto; padding: 0 1rem; }
  .card { background: #fff; border-radius: .75rem; padding: 1.5rem; box-shadow: 0 1px 4px rgb(0 0 0 / .12); }
  table { width: 100%; border-collapse: collapse; }
  th, td { text-align: left; padding: .45rem .5rem; border-bottom: 1px solid #e0e0e0; overflow-wrap: break-word; }
  button { font: inherit; padding: .6rem 1.4rem; border-radius: .5rem; border: 1px solid #747775; background: #fff; cursor: pointer; }
  button.primary { background: ${style.accent}; border-color: ${style.accent}; color: #fff; }
  button:focus-visible, a:focus-visible { outline: 3px solid #0b57d0; outline-offset: 2px; }
  pre { background: #f1f3f4; padding: 1rem; overflow: auto; max-height: 30rem; }
  .note { color: #444746; font-size: .9rem; }
  .actions { display: flex; gap: .75rem; margin-top: 1.5rem; flex-wrap: wrap; }
</style>
</head>
<body>
<header>${escapeHtml(style.service)} (Crossfade sandbox)</header>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>`;
}

export function errorPage(style: PageStyle, heading: string, message: string): string {
  return htmlPage(style, heading, `<div class="card"><p role="alert">${escapeHtml(message)}</p></div>`);
}

export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / (1024 * 1024)).toFixed(1)} MB`;
}

/** The browser's sign-in on an emulator, opened when the person agrees on its consent page. */
export class PageSessions {
  constructor(
    private readonly grants: DriveGrants,
    private readonly cookieName: string,
    /** The emulator's mount path: the cookie is sent to its pages only. */
    private readonly path: string,
  ) {}

  signIn(c: Context, account: string): void {
    const secure = new URL(c.req.url).protocol === 'https:';
    setCookie(c, this.cookieName, this.grants.openSession(account), {
      path: this.path || '/',
      httpOnly: true,
      sameSite: 'Lax',
      secure,
      maxAge: 14 * 24 * 60 * 60,
    });
  }

  account(c: Context): string | undefined {
    return this.grants.sessionAccount(getCookie(c, this.cookieName));
  }

  signOut(c: Context): void {
    this.grants.endSession(getCookie(c, this.cookieName));
    deleteCookie(c, this.cookieName, { path: this.path || '/' });
  }
}
