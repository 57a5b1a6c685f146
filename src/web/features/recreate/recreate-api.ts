import {
  type RecreateRequest,
  type RowProblemDto,
  recreateResponseSchema,
} from '../../../shared/api/recreate';
import { request, rowProblems } from '../../lib/api-client';
import { invalidatePlaylists } from '../playlists';
import { importCsv } from '../transfer';

/** What every way of rebuilding ends with: an imported playlist ready for the wizard, and what was left out. */
export interface RebuiltPlaylist {
  playlist: { id: string; name: string; trackCount: number };
  problems: RowProblemDto[];
  originService: 'spotify' | 'apple' | null;
}

/** Each way of rebuilding saves an imported playlist: the lists of playlists are read again. */
export async function recreateFromList(recreate: RecreateRequest) {
  const answer = await request(recreateResponseSchema, 'POST', '/api/recreate', recreate);
  await invalidatePlaylists();
  return answer;
}

export async function recreateFromLink(playlistUrl: string) {
  const answer = await request(recreateResponseSchema, 'POST', '/api/recreate/from-link', { playlistUrl });
  await invalidatePlaylists();
  return answer;
}

export async function recreateFromCsv(file: File): Promise<RebuiltPlaylist> {
  const answer = await importCsv(file);
  return { playlist: answer.playlist, problems: answer.warnings, originService: null };
}

/** The row problems a 400 carried (`{message, problems}`), for listing under the form. */
export const problemsOf = rowProblems;
