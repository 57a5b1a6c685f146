import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { accountProfileSchema } from '../../../shared/api/account';
import { savedExportListSchema } from '../../../shared/api/export';
import { usageSchema } from '../../../shared/api/plans';
import { transferResultSchema } from '../../../shared/api/transfer';
import { AUTH_STATUS_KEY, SIGNED_OUT } from '../../hooks/use-auth';
import { noContentSchema, request } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';

/** Query keys of the account area; sign-out and deletion drop them with everything else. */
export const ACCOUNT_KEY = ['account'] as const;
export const USAGE_KEY = ['usage'] as const;
export const TRANSFERS_KEY = ['transfers'] as const;
export const SAVED_EXPORTS_KEY = ['saved-exports'] as const;

export const accountQuery = () =>
  queryOptions({
    queryKey: ACCOUNT_KEY,
    queryFn: ({ signal }) => request(accountProfileSchema, 'GET', '/api/account', undefined, { signal }),
  });

export const usageQuery = () =>
  queryOptions({
    queryKey: USAGE_KEY,
    queryFn: ({ signal }) => request(usageSchema, 'GET', '/api/usage', undefined, { signal }),
  });

export const transferHistoryQuery = () =>
  queryOptions({
    queryKey: TRANSFERS_KEY,
    queryFn: ({ signal }) =>
      request(transferResultSchema.array(), 'GET', '/api/transfers', undefined, { signal }),
  });

export const savedExportsQuery = () =>
  queryOptions({
    queryKey: SAVED_EXPORTS_KEY,
    queryFn: ({ signal }) => request(savedExportListSchema, 'GET', '/api/exports', undefined, { signal }),
  });

export const useAccountProfile = () => useQuery(accountQuery());
export const useUsage = () => useQuery(usageQuery());
export const useTransferHistory = () => useQuery(transferHistoryQuery());
export const useSavedExports = () => useQuery(savedExportsQuery());

/** Public or private profile; the answer is the new profile, kept as the account's data. */
export const useSetPublicProfile = () =>
  useMutation({
    mutationFn: (publicProfile: boolean) =>
      request(accountProfileSchema, 'PATCH', '/api/account', { publicProfile }),
    onSuccess: (next) => queryClient.setQueryData(ACCOUNT_KEY, next),
  });

/**
 * Deletes the account. As signing out does, it leaves the page first (`leave`) and only then drops every
 * cached answer, so a page that requires sign-in does not bounce the person to /auth on the way out.
 */
export const useDeleteAccount = (leave: () => void) =>
  useMutation({
    mutationFn: (confirmUsername: string) =>
      request(noContentSchema, 'DELETE', '/api/account', { confirmUsername }),
    onSuccess: async () => {
      leave();
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== AUTH_STATUS_KEY[0] });
      queryClient.setQueryData(AUTH_STATUS_KEY, SIGNED_OUT);
      await queryClient.invalidateQueries({ queryKey: AUTH_STATUS_KEY });
    },
  });

export const formatDate = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

export const formatDateTime = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
