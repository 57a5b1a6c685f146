import { createHash } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { sandboxProfile } from '../accounts';
import type { FileSpace } from '../cloud-drives/file-space';
import { errorPage, escapeHtml, formatBytes, htmlPage, type PageSessions } from '../cloud-drives/web-pages';
import { DRIVE_FILE_SCOPE, DRIVE_SCOPE, type DriveItem, FOLDER_MIME_TYPE } from './wire';

/**
 * The Google side a person sees in a browser: the consent screen, and stand-ins for drive.google.com's
 * "My Drive", folder and file pages, private to the browser signed in to that sandbox account.
 */

export const GOOGLE_STYLE = { service: 'Google Drive', accent: '#0b57d0' };

const SCOPE_TEXT: Record<string, string> = {
  [DRIVE_FILE_SCOPE]:
    'See, edit, create, and delete only the specific Google Drive files you use with this app',
  [DRIVE_SCOPE]: 'See, edit, create, and delete all of your Google Drive files',
  openid: 'Associate you with your personal info on Google',
  email: 'See your primary Google Account email address',
  profile: 'See your personal info, including any personal info you’ve made publicly available',
};

/** The Google identity of a sandbox account: its name from the shared account key, an invented address. */
export function googleAccount(key: string) {
  const { displayName } = sandboxProfile(key);
  const tag = createHash('sha256').update(`google-drive:${key}`).digest('hex');
  return {
    displayName,
    emailAddress: `${displayName.toLowerCase().replace(/\s+/g, '.')}.${tag.slice(0, 6)}@sandbox.example`,
    permissionId: tag.slice(0, 20),
  };
}

export function consentPage(
  params: Record<string, string>,
  accountKey: string,
  scopes: string[],
  action: string,
): string {
  const account = googleAccount(accountKey);
  const hidden = Object.entries(params)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const app = escapeHtml(new URL(params.redirect_uri ?? '').host);
  const items = scopes.map((scope) => `<li>${escapeHtml(SCOPE_TEXT[scope] ?? scope)}</li>`).join('');
  return htmlPage(
    GOOGLE_STYLE,
    `${app} wants access to your Google Account`,
    `<div class="card">
<p>Signed in as <strong>${escapeHtml(account.displayName)}</strong> (${escapeHtml(account.emailAddress)}), your own sandbox Google account.</p>
<p>This will allow ${app} to:</p>
<ul>${items}</ul>
<form method="post" action="${escapeHtml(action)}">
${hidden}
<div class="actions">
<button type="submit" name="decision" value="deny">Cancel</button>
<button type="submit" name="decision" value="allow" class="primary">Allow</button>
</div>
</form>
<p class="note">This is the Crossfade sandbox: no real Google account is used, and only you can see these files.</p>
</div>`,
  );
}

const signInPage = () =>
  errorPage(
    GOOGLE_STYLE,
    'Sign in to Google Drive',
    'You are not signed in to this sandbox Google account. Connect Google Drive from Crossfade (Export Options → Save to Cloud) to sign in; each person sees only their own files.',
  );

export function addDrivePages(
  app: Hono,
  input: { space: FileSpace<DriveItem>; sessions: PageSessions },
): void {
  const { space, sessions } = input;
  /** The signed-in account, or the page to answer instead. */
  const signedIn = (c: Context) => sessions.account(c);

  const listPage = (c: Context, folderId?: string) => {
    const account = signedIn(c);
    if (!account) return c.html(signInPage(), 401);
    const items = space.items(account);
    const folder = folderId ? items.find((item) => item.id === folderId) : undefined;
    if (folderId && folder?.mimeType !== FOLDER_MIME_TYPE) {
      return c.html(
        errorPage(GOOGLE_STYLE, 'You need access', 'This folder does not exist or is not yours.'),
        404,
      );
    }
    const names = new Map(items.map((item) => [item.id, item.name]));
    const shown = items
      .filter((item) => (folderId ? item.parents.includes(folderId) : item.mimeType !== FOLDER_MIME_TYPE))
      .sort((a, b) => b.createdTime.localeCompare(a.createdTime));
    const rows = shown
      .map(
        (item) =>
          `<tr><td><a href="${pagePath(c, `/file/d/${item.id}/view`)}">${escapeHtml(item.name)}</a></td><td>${escapeHtml(item.parents.map((parent) => names.get(parent) ?? 'My Drive').join(', '))}</td><td>${formatBytes(item.size)}</td><td>${escapeHtml(item.createdTime.slice(0, 16).replace('T', ' '))} UTC</td></tr>`,
      )
      .join('');
    const { displayName } = googleAccount(account);
    const table = shown.length
      ? `<table><caption class="note">${shown.length} file${shown.length === 1 ? '' : 's'}</caption><thead><tr><th scope="col">Name</th><th scope="col">Folder</th><th scope="col">Size</th><th scope="col">Created</th></tr></thead><tbody>${rows}</tbody></table>`
      : '<p>No files yet.</p>';
    return c.html(
      htmlPage(
        GOOGLE_STYLE,
        folder ? folder.name : 'My Drive',
        `<p>Signed in as ${escapeHtml(displayName)}.</p><div class="card">${table}</div>`,
      ),
    );
  };

  app.get('/drive/my-drive', (c) => listPage(c));
  app.get('/drive/folders/:id', (c) => listPage(c, c.req.param('id')));

  app.get('/file/d/:id/view', (c) => {
    const account = signedIn(c);
    if (!account) return c.html(signInPage(), 401);
    const item = space.items(account).find((candidate) => candidate.id === c.req.param('id'));
    const content = item ? space.content(account, item.id) : undefined;
    if (!item || !content) {
      return c.html(
        errorPage(GOOGLE_STYLE, 'You need access', 'This file does not exist or is not yours.'),
        404,
      );
    }
    const textual = /^(text\/|application\/json)/.test(item.mimeType);
    const preview = textual
      ? `<pre>${escapeHtml(new TextDecoder().decode(content.slice(0, 100_000)))}</pre>`
      : `<p>${escapeHtml(item.mimeType)} files cannot be previewed.</p>`;
    return c.html(
      htmlPage(
        GOOGLE_STYLE,
        item.name,
        `<p>${formatBytes(item.size)}, ${escapeHtml(item.mimeType)}, created ${escapeHtml(item.createdTime)}. <a href="${pagePath(c, '/drive/my-drive')}">My Drive</a></p>${preview}`,
      ),
    );
  });
}

/** A link to another page of this emulator, wherever it is mounted. */
function pagePath(c: Context, path: string): string {
  const current = new URL(c.req.url).pathname;
  const cut = current.search(/\/(drive|file)\//);
  return `${cut >= 0 ? current.slice(0, cut) : ''}${path}`;
}
