import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import {
  type AuthStatus,
  authStatusSchema,
  authSuccessSchema,
  type LoginRequest,
  type RegisterRequest,
  type SessionUser,
} from '../../shared/api/auth';
import { errorStatus, noContentSchema, request } from '../lib/api-client';
import { paths } from '../lib/paths';
import { track } from '../lib/track';
import { toast } from './use-toast';

export const AUTH_STATUS_KEY = ['auth-status'] as const;

export const SIGNED_OUT: AuthStatus = {
  authenticated: false,
  isAuthenticated: false,
  spotifyConnected: false,
  appleConnected: false,
  user: null,
};

/**
 * Spec sections 4 and 8: a non-ok answer means signed out and not connected; a failure to ask at all
 * (network, garbage body, server error) also reads as signed out, with a toast saying we could not tell.
 */
export async function fetchAuthStatus(signal?: AbortSignal): Promise<AuthStatus> {
  try {
    return await request(authStatusSchema, 'GET', '/api/auth/status', undefined, signal ? { signal } : {});
  } catch (error) {
    if (signal?.aborted) throw error;
    const status = errorStatus(error);
    if (status !== undefined && status < 500) return SIGNED_OUT;
    toast({ title: 'Failed to verify authentication status', variant: 'destructive' });
    return SIGNED_OUT;
  }
}

export interface AuthState {
  status: AuthStatus;
  user: SessionUser | null;
  isAuthenticated: boolean;
  isLoading: boolean;
}

/** Who is signed in and what is connected, keyed `['auth-status']`. */
export const authStatusQuery = () =>
  queryOptions({ queryKey: AUTH_STATUS_KEY, queryFn: ({ signal }) => fetchAuthStatus(signal) });

/** Checked once on load (data never goes stale); sign-in, sign-up and sign-out refresh it. */
export function useAuth(): AuthState {
  const query = useQuery(authStatusQuery());
  const status = query.data ?? SIGNED_OUT;
  return {
    status,
    user: status.user,
    isAuthenticated: status.isAuthenticated,
    isLoading: query.isPending,
  };
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (credentials: LoginRequest) =>
      request(authSuccessSchema, 'POST', '/api/auth/login', credentials),
    onSuccess: async () => {
      track('user_signed_in', { method: 'password' });
      await queryClient.invalidateQueries({ queryKey: AUTH_STATUS_KEY });
    },
  });
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (details: RegisterRequest) =>
      request(authSuccessSchema, 'POST', '/api/auth/register', details),
    onSuccess: async () => {
      track('user_signed_up', { method: 'password' });
      await queryClient.invalidateQueries({ queryKey: AUTH_STATUS_KEY });
    },
  });
}

/**
 * Leaves the page first and only then forgets the session, so a page that requires sign-in does not
 * bounce the user to /auth on the way out.
 */
export function useLogout(redirectTo: string = paths.home) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: () => request(noContentSchema, 'POST', '/api/auth/logout'),
    onSuccess: async () => {
      track('user_signed_out');
      navigate(redirectTo);
      toast({ title: 'Signed out', description: 'See you next time.' });
      // Every cached answer belonged to the account that just left.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== AUTH_STATUS_KEY[0] });
      queryClient.setQueryData(AUTH_STATUS_KEY, SIGNED_OUT);
      await queryClient.invalidateQueries({ queryKey: AUTH_STATUS_KEY });
    },
  });
}
