import { createHash, randomBytes } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { type FileSpace, SANDBOX_QUOTA_BYTES } from '../cloud-drives/file-space';
import { type AccessRecord, type DriveGrants, digest } from '../cloud-drives/grants';
import { boundaryOf, MultipartError, parseRelated } from './multipart';
import { googleAccount } from './pages';
import { FieldsError, parseDriveQuery, parseFields, QueryError, selectFields } from './query';
import {
  DRIVE_FILE_SCOPE,
  DRIVE_SCOPE,
  type DriveItem,
  FOLDER_MIME_TYPE,
  fileResource,
  googleError,
  invalidParameter,
} from './wire';

/**
 * Drive API v3 as Crossfade calls it: `files.list` (q, fields, pageSize, pageToken, orderBy),
 * `files.create` with JSON metadata (folders) and as a multipart upload at `/upload/drive/v3/files`, and
 * `about.get`. Every call needs a live bearer token with a Drive scope; with `drive.file` an app sees
 * only the files it created, as on Google.
 */

const DEFAULT_LIST_FIELDS = 'kind,nextPageToken,incompleteSearch,files(kind,id,name,mimeType)';
const DEFAULT_FILE_FIELDS = 'kind,id,name,mimeType';
const ORDER_KEYS: Record<string, (a: DriveItem, b: DriveItem) => number> = {
  createdTime: (a, b) => a.createdTime.localeCompare(b.createdTime),
  modifiedTime: (a, b) => a.createdTime.localeCompare(b.createdTime),
  name: (a, b) => a.name.localeCompare(b.name),
  folder: (a, b) => Number(b.mimeType === FOLDER_MIME_TYPE) - Number(a.mimeType === FOLDER_MIME_TYPE),
};

const CREDENTIALS_HELP =
  'Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';
const INVALID_TOKEN_HEADER = {
  'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"',
};

type Caller = AccessRecord;

export interface DriveRouteOptions {
  grants: DriveGrants;
  space: FileSpace<DriveItem>;
  now: () => number;
  /** Where browsers reach this emulator's pages (for `webViewLink`); the request's own origin otherwise. */
  webOrigin: (c: Context) => string;
}

