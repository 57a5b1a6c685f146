/**
 * Spec section 4: the onboarding target comes from keywords in the last 3 messages; no keyword means
 * /transfer. Substring matching on purpose ("playlists" counts as "playlist"). Only the person's own words
 * count, so the window is the person's last 3 messages: the assistant's replies mention playlists and Spotify
 * while explaining backups or recovery, and a follow-up question ("How are bridge tracks chosen?") must not
 * push the topic it follows out of the window (decision 0031). The one copy of the rule:
 * the server's assistants (local and Anthropic) and the web page all use it.
 *
 * Issue 23 (decision 0031): when several keyword groups match, the more specific intent wins over the generic
 * transfer words ("playlist", "Spotify" turn up in almost every question): keeping playlists in sync, backup,
 * merge/friend and lost/recreate/recover are looked for first, in the person's newest message first, and the
 * spec's order settles a tie inside one message. Keeping playlists in sync leads to /syncs.
 */
export const ONBOARDING_ROUTES = ['/transfer', '/vault', '/merge', '/recreate', '/syncs'] as const;
export type OnboardingTarget = (typeof ONBOARDING_ROUTES)[number];

const TRANSFER_KEYWORDS = ['transfer', 'playlist', 'spotify', 'apple'] as const;

/** The specific intents, in the spec's order (sync, which the spec does not list, before them). */
const SPECIFIC_ROUTES: readonly { route: OnboardingTarget; keywords: readonly string[] }[] = [
  { route: '/syncs', keywords: ['sync', 'up to date', 'up-to-date'] },
  { route: '/vault', keywords: ['backup', 'back up'] },
  { route: '/merge', keywords: ['merge', 'friend'] },
  { route: '/recreate', keywords: ['lost', 'recreate', 'recover'] },
];

export const ONBOARDING_ROUTING_WINDOW = 3;

/** Words that send the person to /transfer when nothing more specific was said. */
export const TRANSFER_ROUTE_KEYWORDS: readonly string[] = TRANSFER_KEYWORDS;

export function onboardingRouteFor(
  messages: readonly { type: 'user' | 'assistant'; content: string }[],
): OnboardingTarget {
  const newestFirst = messages
    .filter((message) => message.type === 'user')
    .slice(-ONBOARDING_ROUTING_WINDOW)
    .map((message) => message.content.toLowerCase())
    .reverse();
  for (const text of newestFirst) {
    for (const { route, keywords } of SPECIFIC_ROUTES) {
      if (keywords.some((keyword) => text.includes(keyword))) return route;
    }
  }
  return '/transfer';
}
