import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { AuthStatus } from '../../../shared/api/auth';
import {
  type CloudDrive,
  type CloudExportRequest,
  cloudDriveConnectResponseSchema,
  cloudDriveFileListSchema,
  cloudDriveStatusListSchema,
  cloudSaveSchema,
  type ExportPlaylistRequest,
} from '../../../shared/api/export';
import { SAMPLE_PLAYLISTS } from '../../../shared/api/visualizations';
import { SERVICE_LABELS, type ServiceId } from '../../../shared/services';
import { sameNameDetails, withTwinDetails } from '../../components/playlist-twins';
import { apiRequest, noContentSchema, request } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { queryClient } from '../../lib/query-client';
import { SAVED_EXPORTS_KEY } from '../account';
import { type ServicePlaylists, usePlaylistsOf } from '../playlists';

/**
 * Every read and write of the export panel: the playlists it offers, downloads, Save to Cloud, and the
 * person's cloud drives (decision 0027).
 */

export interface ExportablePlaylist {
  id: string;
  name: string;
  trackCount: number;
  service: ServiceId;
  /** Shown in the picker: "Road Trip (Spotify, 48 tracks)". */
  label: string;
  /** Why this app cannot read it (shown, and the playlist cannot be chosen). */
  unreadableReason?: string;
}

const count = (n: number) => `${n} track${n === 1 ? '' : 's'}`;

export const samplePlaylists = (): ExportablePlaylist[] =>
  SAMPLE_PLAYLISTS.map((playlist) => ({
    id: playlist.id,
    name: playlist.name,
    trackCount: playlist.tracks.length,
    service: 'spotify',
    label: `${playlist.name} (sample, ${count(playlist.tracks.length)})`,
  }));

/**
 * The playlists the export picker offers: the person's own on every connected service (imported files are
 * listed under each service by the server, so they are kept once), or the sample when there are none.
 * Those the app cannot read stay in the list with their reason, so the person knows why.
 */
export function useExportablePlaylists(status: AuthStatus, authLoading: boolean) {
  const services = (['spotify', 'apple'] as const).filter((service) =>
    service === 'spotify' ? status.spotifyConnected : status.appleConnected,
  );
  const ownLists = !authLoading && status.user !== null && services.length > 0;
  const lists = usePlaylistsOf(services, ownLists);
  const data = useMemo(() => {
    if (authLoading) return undefined;
    if (!ownLists) return { playlists: samplePlaylists(), sample: true };
    return lists.data === undefined ? undefined : { playlists: exportable(lists.data), sample: false };
  }, [authLoading, ownLists, lists.data]);
  return {
    data,
    isPending: data === undefined && !lists.isError,
    isError: ownLists && lists.isError,
    refetch: lists.refetch,
  };
}

function exportable(lists: readonly ServicePlaylists[]): ExportablePlaylist[] {
  const seen = new Set<string>();
  const playlists: ExportablePlaylist[] = [];
  for (const { service, playlists: own } of lists) {
    // Same-named playlists of one service say what tells them apart (issue 23).
    const twins = sameNameDetails(own);
    for (const playlist of own) {
      if (seen.has(playlist.id)) continue;
      seen.add(playlist.id);
      const origin = playlist.id.startsWith('import:') ? 'imported file' : SERVICE_LABELS[service];
      playlists.push({
        id: playlist.id,
        name: playlist.name,
        trackCount: playlist.trackCount,
        service,
        label: withTwinDetails(
          `${playlist.name} (${origin}, ${count(playlist.trackCount)})`,
          twins.get(playlist.id),
        ),
        ...(playlist.unreadableReason ? { unreadableReason: playlist.unreadableReason } : {}),
      });
    }
  }
  return playlists;
}

// ── Downloads ─────────────────────────────────────────────────────────────────────────────────

/** The file name from `Content-Disposition`, preferring the RFC 5987 `filename*` form. */
export function fileNameFrom(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1]);
    } catch {
      // fall through to the plain form
    }
  }
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? fallback;
}

export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Asks the server for the file and hands it to the browser as a download; answers the file name. */
export const useExportDownload = () =>
  useMutation({
    mutationFn: async (exportRequest: ExportPlaylistRequest) => {
      const res = await apiRequest('POST', '/api/export/playlist', exportRequest);
      const fileName = fileNameFrom(
        res.headers.get('content-disposition'),
        `playlist.${exportRequest.format}`,
      );
      saveBlob(await res.blob(), fileName);
      return fileName;
    },
  });

// ── Save to Cloud ─────────────────────────────────────────────────────────────────────────────

/** Where a drive's consent page sends the person back to: this panel, on the Features page. */
export const EXPORT_PANEL_PATH = `${paths.visualizations}?tab=export-options`;

export const CLOUD_DRIVES_KEY = ['cloud-drives'] as const;
export const driveFilesKey = (drive: CloudDrive) => [...CLOUD_DRIVES_KEY, drive, 'files'] as const;

export const cloudDrivesQuery = () =>
  queryOptions({
    queryKey: CLOUD_DRIVES_KEY,
    queryFn: ({ signal }) =>
      request(cloudDriveStatusListSchema, 'GET', '/api/cloud-drives', undefined, { signal }),
  });

export const driveFilesQuery = (drive: CloudDrive) =>
  queryOptions({
    queryKey: driveFilesKey(drive),
    queryFn: ({ signal }) =>
      request(cloudDriveFileListSchema, 'GET', `/api/cloud-drives/${drive}/files`, undefined, { signal }),
  });

/** The person's drives; only asked when signed in. */
export const useCloudDrives = (signedIn: boolean) => useQuery({ ...cloudDrivesQuery(), enabled: signedIn });
export const useDriveFiles = (drive: CloudDrive, enabled: boolean) =>
  useQuery({ ...driveFilesQuery(drive), enabled });

/** Saves the export in Crossfade's storage or on a connected drive; the list of saves there is read again. */
export const useCloudSave = () =>
  useMutation({
    mutationFn: (cloud: CloudExportRequest) => request(cloudSaveSchema, 'POST', '/api/export/cloud', cloud),
    onSuccess: (saved) =>
      queryClient.invalidateQueries({
        queryKey: saved.target === 'crossfade' ? SAVED_EXPORTS_KEY : driveFilesKey(saved.target),
      }),
    // A drive that no longer accepts our access is dropped by the server: its state is read again.
    onError: () => queryClient.invalidateQueries({ queryKey: CLOUD_DRIVES_KEY, exact: true }),
  });

/** Sends the browser to the drive's consent page; it comes back to `returnTo` with `?cloudConnected=`. */
export const useConnectDrive = () =>
  useMutation({
    mutationFn: async ({ drive, returnTo }: { drive: CloudDrive; returnTo: string }) => {
      const query = new URLSearchParams({ returnTo });
      const { authUrl } = await request(
        cloudDriveConnectResponseSchema,
        'GET',
        `/api/cloud-drives/${drive}/connect?${query}`,
      );
      window.location.assign(authUrl);
    },
  });

export const useDisconnectDrive = () =>
  useMutation({
    mutationFn: (drive: CloudDrive) =>
      request(noContentSchema, 'POST', `/api/cloud-drives/${drive}/disconnect`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CLOUD_DRIVES_KEY }),
  });
