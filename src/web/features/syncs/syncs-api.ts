import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import {
  type CreateSyncRequest,
  createSyncResponseSchema,
  type SyncList,
  type SyncRun,
  type SyncRunStatus,
  syncListSchema,
  syncRunListSchema,
  syncRunSchema,
  syncSchema,
} from '../../../shared/api/syncs';
import type { ServiceId } from '../../../shared/services';
import { noContentSchema, request } from '../../lib/api-client';
import { useViewFollowingJobs } from '../../lib/job-progress';
import { queryClient } from '../../lib/query-client';
import { invalidatePlaylists } from '../playlists';

/** The person's syncs (issue 14), keyed `['syncs']`; a sync's runs under `['syncs', id, 'runs']`. */
export const SYNCS_KEY = ['syncs'] as const;

export const syncsQuery = () =>
  queryOptions({
    queryKey: SYNCS_KEY,
    queryFn: async ({ signal }) => {
      const before = queryClient.getQueryData<SyncList>(SYNCS_KEY);
      const list = await request(syncListSchema, 'GET', '/api/syncs', undefined, { signal });
      void invalidateWhatRunsChanged(before, list);
      return list;
    },
  });

const UNDER_WAY: readonly SyncRunStatus[] = ['queued', 'running'];

/**
 * The services whose playlists a real run changed since the last read: the run has stopped, and it was
 * under way then or is new (a run can start and finish between two reads: a short run is done before
 * the list is read again after "Run now"). Its destination's list of playlists is read again (the first
 * run created the playlist).
 */
export function destinationsWrittenSince(before: SyncList | undefined, after: SyncList): Set<ServiceId> {
  const services = new Set<ServiceId>();
  if (before === undefined) return services;
  for (const sync of after.syncs) {
    const run = sync.lastRun;
    if (!run || run.dryRun || UNDER_WAY.includes(run.status)) continue;
    const was = before.syncs.find((old) => old.id === sync.id)?.lastRun;
    const seenStopped = was?.id === run.id && !UNDER_WAY.includes(was.status);
    if (seenStopped) continue;
    services.add(sync.destinationService);
    // A two-way run writes on both sides.
    if (sync.direction === 'two-way') services.add(sync.sourceService);
  }
  return services;
}

const invalidateWhatRunsChanged = (before: SyncList | undefined, after: SyncList) =>
  Promise.all([...destinationsWrittenSince(before, after)].map((service) => invalidatePlaylists(service)));

export const syncRunsQuery = (syncId: string) =>
  queryOptions({
    queryKey: [...SYNCS_KEY, syncId, 'runs'],
    queryFn: ({ signal }) =>
      request(syncRunListSchema, 'GET', `/api/syncs/${encodeURIComponent(syncId)}/runs`, undefined, {
        signal,
      }),
  });

/** The jobs of the runs under way, whose events keep a view of them current. */
const runningJobs = (runs: readonly (SyncRun | null | undefined)[]) =>
  runs.flatMap((run) => (run?.jobId && UNDER_WAY.includes(run.status) ? [run.jobId] : []));

/** The syncs, read again on the events of runs under way (a run changes its sync's last run). */
export function useSyncs() {
  const syncs = useQuery(syncsQuery());
  useViewFollowingJobs(SYNCS_KEY, runningJobs(syncs.data?.syncs.map((sync) => sync.lastRun) ?? []));
  return syncs;
}

/** A sync's runs, read again on the events of the runs under way. */
export function useSyncRuns(syncId: string, enabled: boolean) {
  const runs = useQuery({ ...syncRunsQuery(syncId), enabled });
  useViewFollowingJobs(syncRunsQuery(syncId).queryKey, enabled ? runningJobs(runs.data?.runs ?? []) : []);
  return runs;
}

/** Everything a sync action changes (the list and the sync's history) is read again. */
const syncsChanged = () => queryClient.invalidateQueries({ queryKey: SYNCS_KEY });

const syncPath = (id: string, action = '') => `/api/syncs/${encodeURIComponent(id)}${action}`;

async function createSync(input: CreateSyncRequest) {
  return request(createSyncResponseSchema, 'POST', '/api/syncs', input);
}

/** Every write on syncs is one of these mutations; each reads the list and the histories again. */
export const useCreateSync = () => useMutation({ mutationFn: createSync, onSettled: syncsChanged });

export const useRunSync = (id: string) =>
  useMutation({
    mutationFn: (dryRun: boolean) =>
      request(syncRunSchema, 'POST', syncPath(id, '/run'), dryRun ? { dryRun: true } : {}),
    onSettled: syncsChanged,
  });

/** Runs again a run that stopped for the person (removals over 10 %, or a side that read less than half). */
export const useConfirmSyncRun = (id: string, runId: string) =>
  useMutation({
    mutationFn: () =>
      request(syncRunSchema, 'POST', syncPath(id, `/runs/${encodeURIComponent(runId)}/confirm`)),
    onSettled: syncsChanged,
  });

/** Two-way with Apple Music: a new Apple playlist holding exactly the merged state (decision 0024). */
export const useRebuildSync = (id: string) =>
  useMutation({
    mutationFn: () => request(syncRunSchema, 'POST', syncPath(id, '/rebuild')),
    onSettled: syncsChanged,
  });

export const useSetSyncPaused = (id: string) =>
  useMutation({
    mutationFn: (paused: boolean) => request(syncSchema, 'POST', syncPath(id, paused ? '/pause' : '/resume')),
    onSettled: syncsChanged,
  });

export const useDeleteSync = (id: string) =>
  useMutation({
    mutationFn: () => request(noContentSchema, 'DELETE', syncPath(id)),
    onSettled: syncsChanged,
  });
