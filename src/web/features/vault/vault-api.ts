import { queryOptions, useQuery } from '@tanstack/react-query';
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

export async function startBackup(): Promise<string> {
  return (await request(backupStartedSchema, 'POST', '/api/vault/backups')).jobId;
}

/** Restoring saves the playlist as an import, so every list of playlists is read again. */
export async function restorePlaylist(snapshotId: string, restore: RestoreRequest): Promise<RestoreResponse> {
  const restored = await request(
    restoreResponseSchema,
    'POST',
    `/api/vault/backups/${encodeURIComponent(snapshotId)}/restore`,
    restore,
  );
  await invalidatePlaylists();
  return restored;
}
