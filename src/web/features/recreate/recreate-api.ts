import { z } from 'zod';
import {
  type RecreateRequest,
  type RowProblemDto,
  recreateResponseSchema,
  rowProblemSchema,
} from '../../../shared/api/recreate';
import { ApiRequestError, request } from '../../lib/api-client';
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

// A 400 of the recreate endpoints is `{message, problems}`; entries of another shape are left out.
const problemsBodySchema = z.object({ problems: z.array(z.unknown()) });

/** The row problems a 400 carried (`{message, problems}`), for listing under the form. */
export function problemsOf(error: unknown): RowProblemDto[] {
  if (!(error instanceof ApiRequestError)) return [];
  let body: unknown;
  try {
    body = JSON.parse(error.body);
  } catch {
    return [];
  }
  const parsed = problemsBodySchema.safeParse(body);
  if (!parsed.success) return [];
  return parsed.data.problems.flatMap((problem) => {
    const row = rowProblemSchema.safeParse(problem);
    return row.success ? [row.data] : [];
  });
}
