import type { SessionUser } from '../../shared/api/auth';
import type { ExportPlaylistRequest } from '../../shared/api/export';
import type { AppDeps } from '../app-context';
import { unauthorized } from '../domain-errors';
import { assertVault } from '../plans/plan-limits';
import { type ExportFile, textExport } from './export-files';
import { loadExportSource } from './export-source';
import { zipExport } from './zip-export';

type Request = Required<ExportPlaylistRequest>;

/** Builds the requested file; ZIP is checked against the plan before anything is read. */
export async function buildExport(
  deps: AppDeps,
  user: SessionUser | null,
  request: Request,
): Promise<ExportFile> {
  if (request.format === 'zip') {
    if (!user) throw unauthorized('Please sign in to export a ZIP archive.');
    assertVault(user.plan, 'ZIP export');
  }
  const source = await loadExportSource(deps, user, request.service, request.playlistId);
  const options = {
    includeMetadata: request.includeMetadata ?? false,
    includeLinks: request.includeLinks ?? false,
    includeArtwork: request.includeArtwork ?? false,
  };
  return request.format === 'zip'
    ? zipExport(deps, source, options)
    : textExport(source, request.format, options);
}
