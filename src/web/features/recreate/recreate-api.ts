import { useMutation } from '@tanstack/react-query';
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

/** The three ways back to a lost playlist: typed titles, an old CSV export, or a link that still opens. */
export type RecreateSource =
  | { from: 'list'; recreate: RecreateRequest }
  | { from: 'link'; playlistUrl: string }
  | { from: 'csv'; file: File };

async function rebuild(source: RecreateSource): Promise<RebuiltPlaylist> {
  switch (source.from) {
    case 'list':
      return request(recreateResponseSchema, 'POST', '/api/recreate', source.recreate);
    case 'link':
      return request(recreateResponseSchema, 'POST', '/api/recreate/from-link', {
        playlistUrl: source.playlistUrl,
      });
    case 'csv': {
      const answer = await importCsv(source.file);
      return { playlist: answer.playlist, problems: answer.warnings, originService: null };
    }
  }
}

/** Each way of rebuilding saves an imported playlist: the lists of playlists are read again. */
export const useRecreate = () => useMutation({ mutationFn: rebuild, onSuccess: () => invalidatePlaylists() });

/** The row problems a 400 carried (`{message, problems}`), for listing under the form. */
export const problemsOf = rowProblems;
