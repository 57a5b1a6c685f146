import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { type MatchRuleEdit, matchRuleListSchema, matchRuleSchema } from '../../../shared/api/match-rules';
import { candidateSchema } from '../../../shared/api/transfer';
import { noContentSchema, request } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';

/** The person's remembered match fixes (issue 14). */
export const MATCH_RULES_KEY = ['match-rules'] as const;

export const matchRulesQuery = () =>
  queryOptions({
    queryKey: MATCH_RULES_KEY,
    queryFn: ({ signal }) => request(matchRuleListSchema, 'GET', '/api/match-rules', undefined, { signal }),
  });

export const useMatchRules = () => useQuery(matchRulesQuery());

/** Deleting a rule changes the list, so it is read again. */
export const useDeleteMatchRule = (id: string) =>
  useMutation({
    mutationFn: () => request(noContentSchema, 'DELETE', rulePath(id)),
    onSuccess: () => matchRulesChanged(),
  });

/** A fix on a match row saves or forgets a rule on the server: the list is stale. */
export const matchRulesChanged = () =>
  queryClient.invalidateQueries({ queryKey: MATCH_RULES_KEY, exact: true });

const rulePath = (id: string) => `/api/match-rules/${encodeURIComponent(id)}`;

/** Changing what a rule does changes the list, so it is read again. */
export const useEditMatchRule = (id: string) =>
  useMutation({
    mutationFn: (edit: MatchRuleEdit) => request(matchRuleSchema, 'PATCH', rulePath(id), edit),
    onSuccess: () => matchRulesChanged(),
  });

/** Destination tracks for a rule's song, scored against it: the person's own search (a read, cached a while). */
export const ruleSearchQuery = (id: string, text: string) =>
  queryOptions({
    queryKey: [...MATCH_RULES_KEY, id, 'search', text] as const,
    queryFn: ({ signal }) =>
      request(
        candidateSchema.array(),
        'GET',
        `${rulePath(id)}/search?q=${encodeURIComponent(text)}`,
        undefined,
        { signal },
      ),
    staleTime: 60_000,
  });
