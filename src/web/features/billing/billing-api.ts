import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import {
  billingPricesSchema,
  billingRedirectSchema,
  billingSchema,
  type CheckoutRequest,
  checkoutStatusSchema,
} from '../../../shared/api/billing';
import { AUTH_STATUS_KEY } from '../../hooks/use-auth';
import { request } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { track } from '../../lib/track';

/** Billing (issue 22): the person's plan and subscription, the prices, and where a checkout stands. */
export const BILLING_KEY = ['billing'] as const;
export const BILLING_PRICES_KEY = ['billing-prices'] as const;

export const billingQuery = () =>
  queryOptions({
    queryKey: BILLING_KEY,
    queryFn: ({ signal }) => request(billingSchema, 'GET', '/api/billing', undefined, { signal }),
  });

export const billingPricesQuery = () =>
  queryOptions({
    queryKey: BILLING_PRICES_KEY,
    queryFn: ({ signal }) =>
      request(billingPricesSchema, 'GET', '/api/billing/prices', undefined, { signal }),
    staleTime: 5 * 60_000,
  });

/** A checkout the person came back from, asked again every second until the webhook has done its work. */
export const checkoutStatusQuery = (sessionId: string) =>
  queryOptions({
    queryKey: ['billing-checkout', sessionId],
    queryFn: ({ signal }) =>
      request(
        checkoutStatusSchema,
        'GET',
        `/api/billing/checkout/${encodeURIComponent(sessionId)}`,
        undefined,
        {
          signal,
        },
      ),
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'done' || status === 'expired' ? false : 1_000;
    },
  });

export const useBilling = (enabled = true, pollMs: number | false = false) =>
  useQuery({ ...billingQuery(), enabled, refetchInterval: pollMs });
export const useBillingPrices = () => useQuery(billingPricesQuery());
export const useCheckoutStatus = (sessionId: string) => useQuery(checkoutStatusQuery(sessionId));

/** A plan changed (the webhook arrived): everything that shows the plan is read again. */
export const planChanged = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: AUTH_STATUS_KEY }),
    queryClient.invalidateQueries({ queryKey: BILLING_KEY }),
    queryClient.invalidateQueries({ queryKey: ['usage'] }),
  ]);

/**
 * Starts a checkout (or, for someone who subscribes already, the portal's confirmation of a switch) and
 * sends the browser there. The button stays disabled until the page has gone.
 */
export function useCheckout() {
  return useMutation({
    mutationFn: (input: CheckoutRequest) =>
      request(billingRedirectSchema, 'POST', '/api/billing/checkout', input),
    onMutate: (input) => track('feature_used', { feature: `checkout_${input.plan}` }),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}

/** "Manage billing": the customer portal. */
export function useManageBilling() {
  return useMutation({
    mutationFn: () => request(billingRedirectSchema, 'POST', '/api/billing/portal'),
    onMutate: () => track('feature_used', { feature: 'manage_billing' }),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}

export const formatPrice = (amount: number, currency: string) =>
  new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(
    amount / 100,
  );

export const formatDay = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
