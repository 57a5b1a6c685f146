import { useMemo } from 'react';
import type { AuthStatus } from '../../../shared/api/auth';
import {
  type CloudExportRequest,
  type ExportPlaylistRequest,
  savedExportSchema,
} from '../../../shared/api/export';
import { SAMPLE_PLAYLISTS } from '../../../shared/api/visualizations';
import { SERVICE_LABELS, type ServiceId } from '../../../shared/services';
import { apiRequest, request } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { SAVED_EXPORTS_KEY } from '../account';
import { type ServicePlaylists, usePlaylistsOf } from '../playlists';

export interface ExportablePlaylist {
  id: string;
  name: string;
  trackCount: number;
  service: ServiceId;
  /** Shown in the picker: "Road Trip (Spotify, 48 tracks)". */
  label: string;
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
    for (const playlist of own) {
      if (seen.has(playlist.id)) continue;
      seen.add(playlist.id);
      const origin = playlist.id.startsWith('import:') ? 'imported file' : SERVICE_LABELS[service];
      playlists.push({
        id: playlist.id,
        name: playlist.name,
        trackCount: playlist.trackCount,
        service,
        label: `${playlist.name} (${origin}, ${count(playlist.trackCount)})`,
      });
    }
  }
  return playlists;
}

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

/** Asks the server for the file and hands it to the browser as a download; returns the file name. */
export async function downloadExport(exportRequest: ExportPlaylistRequest): Promise<string> {
  const res = await apiRequest('POST', '/api/export/playlist', exportRequest);
  const fileName = fileNameFrom(res.headers.get('content-disposition'), `playlist.${exportRequest.format}`);
  saveBlob(await res.blob(), fileName);
  return fileName;
}

/** Saves the export in our storage; the account's list of saved exports is read again. */
export async function saveToCloud(cloud: CloudExportRequest) {
  const saved = await request(savedExportSchema, 'POST', '/api/export/cloud', cloud);
  await queryClient.invalidateQueries({ queryKey: SAVED_EXPORTS_KEY });
  return saved;
}
