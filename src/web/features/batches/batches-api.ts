import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import {
  type BatchRequest,
  type BatchStatus,
  type BatchView,
  batchCreatedSchema,
  batchReviewSchema,
  batchViewSchema,
} from '../../../shared/api/batches';
import { type MatchChoice, matchRowSchema, matchSetViewSchema } from '../../../shared/api/transfer';
import { request } from '../../lib/api-client';
import { useViewFollowingJobs } from '../../lib/job-progress';
import { queryClient } from '../../lib/query-client';
import { TRANSFERS_KEY, USAGE_KEY } from '../account';
import { matchRulesChanged } from '../match-rules';
import { invalidatePlaylists } from '../playlists';

/** Batches (issue 14 item 2): several playlists matched, reviewed once and moved by one job. */
export const BATCHES_KEY = ['batches'] as const;

export const batchQuery = (batchId: string) =>
  queryOptions({
    queryKey: [...BATCHES_KEY, batchId],
    queryFn: async ({ signal }) => {
      const before = queryClient.getQueryData<BatchView>([...BATCHES_KEY, batchId]);
      const view = await request(
        batchViewSchema,
        'GET',
        `/api/batches/${encodeURIComponent(batchId)}`,
        undefined,
        {
          signal,
        },
      );
      if (movedSince(before?.status, view.status)) void batchMoved(view);
      return view;
    },
  });

/** A batch, read again on its job's events while it is matched or moved (`useViewFollowingJobs`). */
export function useBatch(batchId: string, enabled: boolean) {
  const batch = useQuery({ ...batchQuery(batchId), enabled });
  const status = batch.data?.status;
  const jobId = batch.data?.jobId;
  const running = status === 'matching' || status === 'transferring';
  useViewFollowingJobs(batchQuery(batchId).queryKey, running && jobId ? [jobId] : []);
  return batch;
}

/**
 * The batch finished moving since the last read: it was being moved then, or it was waiting for review
 * and is already done (a small batch can be moved between two reads).
 */
export function movedSince(before: BatchStatus | undefined, now: BatchStatus): boolean {
  const finished = now === 'done' || now === 'failed';
  return finished && (before === 'transferring' || before === 'review');
}

/** A batch that has finished moving made playlists on the destination and finished its transfers. */
const batchMoved = (view: BatchView) =>
  Promise.all([
    invalidatePlaylists(view.destinationService),
    queryClient.invalidateQueries({ queryKey: TRANSFERS_KEY }),
  ]);

export const batchReviewQuery = (batchId: string) =>
  queryOptions({
    queryKey: [...BATCHES_KEY, batchId, 'review'],
    queryFn: ({ signal }) =>
      request(batchReviewSchema, 'GET', `/api/batches/${encodeURIComponent(batchId)}/review`, undefined, {
        signal,
      }),
  });

/** Where a moved playlist's playlist_transfer.csv and the whole batch's CSV are downloaded from. */
export const transferCsvUrl = (transferId: string) => `/api/export/csv/${encodeURIComponent(transferId)}`;
export const batchCsvUrl = (batchId: string) => `/api/batches/${encodeURIComponent(batchId)}/csv`;

/** Step 2's "move several at once": the batch is created, and the caller goes to its page. */
export const useCreateBatch = () =>
  useMutation({
    mutationFn: (input: BatchRequest) => request(batchCreatedSchema, 'POST', '/api/batches', input),
  });

export interface BatchRowFix {
  matchSetId: string;
  position: number;
  choice: MatchChoice;
}

/**
 * A fix goes to the row's own match set and becomes (or stops being) the person's match rule, as in the
 * wizard; the review list and the counts change, and the rules.
 */
export const useFixBatchRow = (batchId: string) =>
  useMutation({
    mutationFn: ({ matchSetId, position, choice }: BatchRowFix) =>
      request(
        matchRowSchema,
        'PATCH',
        `/api/match/${encodeURIComponent(matchSetId)}/rows/${position}`,
        choice,
      ),
    onSuccess: async () => {
      void matchRulesChanged();
      await queryClient.invalidateQueries({ queryKey: [...BATCHES_KEY, batchId] });
    },
  });

/** "Accept all in review" for every playlist of the batch that still has rows waiting. */
export const useAcceptAllOfBatch = (batchId: string) =>
  useMutation({
    mutationFn: async (matchSetIds: readonly string[]) => {
      for (const matchSetId of matchSetIds) {
        await request(
          matchSetViewSchema,
          'POST',
          `/api/match/${encodeURIComponent(matchSetId)}/accept-review`,
        );
      }
    },
    // Some playlists may have been accepted before a failure: the list is read again either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...BATCHES_KEY, batchId] }),
  });

/**
 * Moves every matched playlist. Each playlist became a transfer, each taking a use of the plan; the new
 * playlists join the destination's list once the batch has moved them (batchQuery sees it finish).
 */
export const useStartBatchTransfer = (batchId: string) =>
  useMutation({
    mutationFn: () =>
      request(batchViewSchema, 'POST', `/api/batches/${encodeURIComponent(batchId)}/transfer`),
    onSuccess: async (view) => {
      queryClient.setQueryData(batchQuery(batchId).queryKey, view);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: TRANSFERS_KEY }),
        queryClient.invalidateQueries({ queryKey: USAGE_KEY }),
      ]);
      if (view.status !== 'transferring') void batchMoved(view);
    },
  });
