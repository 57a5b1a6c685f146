import { get } from 'node:http';
import type { TestClient } from './test-server';

/** A download as it came: its status, headers and bytes, and how many pieces the socket delivered. */
export interface Download {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
  chunks: number;
}

/**
 * GET `path` as the client's browser would download it (its cookies), read as raw bytes on a connection of
 * its own (a pooled one may be closed by the server while the test was busy). `onFirstBytes` is called when
 * the first bytes of the body arrive. Rejects when the body did not come to its end (a cut connection).
 */
export function download(client: TestClient, path: string, onFirstBytes?: () => void): Promise<Download> {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return new Promise((resolve, reject) => {
    const request = get(`${client.baseUrl}${path}`, { headers: { cookie }, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => {
        if (chunks.length === 0) onFirstBytes?.();
        chunks.push(chunk);
      });
      response.on('error', reject);
      response.on('aborted', () => reject(new Error('the download was cut')));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          bytes: Buffer.concat(chunks),
          chunks: chunks.length,
        }),
      );
    });
    request.on('error', reject);
  });
}
