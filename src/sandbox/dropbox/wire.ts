import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * Dropbox API v2's wire shapes for what Crossfade uses: route errors as 409 with `{error_summary, error:
 * {".tag": …}}`, auth errors as 401 in the same shape, bad input as 400 plain text naming the function,
 * file metadata, and the path rules of an App-folder app.
 */

/** Dropbox short-lived access tokens last four hours. */
export const ACCESS_TOKEN_MS = 4 * 60 * 60_000;
export const APP_SCOPES = [
  'account_info.read',
  'files.metadata.read',
  'files.metadata.write',
  'files.content.read',
  'files.content.write',
] as const;
/** Upload answers past 150 MiB are refused, as on /2/files/upload. */
export const MAX_UPLOAD_BYTES = 150 * 1024 * 1024;

/**
 * `{error_summary: "path/not_found/..", error: {".tag": "path", …}}`: the summary names the tags of the
 * nested union, then dots (Dropbox tells clients not to parse it).
 */
export function routeError(
  c: Context,
  tags: string[],
  error: Record<string, unknown>,
  status: ContentfulStatusCode = 409,
) {
  return c.json({ error_summary: `${tags.join('/')}/..`, error }, status);
}

export const authError = (c: Context, tag: string, extra: Record<string, unknown> = {}) =>
  routeError(c, [tag], { '.tag': tag, ...extra }, 401);

/** Dropbox answers malformed calls with 400 and plain text. */
export const badInput = (c: Context, fn: string, message: string) =>
  c.text(`Error in call to API function "${fn}": ${message}`, 400);

export interface DropboxItem {
  id: string;
  /** Path inside the app folder, as the app wrote it (`/Road-Trip.csv`). */
  pathDisplay: string;
  size: number;
  rev: string;
  contentHash: string;
  clientModified: string;
  serverModified: string;
  clientId: string;
}

/** Seconds precision, `Z`: Dropbox's timestamp format. */
export const dropboxTime = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function fileMetadata(item: DropboxItem, withTag: boolean) {
  return {
    ...(withTag ? { '.tag': 'file' } : {}),
    name: item.pathDisplay.slice(item.pathDisplay.lastIndexOf('/') + 1),
    path_lower: item.pathDisplay.toLowerCase(),
    path_display: item.pathDisplay,
    id: item.id,
    client_modified: item.clientModified,
    server_modified: item.serverModified,
    rev: item.rev,
    size: item.size,
    is_downloadable: true,
    content_hash: item.contentHash,
  };
}

export function folderMetadata(pathDisplay: string, id: string) {
  return {
    '.tag': 'folder',
    name: pathDisplay.slice(pathDisplay.lastIndexOf('/') + 1),
    path_lower: pathDisplay.toLowerCase(),
    path_display: pathDisplay,
    id,
  };
}

/** Dropbox's content hash: SHA-256 over the SHA-256 of each 4 MiB block. */
export function contentHash(bytes: Uint8Array): string {
  const block = 4 * 1024 * 1024;
  const outer = createHash('sha256');
  for (let start = 0; start < bytes.length || start === 0; start += block) {
    outer.update(
      createHash('sha256')
        .update(bytes.subarray(start, start + block))
        .digest(),
    );
    if (bytes.length === 0) break;
  }
  return outer.digest('hex');
}

/** The upload `path` pattern of Dropbox's API spec (WritePath). */
export const WRITE_PATH = /^(\/[\s\S]*|ns:[0-9]+(\/.*)?|id:.*)$/;
/** Files Dropbox will not sync, refused as `disallowed_name`. */
const IGNORED_NAMES = new Set([
  'desktop.ini',
  'thumbs.db',
  '.ds_store',
  'icon\r',
  '.dropbox',
  '.dropbox.attr',
]);

/**
 * Why a path cannot be written, as Dropbox's `WriteError` tag: `malformed_path` for empty or `.`/`..`
 * components, a trailing slash or control characters; `disallowed_name` for files Dropbox ignores.
 */
export function pathProblem(path: string): 'malformed_path' | 'disallowed_name' | undefined {
  if (!path.startsWith('/') || path.endsWith('/')) return 'malformed_path';
  const parts = path.slice(1).split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..' || part.length > 255))
    return 'malformed_path';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(path.replace(/\r$/, ''))) return 'malformed_path';
  return IGNORED_NAMES.has((parts.at(-1) ?? '').toLowerCase()) ? 'disallowed_name' : undefined;
}
