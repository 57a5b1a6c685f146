/**
 * Spec section 4: the onboarding target comes from keywords in the last 3 messages (either author),
 * checked in the spec's order so transfer words win; no keyword means /transfer. Substring matching on
 * purpose ("playlists" counts as "playlist"). The server's AI module keeps the same rule
 * (src/server/ai/onboarding-routing.ts); a test checks that the two agree.
 */
export const ONBOARDING_ROUTES = ['/transfer', '/vault', '/merge', '/recreate'] as const;
export type OnboardingTarget = (typeof ONBOARDING_ROUTES)[number];

const ROUTE_KEYWORDS: readonly { route: OnboardingTarget; keywords: readonly string[] }[] = [
  { route: '/transfer', keywords: ['transfer', 'playlist', 'spotify', 'apple'] },
  { route: '/vault', keywords: ['backup'] },
  { route: '/merge', keywords: ['merge', 'friend'] },
  { route: '/recreate', keywords: ['lost', 'recreate', 'recover'] },
];

export const ONBOARDING_ROUTING_WINDOW = 3;

export function onboardingRouteFor(messages: readonly { content: string }[]): OnboardingTarget {
  const recentText = messages
    .slice(-ONBOARDING_ROUTING_WINDOW)
    .map((message) => message.content.toLowerCase())
    .join('\n');
  for (const { route, keywords } of ROUTE_KEYWORDS) {
    if (keywords.some((keyword) => recentText.includes(keyword))) return route;
  }
  return '/transfer';
}
