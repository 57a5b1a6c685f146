import { queryOptions } from '@tanstack/react-query';
import {
  type CreateLinkRequest,
  linkSignupResponseSchema,
  linkStatsSchema,
  publicLinkSchema,
  shareLinkListSchema,
  shareLinkSchema,
} from '../../../shared/api/links';
import { request } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';

export const LINKS_KEY = ['links'] as const;
export const linkStatsKey = (id: string) => [...LINKS_KEY, id, 'stats'] as const;
export const publicLinkKey = (slug: string) => ['public-links', slug] as const;

export const linksQuery = () =>
  queryOptions({
    queryKey: LINKS_KEY,
    queryFn: ({ signal }) => request(shareLinkListSchema, 'GET', '/api/links', undefined, { signal }),
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
export async function createLink(link: CreateLinkRequest) {
  const created = await request(shareLinkSchema, 'POST', '/api/links', link);
  await queryClient.invalidateQueries({ queryKey: LINKS_KEY, exact: true });
  return created;
}

/** Turning a link on or off also changes what its public page says. */
export async function setLinkActive(id: string, active: boolean) {
  const updated = await request(shareLinkSchema, 'PATCH', `/api/links/${encodeURIComponent(id)}`, { active });
  await queryClient.invalidateQueries({ queryKey: publicLinkKey(updated.slug) });
  return updated;
}

export const signUpToLink = (slug: string, email: string) =>
  request(linkSignupResponseSchema, 'POST', `/api/public/links/${encodeURIComponent(slug)}/signup`, {
    email,
  });

/** The address people share: the landing page on this site. */
export const publicLinkUrl = (slug: string, origin = window.location.origin) => `${origin}/l/${slug}`;

/** Spec section 9 shows the rate as a whole percentage. */
export const formatRate = (rate: number) => `${Math.round(rate * 100)}%`;
