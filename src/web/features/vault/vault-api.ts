import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import {
  backupDetailSchema,
  backupStartedSchema,
  backupSummarySchema,
  type RestoreRequest,
  type RestoreResponse,
  restoreResponseSchema,
} from '../../../shared/api/vault';
import { request } from '../../lib/api-client';
import { invalidatePlaylists } from '../playlists';

export const BACKUPS_KEY = ['backups'] as const;

export const backupsQuery = () =>
  queryOptions({
    queryKey: BACKUPS_KEY,
    queryFn: ({ signal }) =>
      request(backupSummarySchema.array(), 'GET', '/api/vault/backups', undefined, { signal }),
  });

export const backupDetailQuery = (id: string) =>
  queryOptions({
    queryKey: [...BACKUPS_KEY, id],
    queryFn: ({ signal }) =>
      request(backupDetailSchema, 'GET', `/api/vault/backups/${encodeURIComponent(id)}`, undefined, {
        signal,
      }),
  });

export const useBackups = (enabled: boolean) => useQuery({ ...backupsQuery(), enabled });

export const useBackupDetail = (id: string, enabled: boolean) =>
  useQuery({ ...backupDetailQuery(id), enabled });

/** "Back up now": answers the backup job's id, whose progress the page follows (lib/job-progress). */
export const useStartBackup = () =>
  useMutation({
    mutationFn: async () => (await request(backupStartedSchema, 'POST', '/api/vault/backups')).jobId,
  });

/** Restoring saves the playlist as an import, so every list of playlists is read again. */
export const useRestoreFromBackup = (backupId: string) =>
  useMutation({
    mutationFn: (restore: RestoreRequest): Promise<RestoreResponse> =>
      request(
        restoreResponseSchema,
        'POST',
        `/api/vault/backups/${encodeURIComponent(backupId)}/restore`,
        restore,
      ),
    onSuccess: () => invalidatePlaylists(),
  });
