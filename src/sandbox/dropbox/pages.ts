import { createHash } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { sandboxProfile } from '../accounts';
import type { FileSpace } from '../cloud-drives/file-space';
import { errorPage, escapeHtml, formatBytes, htmlPage, type PageSessions } from '../cloud-drives/web-pages';
import type { DropboxItem } from './wire';

/**
 * The Dropbox a person sees in a browser: the consent screen, and stand-ins for dropbox.com's `/home`
 * (the files of every app folder) and file preview, private to the browser signed in at consent.
 */

export const DROPBOX_STYLE = { service: 'Dropbox', accent: '#0061fe' };

const SCOPE_TEXT: Record<string, string> = {
  'account_info.read':
    'View basic information about your Dropbox account such as your username, email, and country',
  'files.metadata.read': 'View information about files and folders in its app folder',
  'files.metadata.write': 'View and edit information about files and folders in its app folder',
  'files.content.read': 'View content of files in its app folder',
  'files.content.write': 'Edit content of files in its app folder',
};

const tag = (key: string) => createHash('sha256').update(`dropbox:${key}`).digest('base64url');
export const dropboxAccountId = (key: string) => `dbid:AA${tag(key).slice(0, 38)}`;
export const dropboxUid = (key: string) =>
  String(Number.parseInt(createHash('sha256').update(`dropbox-uid:${key}`).digest('hex').slice(0, 10), 16));

export function dropboxAccount(key: string) {
  const { displayName, country } = sandboxProfile(key);
  const [givenName = '', surname = ''] = displayName.split(' ');
  return {
    accountId: dropboxAccountId(key),
    displayName,
    givenName,
    surname,
    email: `${displayName.toLowerCase().replace(/\s+/g, '.')}.${tag(key).slice(0, 6).toLowerCase()}@sandbox.example`,
    country,
  };
}

export function consentPage(
  params: Record<string, string>,
  accountKey: string,
  scopes: string[],
  action: string,
): string {
  const account = dropboxAccount(accountKey);
  const hidden = Object.entries(params)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const app = escapeHtml(new URL(params.redirect_uri ?? '').host);
  const items = scopes.map((scope) => `<li>${escapeHtml(SCOPE_TEXT[scope] ?? scope)}</li>`).join('');
  return htmlPage(
    DROPBOX_STYLE,
    `${app} would like to access the files and folders in its own app folder in your Dropbox`,
    `<div class="card">
<p>Signed in as <strong>${escapeHtml(account.displayName)}</strong> (${escapeHtml(account.email)}), your own sandbox Dropbox account.</p>
<p>It will be able to:</p>
<ul>${items}</ul>
<form method="post" action="${escapeHtml(action)}">
${hidden}
<div class="actions">
<button type="submit" name="decision" value="deny">Cancel</button>
<button type="submit" name="decision" value="allow" class="primary">Allow</button>
</div>
</form>
<p class="note">This is the Crossfade sandbox: no real Dropbox account is used, and only you can see these files.</p>
</div>`,
  );
}

const signInPage = () =>
  errorPage(
    DROPBOX_STYLE,
    'Sign in to Dropbox',
    'You are not signed in to this sandbox Dropbox account. Connect Dropbox from Crossfade (Export Options → Save to Cloud) to sign in; each person sees only their own files.',
  );

export function addDropboxPages(
  app: Hono,
  input: { space: FileSpace<DropboxItem>; sessions: PageSessions; appFolder: (clientId: string) => string },
): void {
  const { space, sessions, appFolder } = input;
  const homePath = (c: Context, path: string) => {
    const current = new URL(c.req.url).pathname;
    return `${current.slice(0, current.indexOf('/www/'))}/www${path}`;
  };

  app.get('/www/home', (c) => {
    const account = sessions.account(c);
    if (!account) return c.html(signInPage(), 401);
    const items = [...space.items(account)].sort((a, b) => b.serverModified.localeCompare(a.serverModified));
    const rows = items
      .map(
        (item) =>
          `<tr><td><a href="${homePath(c, `/preview/${encodeURIComponent(item.id)}`)}">${escapeHtml(`/Apps/${appFolder(item.clientId)}${item.pathDisplay}`)}</a></td><td>${formatBytes(item.size)}</td><td>${escapeHtml(item.serverModified.slice(0, 16).replace('T', ' '))} UTC</td></tr>`,
      )
      .join('');
    const table = items.length
      ? `<table><caption class="note">${items.length} file${items.length === 1 ? '' : 's'}</caption><thead><tr><th scope="col">Path</th><th scope="col">Size</th><th scope="col">Modified</th></tr></thead><tbody>${rows}</tbody></table>`
      : '<p>No files yet.</p>';
    return c.html(
      htmlPage(
        DROPBOX_STYLE,
        'All files',
        `<p>Signed in as ${escapeHtml(dropboxAccount(account).displayName)}.</p><div class="card">${table}</div>`,
      ),
    );
  });

  app.get('/www/preview/:id', (c) => {
    const account = sessions.account(c);
    if (!account) return c.html(signInPage(), 401);
    const item = space.items(account).find((candidate) => candidate.id === c.req.param('id'));
    const content = item ? space.content(account, item.id) : undefined;
    if (!item || !content) {
      return c.html(
        errorPage(DROPBOX_STYLE, 'File not found', 'This file does not exist or is not yours.'),
        404,
      );
    }
    const textual = /\.(csv|json|txt)$/i.test(item.pathDisplay);
    const preview = textual
      ? `<pre>${escapeHtml(new TextDecoder().decode(content.slice(0, 100_000)))}</pre>`
      : '<p>This kind of file cannot be previewed.</p>';
    return c.html(
      htmlPage(
        DROPBOX_STYLE,
        item.pathDisplay.slice(item.pathDisplay.lastIndexOf('/') + 1),
        `<p>${escapeHtml(`/Apps/${appFolder(item.clientId)}${item.pathDisplay}`)}, ${formatBytes(item.size)}. <a href="${homePath(c, '/home')}">All files</a></p>${preview}`,
      ),
    );
  });
}
