import type {
  CreateLinkRequest,
  LinkSignupResponse,
  LinkStats,
  PublicLink,
  ShareLinkDto,
} from '../../../shared/api/links';
import { apiJson } from '../../lib/api-client';

export const LINKS_KEY = ['/api/links'] as const;
export const linkStatsKey = (id: string) => ['/api/links', id, 'stats'] as const;
export const publicLinkKey = (slug: string) => ['/api/public/links', slug] as const;

export const createLink = (request: CreateLinkRequest) =>
  apiJson<ShareLinkDto>('POST', '/api/links', request);
export const fetchLinks = () => apiJson<ShareLinkDto[]>('GET', '/api/links');
export const fetchLinkStats = (id: string) =>
  apiJson<LinkStats>('GET', `/api/links/${encodeURIComponent(id)}/stats`);
export const setLinkActive = (id: string, active: boolean) =>
  apiJson<ShareLinkDto>('PATCH', `/api/links/${encodeURIComponent(id)}`, { active });
export const fetchPublicLink = (slug: string) =>
  apiJson<PublicLink>('GET', `/api/public/links/${encodeURIComponent(slug)}`);
export const signUpToLink = (slug: string, email: string) =>
  apiJson<LinkSignupResponse>('POST', `/api/public/links/${encodeURIComponent(slug)}/signup`, { email });

/** The address people share: the landing page on this site. */
export const publicLinkUrl = (slug: string, origin = window.location.origin) => `${origin}/l/${slug}`;

/** Spec section 9 shows the rate as a whole percentage. */
export const formatRate = (rate: number) => `${Math.round(rate * 100)}%`;
