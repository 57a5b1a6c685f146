import { type Zippable, zipSync } from 'fflate';
import type { AppDeps } from '../app-context';
import { type ExportFile, type ExportOptions, exportCsv, exportJson, fileBaseName } from './export-files';
import type { ExportSource } from './export-source';

/**
 * The Vault+ ZIP: playlist.json and playlist.csv (with the chosen options), and with Include Artwork the
 * cover images. Only URLs the service's API returned for these tracks are fetched: https anywhere, plain
 * http only from this server's own sandbox emulators. Covers that cannot be fetched (the sandbox's Apple
 * artwork points at Apple's real CDN, which a test machine may not reach) are listed in artwork.txt
 * instead, so the archive says what is missing rather than silently omitting it.
 */

const MAX_IMAGES = 50;
const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
const IMAGE_TIMEOUT_MS = 5000;
const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/svg+xml': 'svg',
};

export async function zipExport(
  deps: AppDeps,
  source: ExportSource,
  options: ExportOptions,
): Promise<ExportFile> {
  const encoder = new TextEncoder();
  const files: Zippable = {
    'playlist.json': encoder.encode(`${JSON.stringify(exportJson(source, options), null, 2)}\n`),
    'playlist.csv': encoder.encode(`\uFEFF${exportCsv(source, options)}`),
  };
  if (options.includeArtwork) {
    const urls = [...new Set(source.tracks.flatMap((track) => (track.imageUrl ? [track.imageUrl] : [])))];
    const missing: string[] = urls.slice(MAX_IMAGES);
    const fetched = await Promise.all(urls.slice(0, MAX_IMAGES).map((url) => fetchImage(deps, url)));
    fetched.forEach((image, index) => {
      const url = urls[index] ?? '';
      if (!image) {
        missing.push(url);
        return;
      }
      // Images are already compressed: store them as they are.
      files[`artwork/${String(index + 1).padStart(3, '0')}.${image.extension}`] = [image.bytes, { level: 0 }];
    });
    if (missing.length > 0) {
      const lines = [
        'These cover images could not be downloaded when the export was made (or were beyond the',
        `first ${MAX_IMAGES}). They are the addresses the music service gave for this playlist's artwork:`,
        '',
        ...missing,
        '',
      ];
      files['artwork.txt'] = encoder.encode(lines.join('\n'));
    }
  }
  return {
    format: 'zip',
    playlistName: source.playlist.name,
    fileName: `${fileBaseName(source.playlist.name)}.zip`,
    contentType: 'application/zip',
    data: zipSync(files, { level: 6 }),
  };
}

async function fetchImage(
  deps: AppDeps,
  address: string,
): Promise<{ bytes: Uint8Array; extension: string } | null> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return null;
  }
  const fromSandbox = url.origin === new URL(deps.providers.internalOrigin).origin;
  if (url.protocol !== 'https:' && !fromSandbox) return null;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(IMAGE_TIMEOUT_MS), redirect: 'follow' });
    const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const extension = EXTENSIONS[type];
    if (!response.ok || !extension) return null;
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.length === 0 || bytes.length > MAX_IMAGE_BYTES) return null;
    return { bytes, extension };
  } catch {
    return null;
  }
}
