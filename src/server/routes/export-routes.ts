import { type Context, Hono } from 'hono';
import { connectQuerySchema } from '../../shared/api/connections';
import {
  CLOUD_TARGET_LABELS,
  type CloudDrive,
  cloudDriveSchema,
  cloudExportRequestSchema,
  exportPlaylistRequestSchema,
  isCloudDrive,
} from '../../shared/api/export';
import type { AppDeps, AppEnv } from '../app-context';
import { ConnectionFailed, safeReturnPath } from '../connections/provider-runtime';
import { DomainError, notFound } from '../domain-errors';
import { buildExport } from '../export/build-export';
import { CLOUD_SAVE_FEATURE, CloudDrives } from '../export/cloud-drives/cloud-drives';
import { DriveFailure } from '../export/cloud-drives/drive-client';
import { contentDisposition } from '../export/export-files';
import { listSavedExports, readSavedExport, saveExport } from '../export/saved-export-store';
import { requireUser } from '../http/require-user';
import { readJson, validate } from '../http/validation';
import { assertVault } from '../plans/plan-limits';

/**
 * Playlist export (spec sections 2-5): files are built here so the Vault+ rules hold whatever the page
 * does. CSV and JSON for everyone (the sample playlists even signed out); ZIP and Save to Cloud for
 * Vault+, to Crossfade's storage or to the person's own Google Drive or Dropbox (decision 0027).
 */
export function exportRoutes(deps: AppDeps) {
  const drives = new CloudDrives(deps);
  return new Hono<AppEnv>()
    .route('/', fileRoutes(deps, drives))
    .route('/cloud-drives', cloudDriveRoutes(deps, drives));
}

const download = (file: { fileName: string; contentType: string; data: Uint8Array }) =>
  new Response(file.data.slice(), {
    headers: {
      'content-type': file.contentType,
      'content-disposition': contentDisposition(file.fileName),
      'content-length': String(file.data.length),
      'cache-control': 'no-store',
    },
  });

function fileRoutes(deps: AppDeps, drives: CloudDrives) {
  return new Hono<AppEnv>()
    .post('/export/playlist', async (c) => {
      const request = await readJson(c, exportPlaylistRequestSchema);
      return download(await buildExport(deps, c.get('user'), request));
    })
    .post('/export/cloud', async (c) => {
      const user = requireUser(c);
      const request = await readJson(c, cloudExportRequestSchema);
      assertVault(user.plan, CLOUD_SAVE_FEATURE);
      const file = await buildExport(deps, user, request);
      if (isCloudDrive(request.target)) return c.json(await drives.save(user, request.target, file), 201);
      const saved = await saveExport(deps, user.id, file.playlistName, file);
      return c.json({ ...saved, target: 'crossfade', location: CLOUD_TARGET_LABELS.crossfade }, 201);
    })
    .get('/exports', async (c) => {
      const user = requireUser(c);
      return c.json(await listSavedExports(deps, user.id));
    })
    .get('/exports/:id', async (c) => {
      const user = requireUser(c);
      const row = await readSavedExport(deps, user.id, c.req.param('id'));
      if (!row) throw notFound('That saved export does not exist (any more).');
      return download({
        fileName: row.fileName,
        contentType: row.contentType,
        data: new Uint8Array(row.data),
      });
    });
}

/** Connecting, listing and disconnecting the person's Google Drive and Dropbox. */
function cloudDriveRoutes(deps: AppDeps, drives: CloudDrives) {
  const origin = deps.config.publicUrl;
  const driveOf = (c: Context<AppEnv>): CloudDrive => validate(cloudDriveSchema, c.req.param('drive'));
  /** Back to where the person started, with what happened for the page to announce. */
  const backTo = (path: string, params: Record<string, string>) => {
    const url = new URL(safeReturnPath(path, origin), origin);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return safeReturnPath(`${url.pathname}${url.search}`, origin);
  };

  return new Hono<AppEnv>()
    .get('/', async (c) => c.json(await drives.status(requireUser(c).id)))
    .get('/:drive/connect', async (c) => {
      const user = requireUser(c);
      const drive = driveOf(c);
      const returnTo = validate(connectQuerySchema, c.req.query()).returnTo ?? EXPORT_PANEL_PATH;
      return c.json({ authUrl: await drives.startConnect(user, drive, safeReturnPath(returnTo, origin)) });
    })
    .get('/:drive/callback', async (c) => {
      const drive = driveOf(c);
      const user = c.get('user');
      const label = CLOUD_TARGET_LABELS[drive];
      if (!user) return c.redirect(backTo('/auth', { cloudError: `Sign in before connecting ${label}.` }));
      try {
        const returnTo = await drives.finishConnect(user.id, drive, new URL(c.req.url));
        return c.redirect(backTo(returnTo, { cloudConnected: drive }));
      } catch (error) {
        const returnTo = error instanceof ConnectionFailed ? error.returnTo : EXPORT_PANEL_PATH;
        const cause = error instanceof ConnectionFailed ? error.cause : error;
        if (!(cause instanceof DomainError || cause instanceof DriveFailure)) {
          deps.logger.warn({ err: cause, drive }, 'cloud drive connection failed');
        }
        const message = error instanceof DomainError ? error.message : `Failed to connect to ${label}`;
        return c.redirect(backTo(returnTo, { cloudError: message }));
      }
    })
    .post('/:drive/disconnect', async (c) => {
      const user = requireUser(c);
      await drives.disconnect(user.id, driveOf(c));
      return c.body(null, 204);
    })
    .get('/:drive/files', async (c) => {
      const user = requireUser(c);
      return c.json(await drives.files(user, driveOf(c)));
    });
}

/** Where the export panel is: the Features page's Export Options tab. */
export const EXPORT_PANEL_PATH = '/visualizations?tab=export-options';
