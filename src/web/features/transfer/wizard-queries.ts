import {
  type InfiniteData,
  MutationObserver,
  type QueryKey,
  queryOptions,
  useIsMutating,
  useQuery,
} from '@tanstack/react-query';
import type { MatchRow, MatchSetView, TransferResult } from '../../../shared/api/transfer';
import { queryClient } from '../../lib/query-client';
import { fetchMatchSet, fetchTransfer, MATCH_SET_KEY } from './transfer-api';
import { type WizardChoices, type WizardState, withUpdatedRow } from './wizard-state';
import { useWizardChoices, wizardStore } from './wizard-store';

/**
 * The wizard's server state: a match set and a transfer, each a query keyed by its id. The wizard's
 * actions run as mutations under WIZARD_WORK_KEY and write what the server answered into these queries;
 * "loading" is simply "a wizard mutation is under way". The match set's query holds the set and its counts;
 * its rows are pages of `matchRowsQuery`, under the same key prefix.
 */
export const TRANSFER_KEY = 'transfer';
export const WIZARD_WORK_KEY = ['wizard'] as const;

export const matchSetQuery = (matchSetId: string) =>
  queryOptions({ queryKey: [MATCH_SET_KEY, matchSetId], queryFn: () => fetchMatchSet(matchSetId) });

export const transferQuery = (transferId: string) =>
  queryOptions({ queryKey: [TRANSFER_KEY, transferId], queryFn: () => fetchTransfer(transferId) });

export const setMatchSet = (view: MatchSetView) =>
  queryClient.setQueryData(matchSetQuery(view.matchSetId).queryKey, view);

/**
 * After the person changed one row: the row is replaced where its pages hold it, and the set's counts
 * and its filtered lists (which the row may have left or joined) are read again, so both agree.
 */
export async function rowChanged(matchSetId: string, row: MatchRow): Promise<void> {
  queryClient.setQueriesData<InfiniteData<MatchSetView>>(
    { queryKey: [MATCH_SET_KEY, matchSetId, 'rows'] },
    (data) => data && { ...data, pages: data.pages.map((page) => withUpdatedRow(page, row)) },
  );
  await queryClient.invalidateQueries({
    queryKey: [MATCH_SET_KEY, matchSetId],
    predicate: (query) => query.queryKey.length === 2 || query.queryKey[3] !== 'all',
  });
}

/** After a change of many rows (accept all in review): every list of the set is read again. */
export const rowsChanged = (matchSetId: string) =>
  queryClient.invalidateQueries({ queryKey: [MATCH_SET_KEY, matchSetId, 'rows'] });

export const setTransferResult = (result: TransferResult) =>
  queryClient.setQueryData(transferQuery(result.transferId).queryKey, result);

/** Runs one wizard action as a mutation: counted while it runs, its failure handed back to the caller. */
export function runWizardMutation<T>(name: string, work: () => Promise<T>): Promise<T> {
  const mutationKey: QueryKey = [...WIZARD_WORK_KEY, name];
  return new MutationObserver<T, unknown, void>(queryClient, { mutationKey, mutationFn: work }).mutate();
}

/** Whether a piece of wizard work of this name is under way, as a hook (re-renders when it changes). */
export const useWizardMutating = (name: string) =>
  useIsMutating({ mutationKey: [...WIZARD_WORK_KEY, name] }) > 0;

export const isWizardMutating = (name?: string) =>
  queryClient.isMutating({ mutationKey: name ? [...WIZARD_WORK_KEY, name] : [...WIZARD_WORK_KEY] }) > 0;

function joined(
  choices: WizardChoices,
  matchSet: MatchSetView | undefined,
  transferResult: TransferResult | undefined,
  loading: boolean,
): WizardState {
  return {
    ...choices,
    matchSet: choices.matchSetId !== null ? (matchSet ?? null) : null,
    transferResult: choices.transferId !== null ? (transferResult ?? null) : null,
    loading,
  };
}

/** The wizard as it is right now, for actions outside React (no subscription). */
export function wizardSnapshot(): WizardState {
  const choices = wizardStore.getState();
  const matchSet =
    choices.matchSetId === null
      ? undefined
      : queryClient.getQueryData(matchSetQuery(choices.matchSetId).queryKey);
  const transfer =
    choices.transferId === null
      ? undefined
      : queryClient.getQueryData(transferQuery(choices.transferId).queryKey);
  return joined(choices, matchSet, transfer, isWizardMutating());
}

/**
 * Spec section 3's wizard state for a page: the person's choices from the store, the match set and the
 * transfer from their queries (fetched again after a reload), and whether wizard work is under way.
 */
export function useWizard(): WizardState {
  const choices = useWizardChoices();
  const matchSet = useQuery({
    ...matchSetQuery(choices.matchSetId ?? ''),
    enabled: choices.matchSetId !== null,
  });
  const transfer = useQuery({
    ...transferQuery(choices.transferId ?? ''),
    enabled: choices.transferId !== null,
  });
  const working = useIsMutating({ mutationKey: [...WIZARD_WORK_KEY] }) > 0;
  const restoring =
    (choices.matchSetId !== null && matchSet.isPending) ||
    (choices.transferId !== null && transfer.isPending);
  return joined(choices, matchSet.data, transfer.data, working || restoring);
}
