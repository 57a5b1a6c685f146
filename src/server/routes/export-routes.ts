import { Hono } from 'hono';
import {
  CLOUD_TARGET_LABELS,
  cloudExportRequestSchema,
  exportPlaylistRequestSchema,
} from '../../shared/api/export';
import type { AppDeps, AppEnv } from '../app-context';
import { notFound } from '../domain-errors';
import { buildExport } from '../export/build-export';
import { contentDisposition } from '../export/export-files';
import { listSavedExports, readSavedExport, saveExport } from '../export/saved-exports';
import { ApiError } from '../http/errors';
import { requireUser } from '../http/require-user';
import { readJson } from '../http/validation';
import { assertVault } from '../plans/plan-limits';

/**
 * Playlist export (spec sections 2-5): files are built here so the Vault+ rules hold whatever the page
 * does. CSV and JSON for everyone (the sample playlists even signed out); ZIP and Save to Cloud for Vault+.
 */
export function exportRoutes(deps: AppDeps) {
  const download = (file: { fileName: string; contentType: string; data: Uint8Array }) =>
    new Response(file.data.slice(), {
      headers: {
        'content-type': file.contentType,
        'content-disposition': contentDisposition(file.fileName),
        'content-length': String(file.data.length),
        'cache-control': 'no-store',
      },
    });

  return new Hono<AppEnv>()
    .post('/export/playlist', async (c) => {
      const request = await readJson(c, exportPlaylistRequestSchema);
      return download(await buildExport(deps, c.get('user'), request));
    })
    .post('/export/cloud', async (c) => {
      const user = requireUser(c);
      const request = await readJson(c, cloudExportRequestSchema);
      assertVault(user.plan, 'Save to Cloud');
      // No drive integration is configured on any server yet: say so rather than pretend to upload.
      if (request.target !== 'crossfade')
        throw new ApiError(501, `${CLOUD_TARGET_LABELS[request.target]} is not configured on this server.`);
      const file = await buildExport(deps, user, request);
      return c.json(await saveExport(deps, user.id, file.playlistName, file), 201);
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
