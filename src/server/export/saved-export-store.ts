import { and, desc, eq } from 'drizzle-orm';
import type { SavedExport } from '../../shared/api/export';
import type { AppDeps } from '../app-context';
import { savedExports } from '../db/schema';
import { isUuid } from '../db/uuid';
import type { ExportFile } from './export-files';

/** "Save to Cloud" with Crossfade's own storage: the file kept in saved_exports for its owner. */
export async function saveExport(
  deps: AppDeps,
  userId: string,
  playlistName: string,
  file: ExportFile,
): Promise<SavedExport> {
  const [row] = await deps.db
    .insert(savedExports)
    .values({
      userId,
      format: file.format,
      fileName: file.fileName,
      contentType: file.contentType,
      data: Buffer.from(file.data),
      sizeBytes: file.data.length,
      playlistName,
    })
    .returning();
  if (!row) throw new Error('saved export insert returned no row');
  return toSavedExport(row);
}

const listColumns = {
  id: savedExports.id,
  format: savedExports.format,
  fileName: savedExports.fileName,
  sizeBytes: savedExports.sizeBytes,
  playlistName: savedExports.playlistName,
  createdAt: savedExports.createdAt,
};

export async function listSavedExports(deps: AppDeps, userId: string): Promise<SavedExport[]> {
  const rows = await deps.db
    .select(listColumns)
    .from(savedExports)
    .where(eq(savedExports.userId, userId))
    .orderBy(desc(savedExports.createdAt));
  return rows.map(toSavedExport);
}

export async function readSavedExport(deps: AppDeps, userId: string, id: string) {
  if (!isUuid(id)) return undefined;
  const [row] = await deps.db
    .select()
    .from(savedExports)
    .where(and(eq(savedExports.id, id), eq(savedExports.userId, userId)));
  return row;
}

function toSavedExport(row: {
  id: string;
  format: SavedExport['format'];
  fileName: string;
  sizeBytes: number;
  playlistName: string;
  createdAt: Date;
}): SavedExport {
  return {
    id: row.id,
    format: row.format,
    fileName: row.fileName,
    sizeBytes: row.sizeBytes,
    playlistName: row.playlistName,
    createdAt: row.createdAt.toISOString(),
  };
}
