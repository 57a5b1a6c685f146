import type { ChatMessage, OnboardingRoute } from './engine';

/**
 * Spec section 4: the onboarding target comes from keywords in the last 3 messages (either author), checked
 * in the spec's order, so transfer words win over the others; no keyword means /transfer. Substring
 * matching on purpose ("playlists" counts as "playlist"). The web app keeps a copy of this exact rule.
 */
const routeKeywords: readonly { route: OnboardingRoute; keywords: readonly string[] }[] = [
  { route: '/transfer', keywords: ['transfer', 'playlist', 'spotify', 'apple'] },
  { route: '/vault', keywords: ['backup'] },
  { route: '/merge', keywords: ['merge', 'friend'] },
  { route: '/recreate', keywords: ['lost', 'recreate', 'recover'] },
];

export const ROUTING_WINDOW = 3;

export function routeFromMessages(messages: readonly ChatMessage[]): OnboardingRoute {
  const recentText = messages
    .slice(-ROUTING_WINDOW)
    .map((message) => message.content.toLowerCase())
    .join('\n');
  for (const { route, keywords } of routeKeywords) {
    if (keywords.some((keyword) => recentText.includes(keyword))) return route;
  }
  return '/transfer';
}

/** Words that send the person to /transfer; replies about other destinations avoid them. */
export const TRANSFER_ROUTE_KEYWORDS = routeKeywords[0]?.keywords ?? [];
