/**
 * Spec section 4: the onboarding target comes from keywords in the last 3 messages, checked in the spec's
 * order so transfer words win; no keyword means /transfer. Substring matching on purpose ("playlists"
 * counts as "playlist"). Only the person's own words in that window count: the assistant's replies mention
 * playlists and Spotify while explaining backups or recovery, and must not send people to /transfer when
 * they asked for a backup. The one copy of the rule: the server's assistant and the web page both use it.
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

/** Words that send the person to /transfer. */
export const TRANSFER_ROUTE_KEYWORDS = ROUTE_KEYWORDS[0]?.keywords ?? [];

export function onboardingRouteFor(
  messages: readonly { type: 'user' | 'assistant'; content: string }[],
): OnboardingTarget {
  const recentText = messages
    .slice(-ONBOARDING_ROUTING_WINDOW)
    .filter((message) => message.type === 'user')
    .map((message) => message.content.toLowerCase())
    .join('\n');
  for (const { route, keywords } of ROUTE_KEYWORDS) {
    if (keywords.some((keyword) => recentText.includes(keyword))) return route;
  }
  return '/transfer';
}
