import { useQuery } from '@tanstack/react-query';
import { type AccountProfile, accountProfileSchema } from '../../../shared/api/account';
import { type SavedExport, savedExportListSchema } from '../../../shared/api/exports';
import { type Usage, usageSchema } from '../../../shared/api/plans';
import { type TransferResult, transferResultSchema } from '../../../shared/api/transfer';
import { apiJson } from '../../lib/api-client';

/** Query keys of the account area; sign-out and deletion drop them with everything else. */
export const ACCOUNT_KEY = ['/api/account'] as const;
export const USAGE_KEY = ['/api/usage'] as const;
export const TRANSFERS_KEY = ['/api/transfers'] as const;
export const SAVED_EXPORTS_KEY = ['/api/exports'] as const;

export function useAccountProfile() {
  return useQuery<AccountProfile>({
    queryKey: ACCOUNT_KEY,
    queryFn: async () => accountProfileSchema.parse(await apiJson<unknown>('GET', ACCOUNT_KEY[0])),
  });
}

export function useUsage() {
  return useQuery<Usage>({
    queryKey: USAGE_KEY,
    queryFn: async () => usageSchema.parse(await apiJson<unknown>('GET', USAGE_KEY[0])),
  });
}

export function useTransferHistory() {
  return useQuery<TransferResult[]>({
    queryKey: TRANSFERS_KEY,
    queryFn: async () => transferResultSchema.array().parse(await apiJson<unknown>('GET', TRANSFERS_KEY[0])),
  });
}

export function useSavedExports() {
  return useQuery<SavedExport[]>({
    queryKey: SAVED_EXPORTS_KEY,
    queryFn: async () => savedExportListSchema.parse(await apiJson<unknown>('GET', SAVED_EXPORTS_KEY[0])),
  });
}

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