export function addDriveRoutes(app: Hono, options: DriveRouteOptions): void {
  const { grants } = options;

  /** The caller behind the bearer token, or Google's 401 / 403. */
  const authenticate = (c: Context): Caller | Response => {
    const token = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (!token) {
      return googleError(
        c,
        401,
        `Request is missing required authentication credential. ${CREDENTIALS_HELP}`,
        {
          reason: 'required',
          message: 'Login Required.',
          location: 'Authorization',
          locationType: 'header',
        },
      );
    }
    const record = grants.accessToken(token);
    if (!record || record === 'expired') {
      return googleError(
        c,
        401,
        `Request had invalid authentication credentials. ${CREDENTIALS_HELP}`,
        {
          reason: 'authError',
          message: 'Invalid Credentials',
          location: 'Authorization',
          locationType: 'header',
        },
        INVALID_TOKEN_HEADER,
      );
    }
    const scopes = record.scope.split(' ');
    if (!scopes.includes(DRIVE_FILE_SCOPE) && !scopes.includes(DRIVE_SCOPE)) {
      return googleError(c, 403, 'Request had insufficient authentication scopes.', {
        reason: 'insufficientPermissions',
        message: 'Insufficient Permission',
      });
    }
    return record;
  };

  app.get('/drive/v3/about', (c) => {
    const caller = authenticate(c);
    if (caller instanceof Response) return caller;
    const fields = c.req.query('fields');
    if (!fields)
      return googleError(c, 400, "The 'fields' parameter is required for this method.", {
        reason: 'required',
        location: 'fields',
        locationType: 'parameter',
      });
    const used = options.space.usedBytes(caller.account);
    const about = {
      kind: 'drive#about',
      user: { kind: 'drive#user', ...googleAccount(caller.account), me: true },
      storageQuota: { limit: String(SANDBOX_QUOTA_BYTES), usage: String(used), usageInDrive: String(used) },
    };
    return answer(c, about, fields);
  });

  app.get('/drive/v3/files', (c) => {
    const caller = authenticate(c);
    if (caller instanceof Response) return caller;
    return listFiles(c, caller, options);
  });

  app.post('/drive/v3/files', async (c) => {
    const caller = authenticate(c);
    if (caller instanceof Response) return caller;
    if (!(c.req.header('content-type') ?? '').includes('application/json')) {
      return googleError(c, 400, 'Media uploads must be sent to the upload URL: /upload/drive/v3/files.', {
        reason: 'badContent',
      });
    }
    const metadata = await readMetadata(c, await c.req.text());
    if (metadata instanceof Response) return metadata;
    return createItem(c, caller, options, metadata, Buffer.alloc(0));
  });

  app.post('/upload/drive/v3/files', async (c) => {
    const caller = authenticate(c);
    if (caller instanceof Response) return caller;
    const uploadType = c.req.query('uploadType');
    const body = Buffer.from(await c.req.arrayBuffer());
    if (uploadType === 'media') {
      const mimeType = c.req.header('content-type') || 'application/octet-stream';
      return createItem(c, caller, options, { name: 'Untitled', mimeType }, body);
    }
    if (uploadType === 'resumable') {
      return googleError(c, 501, 'The Crossfade sandbox does not emulate resumable uploads.', {
        reason: 'notImplemented',
      });
    }
    if (uploadType !== 'multipart') {
      return invalidParameter(
        c,
        'uploadType',
        'Upload requests must include an uploadType URL parameter and a URL path beginning with /upload/',
      );
    }
    const boundary = boundaryOf(c.req.header('content-type') ?? '');
    if (!boundary)
      return googleError(c, 400, 'Multipart uploads must be multipart/related with a boundary.', {
        reason: 'badContent',
      });
    let parts: ReturnType<typeof parseRelated>;
    try {
      parts = parseRelated(body, boundary);
    } catch (error) {
      if (!(error instanceof MultipartError)) throw error;
      return googleError(c, 400, error.message, { reason: 'badContent' });
    }
    const [head, media] = parts;
    if (parts.length !== 2 || !head || !media || !head.contentType.startsWith('application/json')) {
      return googleError(c, 400, 'A multipart upload has two parts: JSON metadata, then the media.', {
        reason: 'badContent',
      });
    }
    const metadata = await readMetadata(c, head.body.toString('utf8'));
    if (metadata instanceof Response) return metadata;
    return createItem(
      c,
      caller,
      options,
      { ...metadata, mimeType: metadata.mimeType ?? media.contentType },
      media.body,
    );
  });
}

interface Metadata {
  name?: string;
  mimeType?: string;
  parents?: string[];
}

async function readMetadata(c: Context, text: string): Promise<Metadata | Response> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return googleError(c, 400, 'Invalid JSON payload received.', { reason: 'parseError' });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return googleError(c, 400, 'Invalid JSON payload received.', { reason: 'parseError' });
  }
  const { name, mimeType, parents } = parsed as Record<string, unknown>;
  if (name !== undefined && typeof name !== 'string') return invalidParameter(c, 'name');
  if (mimeType !== undefined && typeof mimeType !== 'string') return invalidParameter(c, 'mimeType');
  if (
    parents !== undefined &&
    (!Array.isArray(parents) || parents.some((parent) => typeof parent !== 'string'))
  ) {
    return invalidParameter(c, 'parents');
  }
  return { name, mimeType, parents: parents as string[] | undefined } as Metadata;
}

/** `drive.file`: only what this app created; the full `drive` scope sees every file of the account. */
function visibleTo(caller: Caller, space: FileSpace<DriveItem>): DriveItem[] {
  const all = caller.scope.split(' ').includes(DRIVE_SCOPE);
  return space.items(caller.account).filter((item) => all || item.clientId === caller.clientId);
}

