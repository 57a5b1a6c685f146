import type { Context } from 'hono';
import { escapeHtml, isOwnFormPost } from './web-session';

/**
 * The sandbox's own web player pages for a playlist, shared by both emulators (decision 0022): the tracks
 * for whoever may see them, and for the owner the edits the services' apps offer (add a song found by
 * search, remove one, move one up or down). Plain HTML forms: keyboard and screen-reader friendly without
 * a script, each post carrying the session's form token and answered with a redirect back to the page.
 */

export type Service = 'Spotify' | 'Apple Music';

const THEMES: Record<Service, string> = {
  Spotify:
    'body{font-family:system-ui,sans-serif;background:#121212;color:#fff;margin:0}a{color:#1ed760}button{background:#2a2a2a;color:#fff;border:1px solid #777}input{background:#fff;color:#000}.detail{color:#b3b3b3}',
  'Apple Music':
    'body{font-family:-apple-system,system-ui,sans-serif;background:#f5f5f7;color:#1d1d1f;margin:0}a{color:#c4153a}button{background:#fff;color:#1d1d1f;border:1px solid #c7c7cc}.detail{color:#515154}',
};
const LAYOUT =
  'main{max-width:44rem;margin:2rem auto;padding:0 1rem}li{padding:.3rem 0}ol,ul{padding-left:1.5rem}form.inline{display:inline}button{font:inherit;font-size:.85rem;padding:.2rem .6rem;border-radius:999px;cursor:pointer;margin-left:.3rem}button:disabled{opacity:.4;cursor:default}button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #0a84ff;outline-offset:2px}input[type=search]{font:inherit;padding:.3rem .5rem;width:60%}';

/** A page of the service's sandbox with the service's look. */
export function servicePage(service: Service, title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} – ${service} sandbox</title><style>${THEMES[service]}${LAYOUT}</style></head><body><main><p>${service} sandbox</p><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

/** What a playlist page shows to someone who is not signed in as its owner (answered with 401). */
export function signInPage(service: Service, signedInAs: string | undefined): string {
  const who = signedInAs
    ? `You are signed in as ${escapeHtml(signedInAs)}, who cannot see it.`
    : 'You are not signed in.';
  return servicePage(
    service,
    'Log in to see this playlist',
    `<p role="alert">This playlist is private: only its owner sees it. ${who}</p><p>In the sandbox you sign in by connecting Crossfade to ${service}: its consent page signs this browser in.</p>`,
  );
}

/** What an edit that was not made answers: why, and the way back to the playlist. */
export function notChangedPage(service: Service, why: string, backTo?: string): string {
  const back = backTo ? `<p><a href="${escapeHtml(backTo)}">Back to the playlist</a></p>` : '';
  return servicePage(service, 'Not changed', `<p role="alert">${escapeHtml(why)}</p>${back}`);
}

export interface PlaylistRow {
  /** What identifies the item in an edit, so an edit made on a stale page is refused. */
  key: string;
  title: string;
  detail: string;
}

export interface PlaylistPageModel {
  service: Service;
  name: string;
  byline: string;
  signedInAs?: string | undefined;
  rows: PlaylistRow[];
  /** Present for the owner: where the page's forms post, and what they show. */
  edit?: {
    action: string;
    formToken: string;
    query: string;
    results: { id: string; title: string; detail: string }[];
    /** The button to focus after an edit (`up-3`, `down-3`, `add`), so the keyboard stays where it was. */
    focus?: string | undefined;
    /** The edit just made (`?done=`), said in the status line. */
    done?: string | undefined;
  };
}

/** What the status line says after each edit (only these: the page never echoes text from a link). */
const DONE_MESSAGES: Record<string, string> = {
  add: 'Added to the end of the playlist.',
  remove: 'Removed from the playlist.',
  'move-up': 'Moved up.',
  'move-down': 'Moved down.',
};

/** Rows per page of a long playlist. */
export const ROWS_PER_PAGE = 100;

export function playlistPage(model: PlaylistPageModel, pageNumber: number): string {
  const { edit } = model;
  const offset = pageNumber * ROWS_PER_PAGE;
  const shown = model.rows.slice(offset, offset + ROWS_PER_PAGE);
  const rows = shown.map((row, index) => playlistRow(model, row, offset + index)).join('');
  const pages = pageLinks(model.rows.length, pageNumber);
  const signedIn = model.signedInAs
    ? `<p class="detail">Signed in as ${escapeHtml(model.signedInAs)}</p>`
    : '';
  const status = edit ? `<p role="status">${DONE_MESSAGES[edit.done ?? ''] ?? ''}</p>` : '';
  return servicePage(
    model.service,
    model.name,
    `${signedIn}<p>${escapeHtml(model.byline)}</p>${status}${edit ? searchSection(model, pageNumber) : ''}<h2 id="songs">Songs</h2>${pages}<ol start="${offset + 1}" aria-labelledby="songs">${rows}</ol>${pages}`,
  );
}

function playlistRow(model: PlaylistPageModel, row: PlaylistRow, position: number): string {
  const id = `item-${position}`;
  const label = `<span id="${id}">${escapeHtml(row.title)}</span> <span class="detail">${escapeHtml(row.detail)}</span>`;
  const { edit } = model;
  if (!edit) return `<li>${label}</li>`;
  const last = model.rows.length - 1;
  const form = (path: string, button: string, focusKey: string, disabled = false) =>
    `<form class="inline" method="post" action="${escapeHtml(`${edit.action}/${path}`)}"><input type="hidden" name="token" value="${escapeHtml(edit.formToken)}"><input type="hidden" name="position" value="${position}"><input type="hidden" name="item" value="${escapeHtml(row.key)}"><button type="submit" aria-describedby="${id}"${disabled ? ' disabled' : ''}${edit.focus === focusKey ? ' autofocus' : ''}>${button}</button></form>`;
  return `<li>${label}${form('move-up', 'Move up', `up-${position}`, position === 0)}${form('move-down', 'Move down', `down-${position}`, position === last)}${form('remove', 'Remove', `remove-${position}`)}</li>`;
}

