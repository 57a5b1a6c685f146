import { CSRF_COOKIE, CSRF_HEADER } from '../../../shared/api/auth';
import type { PlaylistSummary } from '../../../shared/api/playlists';
import {
  type Candidate,
  type JobView,
  jobViewSchema,
  type MatchChoice,
  type MatchRow,
  type MatchSetView,
  matchSetViewSchema,
  type TransferRequest,
  type TransferResult,
  transferResultSchema,
} from '../../../shared/api/transfer';
import type { ServiceId } from '../../../shared/services';
import { apiJson, apiRequest, throwIfResNotOk } from '../../lib/api-client';
import { readCookie } from '../../lib/cookies';
import type { MatchingInput } from './wizard-state';

export const fetchPlaylists = (service: ServiceId) =>
  apiJson<PlaylistSummary[]>('GET', `/api/playlists/${service}`);

export async function startMatching(input: MatchingInput): Promise<MatchSetView> {
  return matchSetViewSchema.parse(await apiJson<unknown>('POST', '/api/match', input));
}

export async function fetchMatchSet(matchSetId: string): Promise<MatchSetView> {
  return matchSetViewSchema.parse(
    await apiJson<unknown>('GET', `/api/match/${encodeURIComponent(matchSetId)}`),
  );
}

/** "Accept all N in review": the review-band rows become the person's choice, so the transfer adds them. */
export async function acceptAllInReview(matchSetId: string): Promise<MatchSetView> {
  return matchSetViewSchema.parse(
    await apiJson<unknown>('POST', `/api/match/${encodeURIComponent(matchSetId)}/accept-review`),
  );
}

const rowPath = (matchSetId: string, position: number) =>
  `/api/match/${encodeURIComponent(matchSetId)}/rows/${position}`;

export const changeMatchRow = (matchSetId: string, position: number, choice: MatchChoice) =>
  apiJson<MatchRow>('PATCH', rowPath(matchSetId, position), choice);

export const searchForRow = (matchSetId: string, position: number, query: string) =>
  apiJson<Candidate[]>('GET', `${rowPath(matchSetId, position)}/search?q=${encodeURIComponent(query)}`);

export async function startTransfer(request: TransferRequest): Promise<TransferResult> {
  return transferResultSchema.parse(await apiJson<unknown>('POST', '/api/transfer', request));
}

export async function fetchTransfer(transferId: string): Promise<TransferResult> {
  return transferResultSchema.parse(
    await apiJson<unknown>('GET', `/api/transfers/${encodeURIComponent(transferId)}`),
  );
}

export async function retryTransfer(transferId: string): Promise<TransferResult> {
  return transferResultSchema.parse(
    await apiJson<unknown>('POST', `/api/transfers/${encodeURIComponent(transferId)}/retry`),
  );
}

export async function downloadTransferCsv(transferId: string): Promise<Blob> {
  const res = await apiRequest('GET', `/api/export/csv/${encodeURIComponent(transferId)}`);
  return res.blob();
}

export interface CsvImportAnswer {
  playlist: { id: string; name: string; trackCount: number };
  warnings: { row: number; message: string }[];
}

/** The file goes as the raw body; the server reads its name from the query for the playlist's name. */
export async function importCsv(file: File): Promise<CsvImportAnswer> {
  // Any API answer sets the CSRF cookie this upload has to echo.
  if (readCookie(document.cookie, CSRF_COOKIE) === undefined)
    await apiRequest('GET', '/api/auth/status').catch(() => undefined);
  const csrf = readCookie(document.cookie, CSRF_COOKIE);
  const res = await fetch(`/api/import/csv?fileName=${encodeURIComponent(file.name)}`, {
    method: 'POST',
    credentials: 'include',
    headers: {
      'content-type': 'text/csv',
      accept: 'application/json',
      ...(csrf ? { [CSRF_HEADER]: csrf } : {}),
    },
    body: file,
  });
  await throwIfResNotOk(res);
  return (await res.json()) as CsvImportAnswer;
}

const TERMINAL = new Set<JobView['status']>(['succeeded', 'failed', 'cancelled']);

/**
 * Follows a job's server-sent events until it ends. EventSource reconnects by itself when a stream
 * closes, so the stream is closed here on the terminal event; a stream that breaks before one resolves
 * with the last view seen (the caller then asks for the result itself).
 */
export function watchJob(
  jobId: string,
  onView: (view: JobView) => void,
  signal?: AbortSignal,
): Promise<JobView | null> {
  return new Promise((resolve) => {
    let last: JobView | null = null;
    const source = new EventSource(`/api/jobs/${encodeURIComponent(jobId)}/events`, {
      withCredentials: true,
    });
    const finish = () => {
      source.close();
      signal?.removeEventListener('abort', finish);
      resolve(last);
    };
    signal?.addEventListener('abort', finish);
    source.onmessage = (event: MessageEvent<string>) => {
      let parsed: ReturnType<typeof jobViewSchema.safeParse>;
      try {
        parsed = jobViewSchema.safeParse(JSON.parse(event.data));
      } catch {
        return;
      }
      if (!parsed.success) return;
      last = parsed.data;
      onView(parsed.data);
      if (TERMINAL.has(parsed.data.status)) finish();
    };
    source.onerror = finish;
  });
}
