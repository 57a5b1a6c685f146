import { randomBytes } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { type FileSpace, SANDBOX_QUOTA_BYTES } from '../cloud-drives/file-space';
import { type AccessRecord, type DriveGrants, digest } from '../cloud-drives/grants';
import { dropboxAccount } from './pages';
import {
  authError,
  badInput,
  contentHash,
  type DropboxItem,
  dropboxTime,
  fileMetadata,
  folderMetadata,
  MAX_UPLOAD_BYTES,
  pathProblem,
  routeError,
  WRITE_PATH,
} from './wire';

/**
 * Dropbox API v2 as Crossfade calls it: `files/upload` on the content host (arguments in the
 * `Dropbox-API-Arg` header, bytes as the body), `files/list_folder` and `/continue` and
 * `users/get_current_account` on the API host. Paths are inside the app's own folder, as for an
 * App-folder app; unknown argument fields and wrong Content-Types are refused as Dropbox refuses them.
 */

type Caller = AccessRecord;

const UPLOAD_FIELDS = new Set([
  'path',
  'mode',
  'autorename',
  'client_modified',
  'mute',
  'property_groups',
  'strict_conflict',
  'content_hash',
]);
const LIST_FIELDS = new Set([
  'path',
  'recursive',
  'include_media_info',
  'include_deleted',
  'include_has_explicit_shared_members',
  'include_mounted_folders',
  'limit',
  'include_non_downloadable_files',
]);

export interface FilesRouteOptions {
  grants: DriveGrants;
  space: FileSpace<DropboxItem>;
  now: () => number;
}

export function addFilesRoutes(app: Hono, options: FilesRouteOptions): void {
  const { grants } = options;

  /** The caller behind the bearer token, holding `scope`; or Dropbox's 400 / 401. */
  const authenticate = (c: Context, fn: string, scope: string): Caller | Response => {
    const token = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (!token)
      return badInput(c, fn, 'Must provide HTTP header "Authorization" or URL parameter "authorization".');
    const record = grants.accessToken(token);
    if (record === 'expired') return authError(c, 'expired_access_token');
    if (!record) return authError(c, 'invalid_access_token');
    if (!record.scope.split(' ').includes(scope))
      return authError(c, 'missing_scope', { required_scope: scope });
    return record;
  };

  app.post('/content/2/files/upload', async (c) => {
    const fn = 'files/upload';
    const type = c.req.header('content-type') ?? '';
    if (type !== 'application/octet-stream' && type !== 'text/plain; charset=dropbox-cors-hack') {
      return badInput(
        c,
        fn,
        `Bad HTTP "Content-Type" header: "${type}".  Expecting one of "application/octet-stream", "text/plain; charset=dropbox-cors-hack".`,
      );
    }
    const caller = authenticate(c, fn, 'files.content.write');
    if (caller instanceof Response) return caller;
    const args = readArgs(
      c,
      fn,
      c.req.header('dropbox-api-arg') ?? c.req.query('arg'),
      UPLOAD_FIELDS,
      'HTTP header "Dropbox-API-Arg"',
    );
    if (args instanceof Response) return args;
    const body = new Uint8Array(await c.req.arrayBuffer());
    return upload(c, caller, options, args, body);
  });

  app.post('/api/2/files/list_folder', async (c) => {
    const fn = 'files/list_folder';
    const caller = authenticate(c, fn, 'files.metadata.read');
    if (caller instanceof Response) return caller;
    const args = await readBody(c, fn, LIST_FIELDS);
    if (args instanceof Response) return args;
    const path = args.path;
    if (typeof path !== 'string') return badInput(c, fn, "request body: missing required field 'path'");
    if (path === '/')
      return badInput(
        c,
        fn,
        'request body: path: Specify the root folder as an empty string rather than as "/".',
      );
    if (path !== '' && !/^\/[\s\S]*$/.test(path)) {
      return badInput(
        c,
        fn,
        `request body: path: '${path}' did not match pattern '(/(.|[\\r\\n])*)?|id:.*|(ns:[0-9]+(/.*)?)'`,
      );
    }
    const limit = args.limit ?? 2000;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 2000) {
      return badInput(c, fn, 'request body: limit: value must be between 1 and 2000');
    }
    return listPage(c, caller, options, { path, recursive: args.recursive === true, limit, offset: 0 });
  });

  app.post('/api/2/files/list_folder/continue', async (c) => {
    const fn = 'files/list_folder/continue';
    const caller = authenticate(c, fn, 'files.metadata.read');
    if (caller instanceof Response) return caller;
    const args = await readBody(c, fn, new Set(['cursor']));
    if (args instanceof Response) return args;
    const cursor = readCursor(typeof args.cursor === 'string' ? args.cursor : '', caller);
    if (!cursor) return badInput(c, fn, 'Invalid "cursor" parameter');
    return listPage(c, caller, options, cursor);
  });

  app.post('/api/2/users/get_current_account', async (c) => {
    const fn = 'users/get_current_account';
    const caller = authenticate(c, fn, 'account_info.read');
    if (caller instanceof Response) return caller;
    const text = await c.req.text();
    if (text !== '' && text !== 'null') return badInput(c, fn, 'request body: expected null, got value');
    const account = dropboxAccount(caller.account);
    return c.json({
      account_id: account.accountId,
      name: {
        given_name: account.givenName,
        surname: account.surname,
        familiar_name: account.givenName,
        display_name: account.displayName,
        abbreviated_name: `${account.givenName[0] ?? ''}${account.surname[0] ?? ''}`,
      },
      email: account.email,
      email_verified: true,
      disabled: false,
      country: account.country,
      locale: 'en',
      is_paired: false,
      account_type: { '.tag': 'basic' },
    });
  });

  // Each host answers only its own functions, as Dropbox's do.
  app.post('/api/2/files/upload', (c) =>
    badInput(c, 'files/upload', 'This function is only available on content.dropboxapi.com.'),
  );
  app.post('/content/2/files/list_folder', (c) =>
    badInput(c, 'files/list_folder', 'This function is not available on content.dropboxapi.com.'),
  );
}

