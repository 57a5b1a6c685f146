import type { RecreateRequest, RecreateResponse, RowProblemDto } from '../../../shared/api/recreate';
import { apiJson } from '../../lib/api-client';
import { importCsv } from '../transfer';

/** What every way of rebuilding ends with: an imported playlist ready for the wizard, and what was left out. */
export interface RebuiltPlaylist {
  playlist: { id: string; name: string; trackCount: number };
  problems: RowProblemDto[];
  originService: 'spotify' | 'apple' | null;
}

export const recreateFromList = (request: RecreateRequest) =>
  apiJson<RecreateResponse>('POST', '/api/recreate', request);

export const recreateFromLink = (playlistUrl: string) =>
  apiJson<RecreateResponse>('POST', '/api/recreate/from-link', { playlistUrl });

export async function recreateFromCsv(file: File): Promise<RebuiltPlaylist> {
  const answer = await importCsv(file);
  return { playlist: answer.playlist, problems: answer.warnings, originService: null };
}

/** The row problems a 400 carried (`{message, problems}`), for listing under the form. */
export function problemsOf(error: unknown): RowProblemDto[] {
  const match = error instanceof Error ? /^\d{3}: ([\s\S]*)$/.exec(error.message) : null;
  if (!match?.[1]) return [];
  try {
    const body: unknown = JSON.parse(match[1]);
    const problems: unknown =
      typeof body === 'object' && body !== null ? Reflect.get(body, 'problems') : null;
    if (!Array.isArray(problems)) return [];
    return problems.flatMap((problem: unknown) => {
      if (typeof problem !== 'object' || problem === null) return [];
      const row: unknown = Reflect.get(problem, 'row');
      const message: unknown = Reflect.get(problem, 'message');
      return typeof row === 'number' && typeof message === 'string' ? [{ row, message }] : [];
    });
  } catch {
    return [];
  }
}
