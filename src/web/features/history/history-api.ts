import { infiniteQueryOptions, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import {
  disappearedSchema,
  historyPageSchema,
  restoreStartedSchema,
  restoreStatusSchema,
} from '../../../shared/api/history';
import type { ServiceId } from '../../../shared/services';
import { request } from '../../lib/api-client';
import { isJobFinished, useJobProgress } from '../../lib/job-progress';
import { queryClient } from '../../lib/query-client';

/** A playlist's history (issue 21), keyed `['history', service, playlistId]`, newest first, page by page. */
export const HISTORY_KEY = ['history'] as const;

const historyPath = (service: ServiceId, playlistId: string) =>
  `/api/history/${service}/${encodeURIComponent(playlistId)}`;

export const historyQuery = (service: ServiceId, playlistId: string) =>
  infiniteQueryOptions({
    queryKey: [...HISTORY_KEY, service, playlistId],
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam, signal }) =>
      request(
        historyPageSchema,
        'GET',
        `${historyPath(service, playlistId)}${pageParam === undefined ? '' : `?cursor=${pageParam}`}`,
        undefined,
        { signal },
      ),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** What vanished from the person's playlists, when and why. */
export const disappearedQuery = () =>
  queryOptions({
    queryKey: [...HISTORY_KEY, 'disappeared'],
    queryFn: ({ signal }) =>
      request(disappearedSchema, 'GET', '/api/history/disappeared', undefined, { signal }),
  });

/** A restore's job and, once it has one, its verified count. */
export const restoreStatusQuery = (jobId: string) =>
  queryOptions({
    queryKey: [...HISTORY_KEY, 'restores', jobId],
    queryFn: ({ signal }) =>
      request(restoreStatusSchema, 'GET', `/api/history/restores/${encodeURIComponent(jobId)}`, undefined, {
        signal,
      }),
  });

/**
 * A restore under way: its progress from its job's events, its result read when the job has ended. Its
 * end also reads the histories again: the restore wrote a version of its own (which the read at its
 * start, `useRestoreVersion`, was too early to see).
 */
export function useRestoreStatus(jobId: string) {
  const job = useJobProgress(jobId);
  const ended = isJobFinished(job.data);
  const status = useQuery({ ...restoreStatusQuery(jobId), enabled: ended });
  useEffect(() => {
    if (!ended) return;
    void queryClient.invalidateQueries({
      queryKey: HISTORY_KEY,
      predicate: (query) => query.queryKey[1] !== 'restores',
    });
  }, [ended]);
  return { job: job.data, result: ended ? status.data?.result : undefined };
}

/** Restore a version: `dryRun` answers what it would do; otherwise a job starts. */
export function useRestoreVersion(service: ServiceId, playlistId: string) {
  return useMutation({
    mutationFn: (input: { versionId: string; dryRun: boolean }) =>
      request(restoreStartedSchema, 'POST', `${historyPath(service, playlistId)}/restore`, input),
    onSuccess: (started) =>
      started.dryRun ? undefined : queryClient.invalidateQueries({ queryKey: HISTORY_KEY }),
  });
}

/** Undo what a transfer or a sync run wrote (a restore job, as above). */
export function useUndo() {
  return useMutation({
    mutationFn: (writer: { transferId: string } | { syncId: string; runId: string }) =>
      request(
        restoreStartedSchema,
        'POST',
        'transferId' in writer
          ? `/api/transfers/${encodeURIComponent(writer.transferId)}/undo`
          : `/api/syncs/${encodeURIComponent(writer.syncId)}/runs/${encodeURIComponent(writer.runId)}/undo`,
        {},
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: HISTORY_KEY }),
  });
}

export const historyPagePath = (service: ServiceId, playlistId: string) =>
  `/history/${service}/${encodeURIComponent(playlistId)}`;
