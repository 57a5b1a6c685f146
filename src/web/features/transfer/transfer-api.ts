import { infiniteQueryOptions, queryOptions, useMutation } from '@tanstack/react-query';
import { type CsvImportResponse, csvImportResponseSchema } from '../../../shared/api/playlists';
import {
  type Candidate,
  candidateSchema,
  type MatchChoice,
  type MatchRow,
  type MatchRowFilter,
  type MatchSetView,
  matchRowSchema,
  matchSetViewSchema,
  type TransferRequest,
  type TransferResult,
  transferResultSchema,
} from '../../../shared/api/transfer';
import { apiRequest, request } from '../../lib/api-client';
import { matchRulesChanged } from '../match-rules';
import { invalidatePlaylists } from '../playlists';
import type { MatchingInput } from './wizard-state';

/**
 * The wizard asks for the set and its counts only (`limit=0`, issue 25): the rows come a page at a time
 * (`matchRowsQuery`), however long the set.
 */
const HEAD_ONLY = '?limit=0';
const matchPath = (matchSetId: string) => `/api/match/${encodeURIComponent(matchSetId)}`;

export async function startMatching(input: MatchingInput): Promise<MatchSetView> {
  return request(matchSetViewSchema, 'POST', `/api/match${HEAD_ONLY}`, input);
}

export async function fetchMatchSet(matchSetId: string): Promise<MatchSetView> {
  return request(matchSetViewSchema, 'GET', `${matchPath(matchSetId)}${HEAD_ONLY}`);
}

/** "Accept all N in review": the review-band rows become the person's choice, so the transfer adds them. */
export async function acceptAllInReview(matchSetId: string): Promise<MatchSetView> {
  return request(matchSetViewSchema, 'POST', `${matchPath(matchSetId)}/accept-review${HEAD_ONLY}`);
}

/** Rows a page of the review list holds. */
export const MATCH_ROWS_PAGE = 100;
/** The key every query of one match set starts with (its head, its pages of rows). */
export const MATCH_SET_KEY = 'match-set';

/** Which rows a list shows: a status, the rows a transfer left out (with its "include unmatched"), or all. */
export interface MatchRowsView {
  status?: MatchRowFilter;
  includeUnmatched?: boolean;
}

/** A match set's rows, a page at a time by position; the first page also carries the set's counts. */
export const matchRowsQuery = (matchSetId: string, view: MatchRowsView = {}) =>
  infiniteQueryOptions({
    queryKey: [MATCH_SET_KEY, matchSetId, 'rows', view.status ?? 'all', view.includeUnmatched ?? false],
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: String(MATCH_ROWS_PAGE) });
      if (view.status !== undefined) query.set('status', view.status);
      if (view.includeUnmatched !== undefined) query.set('includeUnmatched', String(view.includeUnmatched));
      if (pageParam !== undefined) query.set('cursor', String(pageParam));
      return request(matchSetViewSchema, 'GET', `${matchPath(matchSetId)}?${query}`, undefined, { signal });
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

const rowPath = (matchSetId: string, position: number) =>
  `/api/match/${encodeURIComponent(matchSetId)}/rows/${position}`;

/** A fix (or its reset) also saves (or forgets) the person's match rule for the song. */
export async function changeMatchRow(
  matchSetId: string,
  position: number,
  choice: MatchChoice,
): Promise<MatchRow> {
  const row = await request(matchRowSchema, 'PATCH', rowPath(matchSetId, position), choice);
  void matchRulesChanged();
  return row;
}

/** Destination tracks for a match row's song, scored against it: the person's own search. */
export const rowSearchQuery = (matchSetId: string, position: number, text: string) =>
  queryOptions({
    queryKey: ['match', matchSetId, 'rows', position, 'search', text] as const,
    queryFn: ({ signal }): Promise<Candidate[]> =>
      request(
        candidateSchema.array(),
        'GET',
        `${rowPath(matchSetId, position)}/search?q=${encodeURIComponent(text)}`,
        undefined,
        { signal },
      ),
    staleTime: 60_000,
  });

/** A finished transfer made a playlist on the destination; the caller invalidates once it has finished. */
export async function startTransfer(transfer: TransferRequest): Promise<TransferResult> {
  return request(transferResultSchema, 'POST', '/api/transfer', transfer);
}

export async function fetchTransfer(transferId: string): Promise<TransferResult> {
  return request(transferResultSchema, 'GET', `/api/transfers/${encodeURIComponent(transferId)}`);
}

export async function retryTransfer(transferId: string): Promise<TransferResult> {
  return request(transferResultSchema, 'POST', `/api/transfers/${encodeURIComponent(transferId)}/retry`);
}

export async function downloadTransferCsv(transferId: string): Promise<Blob> {
  const res = await apiRequest('GET', `/api/export/csv/${encodeURIComponent(transferId)}`);
  return res.blob();
}

export type CsvImportAnswer = CsvImportResponse;

/**
 * The file goes as the raw body; the server reads its name from the query for the playlist's name. The
 * caller reads the person's lists again (the imported playlist joins them): `useImportCsv` does.
 */
export function importCsv(file: File): Promise<CsvImportAnswer> {
  const csv = file.type === 'text/csv' ? file : new Blob([file], { type: 'text/csv' });
  return request(
    csvImportResponseSchema,
    'POST',
    `/api/import/csv?fileName=${encodeURIComponent(file.name)}`,
    csv,
  );
}

/** "Import a CSV": the imported playlist joins the person's lists, so they are read again. */
export const useImportCsv = () =>
  useMutation({ mutationFn: importCsv, onSuccess: () => invalidatePlaylists() });
