import { queryOptions, useQueries } from '@tanstack/react-query';
import { type PlaylistSummary, playlistListSchema } from '../../../shared/api/playlists';
import type { ServiceId } from '../../../shared/services';
import { request } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';

/**
 * The person's own playlists on one service (imported files are listed under each). One resource under
 * one key, read by the wizard, the export picker and the merge picker alike, so that one invalidation
 * after anything that creates a playlist refreshes all of them.
 */
export const PLAYLISTS_KEY = ['playlists'] as const;

export const playlistsQuery = (service: ServiceId) =>
  queryOptions({
    queryKey: [...PLAYLISTS_KEY, service],
    queryFn: ({ signal }) =>
      request(playlistListSchema, 'GET', `/api/playlists/${encodeURIComponent(service)}`, undefined, {
        signal,
      }),
  });

export interface ServicePlaylists {
  service: ServiceId;
  playlists: PlaylistSummary[];
}

/** Each service's list, combined: pending while any is, failed when any failed. */
export function usePlaylistsOf(services: readonly ServiceId[], enabled = true) {
  return useQueries({
    queries: services.map((service) => ({ ...playlistsQuery(service), enabled })),
    combine: (results) => ({
      data: results.every((result) => result.isSuccess)
        ? results.map((result, index) => ({
            service: services[index] as ServiceId,
            playlists: result.data ?? [],
          }))
        : undefined,
      isPending: results.some((result) => result.isPending),
      isError: results.some((result) => result.isError),
      error: results.find((result) => result.isError)?.error ?? null,
      refetch: () => Promise.all(results.map((result) => result.refetch())),
    }),
  });
}

/**
 * Called by every mutation that creates or changes a playlist (a transfer, an import, a merge save, a
 * region playlist, a recreate, a restore): every list of playlists is read again.
 */
export const invalidatePlaylists = (service?: ServiceId) =>
  queryClient.invalidateQueries({
    queryKey: service === undefined ? PLAYLISTS_KEY : [...PLAYLISTS_KEY, service],
  });
