import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  type CreateLinkRequest,
  type LinkDto,
  linkListSchema,
  linkSchema,
  linkSignupResponseSchema,
  linkStatsSchema,
  publicLinkSchema,
} from '../../../shared/api/links';
import { request } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';

export const LINKS_KEY = ['links'] as const;
export const linkStatsKey = (id: string) => [...LINKS_KEY, id, 'stats'] as const;
export const publicLinkKey = (slug: string) => ['public-links', slug] as const;

export const linksQuery = () =>
  queryOptions({
    queryKey: LINKS_KEY,
    queryFn: ({ signal }) => request(linkListSchema, 'GET', '/api/links', undefined, { signal }),
  });

export const linkStatsQuery = (id: string) =>
  queryOptions({
    queryKey: linkStatsKey(id),
    queryFn: ({ signal }) =>
      request(linkStatsSchema, 'GET', `/api/links/${encodeURIComponent(id)}/stats`, undefined, { signal }),
  });

export const publicLinkQuery = (slug: string) =>
  queryOptions({
    queryKey: publicLinkKey(slug),
    queryFn: ({ signal }) =>
      request(publicLinkSchema, 'GET', `/api/public/links/${encodeURIComponent(slug)}`, undefined, {
        signal,
      }),
  });

/** A new link joins the owner's list, so the list is read again. */
export const useCreateLink = () =>
  useMutation({
    mutationFn: (link: CreateLinkRequest) => request(linkSchema, 'POST', '/api/links', link),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LINKS_KEY, exact: true }),
  });

/** Turning a link on or off changes its row in the list and what its public page says. */
export const useSetLinkActive = (id: string) =>
  useMutation({
    mutationFn: (active: boolean) =>
      request(linkSchema, 'PATCH', `/api/links/${encodeURIComponent(id)}`, { active }),
    onSuccess: async (updated) => {
      queryClient.setQueryData<LinkDto[]>(LINKS_KEY, (links) =>
        links?.map((item) => (item.id === updated.id ? updated : item)),
      );
      await queryClient.invalidateQueries({ queryKey: publicLinkKey(updated.slug) });
    },
  });

/** A fan's e-mail signup on a public link page. */
export const useSignUpToLink = (slug: string) =>
  useMutation({
    mutationFn: (email: string) =>
      request(linkSignupResponseSchema, 'POST', `/api/public/links/${encodeURIComponent(slug)}/signup`, {
        email,
      }),
  });

/** The address people share: the landing page on this site. */
export const publicLinkUrl = (slug: string, origin = window.location.origin) => `${origin}/l/${slug}`;

/** Spec section 9 shows the rate as a whole percentage. */
export const formatRate = (rate: number) => `${Math.round(rate * 100)}%`;
