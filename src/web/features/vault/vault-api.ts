import { useQuery } from '@tanstack/react-query';
import {
  type BackupDetail,
  type BackupSummary,
  backupDetailSchema,
  backupStartedSchema,
  backupSummarySchema,
  type RestoreRequest,
  type RestoreResponse,
  restoreResponseSchema,
} from '../../../shared/api/backups';
import { type JobView, jobViewSchema } from '../../../shared/api/transfer';
import { apiJson } from '../../lib/api-client';

export const BACKUPS_KEY = ['/api/vault/backups'] as const;

export function useBackups(enabled: boolean) {
  return useQuery<BackupSummary[]>({
    queryKey: BACKUPS_KEY,
    enabled,
    queryFn: async () => backupSummarySchema.array().parse(await apiJson<unknown>('GET', BACKUPS_KEY[0])),
  });
}

export function useBackupDetail(id: string, enabled: boolean) {
  return useQuery<BackupDetail>({
    queryKey: [BACKUPS_KEY[0], id],
    enabled,
    queryFn: async () =>
      backupDetailSchema.parse(await apiJson<unknown>('GET', `${BACKUPS_KEY[0]}/${encodeURIComponent(id)}`)),
  });
}

const FINISHED: JobView['status'][] = ['succeeded', 'failed', 'cancelled'];
export const isFinished = (job: JobView | undefined) => job !== undefined && FINISHED.includes(job.status);

/** The backup job's progress, asked for every second until it ends. */
export function useJob(jobId: string | null) {
  return useQuery<JobView>({
    queryKey: ['/api/jobs', jobId],
    enabled: jobId !== null,
    queryFn: async () =>
      jobViewSchema.parse(await apiJson<unknown>('GET', `/api/jobs/${encodeURIComponent(jobId ?? '')}`)),
    refetchInterval: (query) => (isFinished(query.state.data) ? false : 1000),
  });
}

export async function startBackup(): Promise<string> {
  return backupStartedSchema.parse(await apiJson<unknown>('POST', BACKUPS_KEY[0])).jobId;
}

export async function restorePlaylist(snapshotId: string, request: RestoreRequest): Promise<RestoreResponse> {
  return restoreResponseSchema.parse(
    await apiJson<unknown>('POST', `${BACKUPS_KEY[0]}/${encodeURIComponent(snapshotId)}/restore`, request),
  );
}
