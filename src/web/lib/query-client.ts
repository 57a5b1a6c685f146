import { QueryClient } from '@tanstack/react-query';
import { errorStatus } from './api-client';

/**
 * Every query names its own `queryFn` (the resource's `queryOptions` factory in its feature's api file,
 * keyed `[resource, ...params]`); there is no default that turns keys into URLs.
 */

/** True when a failed query or mutation was the server saying "not signed in". */
export const isUnauthorized = (error: unknown): boolean => errorStatus(error) === 401;

/**
 * Spec section 7: a data query treats a 401 as an error unless it asks for null instead; such a query
 * wraps its read in this.
 */
export async function nullIfUnauthorized<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (isUnauthorized(error)) return null;
    throw error;
  }
}

/** Spec section 9: data never goes stale, no focus or interval refetch, no retries. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: Number.POSITIVE_INFINITY,
        refetchInterval: false,
        refetchOnWindowFocus: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
