import {
  CSV_COLUMNS,
  CSV_METADATA_COLUMNS,
  type ExportedTrack,
  type ExportFormat,
  type PlaylistExportJson,
} from '../../shared/api/export';
import { toCsv } from './csv';
import type { ExportSource } from './export-source';

export interface ExportOptions {
  includeMetadata: boolean;
  includeLinks: boolean;
  includeArtwork: boolean;
}

export interface ExportFile {
  format: ExportFormat;
  playlistName: string;
  fileName: string;
  contentType: string;
  data: Uint8Array;
}

/**
 * The JSON export, shaped exactly as spec section 3. `trackCount` is the number of tracks in the file
 * (entries a service cannot give as tracks, such as local files, are not exported). `uri` comes with
 * Include Links; `artwork` (the cover URL the service returned) with Include Metadata, since a cover is
 * metadata about the track rather than a link to play it.
 */
export function exportJson(
  source: ExportSource,
  options: ExportOptions,
  now = new Date(),
): PlaylistExportJson {
  return {
    playlist: {
      name: source.playlist.name,
      id: source.playlist.id,
      trackCount: source.tracks.length,
      description: source.playlist.description,
    },
    tracks: source.tracks.map((track) => {
      const exported: ExportedTrack = {
        name: track.name,
        artists: track.artists,
        album: track.album,
        id: track.id,
      };
      if (options.includeLinks) exported.uri = track.uri;
      if (options.includeMetadata && track.imageUrl) exported.artwork = track.imageUrl;
      return exported;
    }),
    exportedAt: now.toISOString(),
    includesMetadata: options.includeMetadata,
  };
}

/** `m:ss` (or `h:mm:ss`), empty when the service gave no duration (decision record 0005). */
export function formatDuration(durationMs: number | undefined): string {
  if (!durationMs || durationMs <= 0 || !Number.isFinite(durationMs)) return '';
  const totalSeconds = Math.round(durationMs / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = String(totalSeconds % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/**
 * The CSV export: spec section 3's columns (Track Name, Artist, Album, Duration), artists joined with
 * ", ". Include Metadata appends ISRC, Release Date, Genres and Artwork URL.
 */
export function exportCsv(source: ExportSource, options: ExportOptions): string {
  const header = options.includeMetadata ? [...CSV_COLUMNS, ...CSV_METADATA_COLUMNS] : [...CSV_COLUMNS];
  const rows = source.tracks.map((track) => {
    const base = [track.name, track.artists.join(', '), track.album, formatDuration(track.durationMs)];
    if (!options.includeMetadata) return base;
    return [
      ...base,
      track.isrc ?? '',
      track.releaseDate ?? '',
      (track.genres ?? []).join(', '),
      track.imageUrl ?? '',
    ];
  });
  return toCsv(header, rows);
}

/** A file name from the playlist's name: letters and digits kept (any script), the rest as dashes. */
export function fileBaseName(playlistName: string): string {
  const slug = playlistName
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return slug || 'playlist';
}

/** Excel opens a UTF-8 CSV as a legacy code page unless it starts with a byte-order mark. */
const UTF8_BOM = '\uFEFF';

export function textExport(source: ExportSource, format: 'csv' | 'json', options: ExportOptions): ExportFile {
  const base = fileBaseName(source.playlist.name);
  if (format === 'csv') {
    return {
      format,
      playlistName: source.playlist.name,
      fileName: `${base}.csv`,
      contentType: 'text/csv; charset=utf-8',
      data: new TextEncoder().encode(UTF8_BOM + exportCsv(source, options)),
    };
  }
  return {
    format,
    playlistName: source.playlist.name,
    fileName: `${base}.json`,
    contentType: 'application/json; charset=utf-8',
    data: new TextEncoder().encode(`${JSON.stringify(exportJson(source, options), null, 2)}\n`),
  };
}

/** `attachment` with an ASCII fallback name and the real one in RFC 5987 form. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
