import { QueryClient, type QueryFunction } from '@tanstack/react-query';
import { errorStatus, throwIfResNotOk } from './api-client';

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * The default query fn: the query key joined with "/" is the URL (`['/api/playlists', 'spotify']`).
 * Spec section 7: a 401 is an error unless the query asks for null instead.
 */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(queryKey.map(String).join('/'), {
      credentials: 'include',
      headers: { accept: 'application/json' },
      signal,
    });
    if (options.on401 === 'returnNull' && res.status === 401) return null;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

/** True when a failed query or mutation was the server saying "not signed in". */
export const isUnauthorized = (error: unknown): boolean => errorStatus(error) === 401;

/** Spec section 9: data never goes stale, no focus or interval refetch, no retries. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
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
