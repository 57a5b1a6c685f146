import { useQuery } from '@tanstack/react-query';
import type { AuthStatus } from '../../../shared/api/auth';
import type { CloudExportRequest, ExportPlaylistRequest, SavedExport } from '../../../shared/api/exports';
import { SAMPLE_PLAYLISTS } from '../../../shared/api/insights';
import type { PlaylistSummary } from '../../../shared/api/playlists';
import { SERVICE_LABELS, type ServiceId } from '../../../shared/services';
import { apiJson, apiRequest } from '../../lib/api-client';

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
  return useQuery({
    queryKey: ['export-playlists', status.user?.id ?? null, ...services],
    enabled: !authLoading,
    queryFn: async (): Promise<{ playlists: ExportablePlaylist[]; sample: boolean }> => {
      if (!status.user || services.length === 0) return { playlists: samplePlaylists(), sample: true };
      const lists = await Promise.all(
        services.map(async (service) => ({
          service,
          playlists: await apiJson<PlaylistSummary[]>('GET', `/api/playlists/${service}`),
        })),
      );
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
      return { playlists, sample: false };
    },
  });
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
export async function downloadExport(request: ExportPlaylistRequest): Promise<string> {
  const res = await apiRequest('POST', '/api/export/playlist', request);
  const fileName = fileNameFrom(res.headers.get('content-disposition'), `playlist.${request.format}`);
  saveBlob(await res.blob(), fileName);
  return fileName;
}

export const saveToCloud = (request: CloudExportRequest) =>
  apiJson<SavedExport>('POST', '/api/export/cloud', request);