function searchSection(model: PlaylistPageModel, pageNumber: number): string {
  const edit = model.edit;
  if (!edit) return '';
  const results = edit.results
    .map(
      (result, index) =>
        `<li><span id="result-${index}">${escapeHtml(result.title)}</span> <span class="detail">${escapeHtml(result.detail)}</span><form class="inline" method="post" action="${escapeHtml(`${edit.action}/add`)}"><input type="hidden" name="token" value="${escapeHtml(edit.formToken)}"><input type="hidden" name="track" value="${escapeHtml(result.id)}"><input type="hidden" name="q" value="${escapeHtml(edit.query)}"><button type="submit" aria-describedby="result-${index}">Add</button></form></li>`,
    )
    .join('');
  const found = edit.query
    ? results
      ? `<ul aria-label="Search results">${results}</ul>`
      : `<p>No songs found for “${escapeHtml(edit.query)}”.</p>`
    : '';
  const page = pageNumber > 0 ? `<input type="hidden" name="page" value="${pageNumber}">` : '';
  return `<section aria-labelledby="add-songs"><h2 id="add-songs">Add songs</h2><form method="get" role="search" aria-label="Search for songs">${page}<input type="search" name="q" aria-label="Search for songs" value="${escapeHtml(edit.query)}"${edit.focus === 'search' ? ' autofocus' : ''}><button type="submit">Search</button></form>${found}</section>`;
}

function pageLinks(total: number, pageNumber: number): string {
  const count = Math.ceil(total / ROWS_PER_PAGE);
  if (count <= 1) return '';
  const previous = pageNumber > 0 ? `<a href="?page=${pageNumber - 1}">Previous songs</a> ` : '';
  const next = pageNumber < count - 1 ? `<a href="?page=${pageNumber + 1}">Next songs</a>` : '';
  return `<nav aria-label="Pages of songs"><p>Songs ${pageNumber * ROWS_PER_PAGE + 1}–${Math.min(total, (pageNumber + 1) * ROWS_PER_PAGE)} of ${total}. ${previous}${next}</p></nav>`;
}

/** The page number asked for (`?page=`), within the playlist. */
export function pageNumberOf(c: Context, total: number): number {
  const asked = Number(c.req.query('page') ?? '0');
  const last = Math.max(0, Math.ceil(total / ROWS_PER_PAGE) - 1);
  return Number.isInteger(asked) && asked >= 0 ? Math.min(asked, last) : 0;
}

/** An edit posted by the page's own form: what it asks for, or why it is refused (with the status). */
export type PageEdit =
  | { kind: 'add'; trackId: string; query: string }
  | { kind: 'remove' | 'move-up' | 'move-down'; position: number; item: string }
  | { refused: string; status: 400 | 403 | 409 };

export async function readPageEdit(
  c: Context,
  kind: string,
  formToken: string,
  rows: readonly PlaylistRow[],
): Promise<PageEdit> {
  const form = await c.req.parseBody();
  if (!isOwnFormPost(c, formToken, form.token)) {
    return {
      refused: 'This form did not come from your own page. Reload the playlist and try again.',
      status: 403,
    };
  }
  if (kind === 'add') {
    const trackId = typeof form.track === 'string' ? form.track : '';
    const query = typeof form.q === 'string' ? form.q.slice(0, 200) : '';
    return trackId ? { kind, trackId, query } : { refused: 'No song was chosen.', status: 400 };
  }
  if (kind !== 'remove' && kind !== 'move-up' && kind !== 'move-down') {
    return { refused: 'The sandbox page has no such edit.', status: 400 };
  }
  const position = Number(form.position);
  const item = typeof form.item === 'string' ? form.item : '';
  const target = Number.isInteger(position) ? rows[position] : undefined;
  const outOfRange =
    (kind === 'move-up' && position === 0) || (kind === 'move-down' && position === rows.length - 1);
  if (!target || target.key !== item || outOfRange) {
    return {
      refused: 'The playlist changed since this page was loaded. Reload it and try again.',
      status: 409,
    };
  }
  return { kind, position, item };
}

/** Where the page sends the browser after an edit: back to the right page, with the focus and a message. */
export function afterEdit(
  pageUrl: string,
  edit: Exclude<PageEdit, { refused: string }>,
  rowCount: number,
): string {
  const url = new URL(pageUrl);
  url.search = '';
  url.searchParams.set('done', edit.kind);
  if (edit.kind === 'add') {
    if (edit.query) url.searchParams.set('q', edit.query);
    url.searchParams.set('focus', 'search');
    return url.toString();
  }
  const last = rowCount - 1;
  const position =
    edit.kind === 'move-up'
      ? edit.position - 1
      : edit.kind === 'move-down'
        ? edit.position + 1
        : edit.position;
  const page = Math.floor(Math.max(0, Math.min(position, last)) / ROWS_PER_PAGE);
  if (page > 0) url.searchParams.set('page', String(page));
  // The same button again, on the item that moved (or its other button once it reached an end).
  const focus =
    edit.kind === 'remove'
      ? `remove-${position}`
      : edit.kind === 'move-up'
        ? position === 0
          ? 'down-0'
          : `up-${position}`
        : position === last
          ? `up-${last}`
          : `down-${position}`;
  url.searchParams.set('focus', focus);
  return url.toString();
}
