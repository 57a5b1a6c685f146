/**
 * Every page of the web app (spec section 2). The web router and its links use these; the server answers
 * 404 (with the app's 404 page) for any other path, so unknown addresses are not served as if they existed.
 */
export const PAGE_PATHS = {
  home: '/',
  auth: '/auth',
  serviceSelection: '/service-selection',
  transfer: '/transfer',
  playlists: '/playlists',
  matches: '/matches',
  complete: '/complete',
  link: '/link',
  merge: '/merge',
  geoLock: '/geo-lock',
  onboarding: '/onboarding',
  visualizations: '/visualizations',
  account: '/account',
  privacy: '/privacy',
  terms: '/terms',
  help: '/help',
  pricing: '/pricing',
  vault: '/vault',
  recreate: '/recreate',
  matchRules: '/match-rules',
  syncs: '/syncs',
  billingReturn: '/billing/return',
  disappeared: '/history/disappeared',
} as const;

/** Pages with one id segment: sniper links, merged playlists, merge invitations, batches. */
const PAGE_PATTERNS: readonly RegExp[] = [
  /^\/l\/[^/]+$/,
  /^\/m\/[^/]+$/,
  /^\/merge\/invite\/[^/]+$/,
  /^\/batches\/[^/]+$/,
  /^\/history\/(spotify|apple)\/[^/]+$/,
];

const EXACT = new Set<string>(Object.values(PAGE_PATHS));

export function isAppPage(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return EXACT.has(path) || PAGE_PATTERNS.some((pattern) => pattern.test(path));
}
