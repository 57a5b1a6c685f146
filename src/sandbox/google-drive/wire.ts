import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * Google's wire shapes for what Crossfade uses: the JSON error body every Google API answers with
 * (`{error: {code, message, errors: [...], status}}`), the OAuth token endpoint's `{error,
 * error_description}`, and the Drive v3 file resource.
 */

export const DRIVE_FILE_SCOPE = 'https://www.googleapis.com/auth/drive.file';
export const DRIVE_SCOPE = 'https://www.googleapis.com/auth/drive';
/** Scopes the consent page knows; anything else is Google's `invalid_scope`. */
export const KNOWN_SCOPES = new Set([
  DRIVE_FILE_SCOPE,
  DRIVE_SCOPE,
  'https://www.googleapis.com/auth/drive.readonly',
  'https://www.googleapis.com/auth/drive.metadata.readonly',
  'https://www.googleapis.com/auth/drive.appdata',
  'openid',
  'email',
  'profile',
  'https://www.googleapis.com/auth/userinfo.email',
  'https://www.googleapis.com/auth/userinfo.profile',
]);
export const FOLDER_MIME_TYPE = 'application/vnd.google-apps.folder';
/** Google access tokens live an hour (expires_in 3599). */
export const ACCESS_TOKEN_MS = 3599 * 1000;

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  501: 'UNIMPLEMENTED',
};

export interface GoogleErrorDetail {
  reason: string;
  message?: string;
  location?: string;
  locationType?: 'parameter' | 'header';
}

export function googleError(
  c: Context,
  status: ContentfulStatusCode,
  message: string,
  detail: GoogleErrorDetail,
  headers: Record<string, string> = {},
) {
  return c.json(
    {
      error: {
        code: status,
        message,
        errors: [
          {
            message: detail.message ?? message,
            domain: 'global',
            reason: detail.reason,
            ...(detail.location ? { location: detail.location, locationType: detail.locationType } : {}),
          },
        ],
        status: STATUS_NAMES[status] ?? 'UNKNOWN',
      },
    },
    status,
    headers,
  );
}

export const invalidParameter = (c: Context, location: string, message = 'Invalid Value') =>
  googleError(c, 400, message, { reason: 'invalid', location, locationType: 'parameter' });

export function tokenError(c: Context, status: 400 | 401, error: string, description: string) {
  return c.json({ error, error_description: description }, status, {
    'cache-control': 'no-store',
    pragma: 'no-cache',
  });
}

/** A file as Drive stores it; `clientId` is the app that created it (what `drive.file` lets an app see). */
export interface DriveItem {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  size: number;
  md5: string;
  createdTime: string;
  clientId: string;
}

/** The Drive v3 `File` resource with every field Crossfade may ask for; `fields` then picks from it. */
export function fileResource(item: DriveItem, webOrigin: string): Record<string, unknown> {
  const folder = item.mimeType === FOLDER_MIME_TYPE;
  return {
    kind: 'drive#file',
    id: item.id,
    name: item.name,
    mimeType: item.mimeType,
    parents: item.parents,
    ...(folder ? {} : { size: String(item.size), md5Checksum: item.md5, originalFilename: item.name }),
    createdTime: item.createdTime,
    modifiedTime: item.createdTime,
    trashed: false,
    starred: false,
    ownedByMe: true,
    webViewLink: folder
      ? `${webOrigin}/drive/folders/${item.id}`
      : `${webOrigin}/file/d/${item.id}/view?usp=drivesdk`,
  };
}