function createItem(
  c: Context,
  caller: Caller,
  options: DriveRouteOptions,
  metadata: Metadata,
  content: Buffer,
) {
  const { space } = options;
  const parents = metadata.parents ?? ['root'];
  if (parents.length > 1) {
    return googleError(c, 403, 'A shared drive item must have exactly one parent.', {
      reason: 'cannotAddParent',
    });
  }
  const visible = visibleTo(caller, space);
  for (const parent of parents) {
    if (
      parent !== 'root' &&
      !visible.some((item) => item.id === parent && item.mimeType === FOLDER_MIME_TYPE)
    ) {
      return googleError(c, 404, `File not found: ${parent}.`, {
        reason: 'notFound',
        location: 'fileId',
        locationType: 'parameter',
      });
    }
  }
  if (space.usedBytes(caller.account) + content.length > SANDBOX_QUOTA_BYTES) {
    return googleError(c, 403, "The user's Drive storage quota has been exceeded.", {
      reason: 'storageQuotaExceeded',
    });
  }
  const mimeType = metadata.mimeType ?? 'application/octet-stream';
  const item = space.add(
    caller.account,
    {
      id: `1${randomBytes(24).toString('base64url').slice(0, 32)}`,
      name: metadata.name ?? 'Untitled',
      mimeType,
      parents,
      size: content.length,
      md5: createHash('md5').update(content).digest('hex'),
      createdTime: new Date(options.now()).toISOString(),
      clientId: caller.clientId,
    },
    mimeType === FOLDER_MIME_TYPE ? null : content,
  );
  return answer(c, fileResource(item, options.webOrigin(c)), c.req.query('fields') || DEFAULT_FILE_FIELDS);
}

function listFiles(c: Context, caller: Caller, options: DriveRouteOptions) {
  const query = c.req.query();
  let matches: ReturnType<typeof parseDriveQuery>;
  try {
    matches = parseDriveQuery(query.q);
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    return invalidParameter(c, 'q');
  }
  if (query.spaces && query.spaces !== 'drive') return invalidParameter(c, 'spaces');
  const pageSize = query.pageSize === undefined ? 100 : Number(query.pageSize);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) return invalidParameter(c, 'pageSize');
  const order = sortOrder(query.orderBy);
  if (!order) return invalidParameter(c, 'orderBy', 'Invalid orderBy value');
  const found = visibleTo(caller, options.space).filter(matches).sort(order);
  // The page token is bound to the account and the query it continues, as Google's are.
  const bound = digest(`${caller.account}|${query.q ?? ''}|${query.orderBy ?? ''}`).slice(0, 16);
  const start = query.pageToken === undefined ? 0 : readPageToken(query.pageToken, bound);
  if (start === undefined) return invalidParameter(c, 'pageToken');
  const page = found.slice(start, start + pageSize);
  const next = start + pageSize < found.length ? `${start + pageSize}.${bound}` : undefined;
  const list = {
    kind: 'drive#fileList',
    incompleteSearch: false,
    ...(next ? { nextPageToken: Buffer.from(next).toString('base64url') } : {}),
    files: page.map((item) => fileResource(item, options.webOrigin(c))),
  };
  return answer(c, list, query.fields || DEFAULT_LIST_FIELDS);
}

function readPageToken(token: string, bound: string): number | undefined {
  const [offset, tokenBound] = Buffer.from(token, 'base64url').toString('utf8').split('.');
  const start = Number(offset);
  return tokenBound === bound && Number.isInteger(start) && start >= 0 ? start : undefined;
}

function sortOrder(orderBy: string | undefined): ((a: DriveItem, b: DriveItem) => number) | undefined {
  const keys = (orderBy ?? 'folder,name').split(',').map((part) => part.trim().split(/\s+/));
  const comparators: ((a: DriveItem, b: DriveItem) => number)[] = [];
  for (const [key = '', direction, ...rest] of keys) {
    const compare = ORDER_KEYS[key];
    if (!compare || rest.length > 0 || (direction !== undefined && direction !== 'desc')) return undefined;
    comparators.push(direction === 'desc' ? (a, b) => compare(b, a) : compare);
  }
  return (a, b) => {
    for (const compare of comparators) {
      const result = compare(a, b);
      if (result !== 0) return result;
    }
    return 0;
  };
}

function answer(c: Context, value: unknown, fields: string) {
  try {
    return c.json(selectFields(value, parseFields(fields)) as Record<string, unknown>);
  } catch (error) {
    if (!(error instanceof FieldsError)) throw error;
    return invalidParameter(c, 'fields', error.message);
  }
}