function readArgs(
  c: Context,
  fn: string,
  raw: string | undefined,
  allowed: Set<string>,
  where: string,
): Record<string, unknown> | Response {
  if (raw === undefined) return badInput(c, fn, `Must provide ${where} or URL parameter "arg".`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return badInput(c, fn, `${where}: could not decode input as JSON`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    return badInput(c, fn, `${where}: expected object`);
  const unknown = Object.keys(parsed).find((key) => !allowed.has(key));
  if (unknown) return badInput(c, fn, `${where}: unknown field '${unknown}'`);
  return parsed as Record<string, unknown>;
}

async function readBody(
  c: Context,
  fn: string,
  allowed: Set<string>,
): Promise<Record<string, unknown> | Response> {
  const type = c.req.header('content-type') ?? '';
  if (
    !/^application\/json(;\s*charset=utf-8)?$/i.test(type) &&
    type !== 'text/plain; charset=dropbox-cors-hack'
  ) {
    return badInput(
      c,
      fn,
      `Bad HTTP "Content-Type" header: "${type}".  Expecting one of "application/json", "application/json; charset=utf-8", "text/plain; charset=dropbox-cors-hack".`,
    );
  }
  return readArgs(c, fn, await c.req.text(), allowed, 'request body');
}

function upload(
  c: Context,
  caller: Caller,
  options: FilesRouteOptions,
  args: Record<string, unknown>,
  body: Uint8Array,
) {
  const fn = 'files/upload';
  const { space } = options;
  const path = args.path;
  if (typeof path !== 'string')
    return badInput(c, fn, 'HTTP header "Dropbox-API-Arg": missing required field \'path\'');
  if (!WRITE_PATH.test(path)) {
    return badInput(
      c,
      fn,
      `HTTP header "Dropbox-API-Arg": path: '${path}' did not match pattern '(/(.|[\\r\\n])*)|(ns:[0-9]+(/.*)?)|(id:.*)'`,
    );
  }
  if (!path.startsWith('/'))
    return badInput(c, fn, 'The Crossfade sandbox accepts only "/…" paths (not id: or ns:).');
  const mode =
    typeof args.mode === 'string'
      ? args.mode
      : ((args.mode as { '.tag'?: string } | undefined)?.['.tag'] ?? 'add');
  if (mode !== 'add' && mode !== 'overwrite')
    return badInput(c, fn, `HTTP header "Dropbox-API-Arg": mode: unknown tag '${mode}'`);
  const uploadFailed = (reason: Record<string, unknown>, tags: string[]) =>
    routeError(c, ['path', ...tags], {
      '.tag': 'path',
      reason,
      upload_session_id: randomBytes(12).toString('hex'),
    });
  const problem = pathProblem(path);
  if (problem) return uploadFailed({ '.tag': problem }, [problem]);
  if (body.length > MAX_UPLOAD_BYTES)
    return routeError(c, ['payload_too_large'], { '.tag': 'payload_too_large' });
  const hash = contentHash(body);
  if (typeof args.content_hash === 'string' && args.content_hash !== hash) {
    return routeError(c, ['content_hash_mismatch'], { '.tag': 'content_hash_mismatch' });
  }
  const mine = space.items(caller.account).filter((item) => item.clientId === caller.clientId);
  const lower = path.toLowerCase();
  if (mine.some((item) => lower.startsWith(`${item.pathDisplay.toLowerCase()}/`))) {
    return uploadFailed({ '.tag': 'conflict', conflict: { '.tag': 'file' } }, ['conflict', 'file']);
  }
  if (mine.some((item) => item.pathDisplay.toLowerCase().startsWith(`${lower}/`))) {
    return uploadFailed({ '.tag': 'conflict', conflict: { '.tag': 'folder' } }, ['conflict', 'folder']);
  }
  if (space.usedBytes(caller.account) + body.length > SANDBOX_QUOTA_BYTES) {
    return uploadFailed({ '.tag': 'insufficient_space' }, ['insufficient_space']);
  }
  const existing = mine.find((item) => item.pathDisplay.toLowerCase() === lower);
  let target = path;
  if (existing && mode === 'add') {
    if (args.autorename !== true)
      return uploadFailed({ '.tag': 'conflict', conflict: { '.tag': 'file' } }, ['conflict', 'file']);
    target = freeName(path, mine);
  }
  const time = dropboxTime(options.now());
  const item: DropboxItem = {
    id:
      existing && mode === 'overwrite'
        ? existing.id
        : `id:${randomBytes(16).toString('base64url').slice(0, 22)}`,
    pathDisplay: target,
    size: body.length,
    rev: randomBytes(12).toString('hex').replace(/^./, '0'),
    contentHash: hash,
    clientModified: typeof args.client_modified === 'string' ? args.client_modified : time,
    serverModified: time,
    clientId: caller.clientId,
  };
  if (existing && mode === 'overwrite') space.replace(caller.account, item, body);
  else space.add(caller.account, item, body);
  return c.json(fileMetadata(item, false));
}

/** `Road-Trip (1).csv`, `Road-Trip (2).csv`, … as Dropbox's autorename does. */
function freeName(path: string, items: DropboxItem[]): string {
  const taken = new Set(items.map((item) => item.pathDisplay.toLowerCase()));
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 1; ; n++) {
    const candidate = `${path.slice(0, slash + 1)}${stem} (${n})${extension}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

interface ListCursor {
  path: string;
  recursive: boolean;
  limit: number;
  offset: number;
}

function listPage(c: Context, caller: Caller, options: FilesRouteOptions, cursor: ListCursor) {
  const mine = options.space.items(caller.account).filter((item) => item.clientId === caller.clientId);
  const base = cursor.path.toLowerCase();
  if (base !== '') {
    if (mine.some((item) => item.pathDisplay.toLowerCase() === base)) {
      return routeError(c, ['path', 'not_folder'], { '.tag': 'path', path: { '.tag': 'not_folder' } });
    }
    if (!mine.some((item) => item.pathDisplay.toLowerCase().startsWith(`${base}/`))) {
      return routeError(c, ['path', 'not_found'], { '.tag': 'path', path: { '.tag': 'not_found' } });
    }
  }
  const entries = folderEntries(mine, cursor.path, cursor.recursive);
  const page = entries.slice(cursor.offset, cursor.offset + cursor.limit);
  const next = { ...cursor, offset: Math.min(entries.length, cursor.offset + cursor.limit) };
  return c.json({ entries: page, cursor: writeCursor(next, caller), has_more: next.offset < entries.length });
}

/** Files and the folders their paths imply, directly in `path` (or everywhere below it when recursive). */
function folderEntries(items: DropboxItem[], path: string, recursive: boolean): Record<string, unknown>[] {
  const prefix = `${path.toLowerCase()}/`;
  const folders = new Map<string, string>();
  const files: DropboxItem[] = [];
  for (const item of [...items].sort((a, b) => a.pathDisplay.localeCompare(b.pathDisplay))) {
    const lower = item.pathDisplay.toLowerCase();
    if (!lower.startsWith(prefix)) continue;
    const rest = item.pathDisplay.slice(prefix.length).split('/');
    const depth = recursive ? rest.length - 1 : Math.min(1, rest.length - 1);
    for (let level = 1; level <= depth; level++) {
      const folder = `${item.pathDisplay.slice(0, prefix.length)}${rest.slice(0, level).join('/')}`;
      if (!folders.has(folder.toLowerCase())) folders.set(folder.toLowerCase(), folder);
    }
    if (recursive || rest.length === 1) files.push(item);
  }
  return [
    ...[...folders.values()].map((folder) =>
      folderMetadata(folder, `id:${digest(folder.toLowerCase()).slice(0, 22)}`),
    ),
    ...files.map((item) => fileMetadata(item, true)),
  ];
}

const writeCursor = (cursor: ListCursor, caller: Caller) =>
  Buffer.from(
    JSON.stringify({ ...cursor, bound: digest(`${caller.account}|${caller.clientId}`).slice(0, 16) }),
  ).toString('base64url');

function readCursor(raw: string, caller: Caller): ListCursor | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as ListCursor & {
      bound?: string;
    };
    if (parsed.bound !== digest(`${caller.account}|${caller.clientId}`).slice(0, 16)) return undefined;
    const { path, recursive, limit, offset } = parsed;
    if (
      typeof path !== 'string' ||
      typeof recursive !== 'boolean' ||
      !Number.isInteger(limit) ||
      !Number.isInteger(offset)
    )
      return undefined;
    return { path, recursive, limit, offset };
  } catch {
    return undefined;
  }
}
