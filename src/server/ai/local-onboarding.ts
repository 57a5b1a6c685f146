import { onboardingRouteFor as routeFromMessages } from '../../shared/onboarding-routing';
import type { ChatMessage, OnboardingReply, OnboardingReplyInput } from './engine';

/**
 * The local onboarding assistant: a keyword intent classifier over the person's last message and a fixed,
 * specific answer per intent, and its next step when the person asks the same again (a follow-up never gets
 * the paragraph it just read). The route comes from the shared rule (`src/shared/onboarding-routing.ts`).
 */

export type OnboardingIntent =
  | 'welcome'
  | 'self_host'
  | 'apple_append_only'
  | 'matching'
  | 'plans'
  | 'recreate'
  | 'merge'
  | 'backup'
  | 'transfer'
  | 'bridge_tracks'
  | 'sync'
  | 'vault_cost'
  | 'recreate_export'
  | 'thanks'
  | 'unknown';

interface IntentRule {
  intent: OnboardingIntent;
  patterns: RegExp[];
  /** Specific intents outweigh the generic transfer words that appear in almost every question. */
  weight: number;
}

/** Listed in priority order: on equal scores the earlier rule wins. */
const intentRules: IntentRule[] = [
  // Follow-ups the answers offer, more specific than the topic they belong to, so each gets its own answer.
  { intent: 'bridge_tracks', patterns: [/bridge/], weight: 3 },
  {
    intent: 'sync',
    patterns: [/\bsync/, /up[- ]to[- ]date/, /keep .* (updated|matching|the same)/],
    weight: 3,
  },
  {
    intent: 'vault_cost',
    patterns: [/(vault|backup).*(cost|pric|how much)/, /(cost|pric|how much).*(vault|backup)/],
    weight: 3,
  },
  {
    intent: 'recreate_export',
    patterns: [/(old|from an?) (csv|json|export|backup|file)/, /rebuild from/, /upload/],
    weight: 3,
  },
  {
    intent: 'self_host',
    patterns: [
      /self[- ]?host/,
      /\bdeveloper\b/,
      /\bdev(elopment)? mode\b/,
      /client id/,
      /dashboard/,
      /\b(5|five) users\b/,
      /docker/,
      /own server/,
    ],
    weight: 2,
  },
  {
    intent: 'apple_append_only',
    patterns: [/append/, /reorder/, /rename/, /\bedit/, /\bremove/, /can'?t (i )?change/, /sort order/],
    weight: 2,
  },
  {
    intent: 'matching',
    patterns: [
      /\bmatch/,
      /isrc/,
      /accura/,
      /wrong (song|track|version)/,
      /\bversion/,
      /remaster/,
      /confidence/,
      /how does it work/,
    ],
    weight: 2,
  },
  {
    intent: 'plans',
    patterns: [
      /pric/,
      /\bcost/,
      /\bplans?\b/,
      /\bfree\b/,
      /\bpro\b/,
      /subscri/,
      /\bpay/,
      /how much/,
      /\blimit/,
    ],
    weight: 2,
  },
  {
    intent: 'recreate',
    patterns: [
      /\blost\b/,
      /recreate/,
      /recover/,
      /deleted/,
      /disappear/,
      /missing/,
      /\bgone\b/,
      /restore/,
      /rebuild/,
    ],
    weight: 2,
  },
  {
    intent: 'merge',
    patterns: [/merge/, /friend/, /blend/, /combine/, /together/, /\bmix/, /bridge/],
    weight: 2,
  },
  {
    intent: 'backup',
    patterns: [
      /backup/,
      /back up/,
      /vault/,
      /export/,
      /\bzip\b/,
      /\bcsv\b/,
      /\bjson\b/,
      /cloud/,
      /archive/,
      /safe copy/,
    ],
    weight: 2,
  },
  {
    intent: 'transfer',
    patterns: [
      /transfer/,
      /\bmove/,
      /\bcopy/,
      /migrat/,
      /switch/,
      /spotify/,
      /apple/,
      /playlist/,
      /convert/,
      /let'?s (start|go)/,
    ],
    weight: 1,
  },
  {
    intent: 'thanks',
    patterns: [/\bthanks?\b/, /thank you/, /\bthx\b/, /got it/, /perfect/, /\bgreat\b/],
    weight: 1,
  },
  { intent: 'welcome', patterns: [/^\s*(hi|hello|hey)\b/, /get started/], weight: 1 },
];

export function classifyIntent(messages: readonly ChatMessage[]): OnboardingIntent {
  const lastUserMessage = messages.findLast((message) => message.type === 'user');
  if (!lastUserMessage) return 'welcome';
  const text = lastUserMessage.content.toLowerCase();
  let best: OnboardingIntent = 'unknown';
  let bestScore = 0;
  for (const rule of intentRules) {
    const score = rule.patterns.filter((pattern) => pattern.test(text)).length * rule.weight;
    if (score > bestScore) {
      best = rule.intent;
      bestScore = score;
    }
  }
  return best;
}

const startOptions = [
  'Transfer a playlist',
  'Set up a backup',
  'Merge with a friend',
  'Recover something I lost',
];

interface Reply {
  content: string;
  options?: string[];
  /** The answer when the person asks the same again right after this one: the next step, not a repeat. */
  next?: Reply;
}

const replies: Record<OnboardingIntent, Reply> = {
  welcome: {
    content:
      "Welcome to Crossfade! I'll get you set up in a minute. What would you like to do first? Pick one below or tell me in your own words.",
    options: startOptions,
  },
  transfer: {
    content:
      'Crossfade moves a playlist between Spotify and Apple Music in four steps: choose the two services, pick the playlist, review the matches, then transfer. Each track is matched by its ISRC first and by title, artist, album and duration after that; anything it cannot match is listed in the result and the CSV, never dropped silently. The Free plan includes 1 transfer per month.',
    options: [
      'How does matching work?',
      'Why can I only append on Apple Music?',
      'What do the plans cost?',
      "Let's start",
    ],
    next: {
      content:
        "Good: press Complete below and I'll open step 1, where you connect both services and choose which way the music goes. Step 2 lists your lists with their track counts, so you can pick the right one.",
      options: ['How does matching work?', 'What do the plans cost?'],
    },
  },
  matching: {
    content:
      'Matching tries the ISRC first, the code that identifies one exact recording. When that finds nothing it searches by title, artist and album, and rejects candidates of another version (live, remix, acoustic, remaster) or more than a few seconds longer or shorter. Matches of 90% or more are accepted, 70–89% wait for your review on the Match Songs step, and anything lower is marked not found and listed in the CSV.',
    options: ["Let's start", 'What do the plans cost?', 'I am self-hosting Crossfade'],
  },
  apple_append_only: {
    content:
      "Apple Music only lets apps create a playlist and add tracks to it: no renaming, reordering or removing afterwards. So Crossfade always creates a new playlist there and appends the tracks in the source order; if a run is interrupted it carries on after the last confirmed batch instead of adding duplicates. To tidy a playlist later, edit it in Apple's Music app.",
    options: ["Let's start", 'How does matching work?'],
  },
  self_host: {
    content:
      "Self-hosting? A new Spotify app runs in Development mode: at most 5 users, each added by e-mail under User Management in the Spotify developer dashboard, and the app's owner needs Premium. In that mode Spotify lets Crossfade read only playlists the person owns or collaborates on, and search returns at most 10 results per page, so large transfers take a little longer. For Apple Music you need a paid Apple Developer Program membership to create a MusicKit key.",
    options: ["Let's start", 'How does matching work?'],
  },
  plans: {
    content:
      'Free includes 1 transfer per month. Pro gives you unlimited transfers. Vault+ adds backups of your library, ZIP export with artwork and saving to the cloud. CSV and JSON exports of a finished transfer are free on every plan.',
    options: ['Transfer a playlist', 'Set up a backup', 'See pricing'],
  },
  backup: {
    content:
      "Vault+ keeps backups of your music library, so a list that gets deleted or changed can be brought back as it was. It also adds ZIP export with artwork and saving to the cloud: two cloud drives or Crossfade's own storage. CSV and JSON exports stay free on every plan.",
    options: ['Set up a backup', 'What does Vault+ cost?'],
    next: {
      content:
        "Press Complete below and I'll take you to Vault+. There you see your backups and when the next one runs; with Vault+ they are made every day, and any of them can be brought back to either service.",
      options: ['What does Vault+ cost?', 'Keep two lists in sync'],
    },
  },
  vault_cost: {
    content:
      'Vault+ is the plan above Pro: it includes everything in Pro (unlimited moves, batches, sync) and adds the daily backups, ZIP export with artwork and saving to the cloud. The Pricing page shows the monthly and yearly price; you can change or cancel it at any time from My Account.',
    options: ['Set up a backup', 'See pricing'],
  },
  merge: {
    content:
      "Merging blends one of your lists with someone else's: paste the share URL they send you, pick one of your own lists, and set the mix from 0 to 100% in steps of 10 (50/50 by default). Bridge tracks, on by default, add songs that connect your two tastes. You get a new mix, a short insight into what you have in common, and buttons to save it to your library or share it back.",
    options: ['Merge with a friend', 'How are bridge tracks chosen?'],
    next: {
      content:
        "Press Complete below and I'll take you to Friend Merge. Paste the share URL your friend sent (or invite them by e-mail there), pick one of your own lists, set the mix and press Create Merged Playlist.",
      options: ['How are bridge tracks chosen?', 'What do the plans cost?'],
    },
  },
  bridge_tracks: {
    content:
      "Bridge tracks are songs from the catalog that sit between your two tastes: Crossfade searches first for more songs by artists you both play, then for your shared genres; with no common ground it looks at each side's most played artist. About one in ten songs of the mix is a bridge (at most 5), each marked with a Bridge badge, and you can switch them off before merging.",
    options: ['Merge with a friend', 'What do the plans cost?'],
  },
  recreate: {
    content:
      'Sorry it went missing. Crossfade can rebuild it: paste its share URL if it still opens, upload an old CSV or JSON export, or paste the song titles one per line. Each song is matched again and you review anything uncertain before the list is created again on your service.',
    options: ['Recover something I lost', 'Rebuild from an old export'],
    next: {
      content:
        "Press Complete below and I'll take you to Recreate. Start with whatever you still have: a share URL that opens, an old export, or just the song titles you remember.",
      options: ['Rebuild from an old export'],
    },
  },
  recreate_export: {
    content:
      'An old export works well: upload the CSV or JSON file Crossfade (or another tool) made, with a title and artist per row. Each row is matched again, uncertain ones wait for your review, and rows that cannot be read are listed with the reason instead of being skipped.',
    options: ['Recover something I lost'],
  },
  sync: {
    content:
      "Sync keeps two lists the same across the two services: choose the pair once, and Crossfade compares them on a schedule, adds the songs that are new on either side and lists removals for you to confirm. Sync is part of Pro and Vault+. Press Complete and I'll take you to your syncs.",
    options: ['What do the plans cost?', 'Set up a backup'],
  },
  thanks: {
    content: "You're welcome! Press Complete when you are ready and I'll take you to the right place.",
  },
  unknown: {
    content:
      'I can help you move music between services, keep a safe copy of your library with Vault+, blend a mix with someone you know, or rebuild a list that disappeared. Which one sounds right?',
    options: startOptions,
  },
};

/** The intent's answer, or its next step when the assistant's previous message was that very answer. */
function replyFor(intent: OnboardingIntent, messages: readonly ChatMessage[]): Reply {
  const reply = replies[intent];
  const previous = messages.findLast((message) => message.type === 'assistant')?.content;
  if (previous !== reply.content) return reply;
  return (
    reply.next ?? {
      content:
        'That is what I said just above. Press Complete below when you are ready, or ask me about anything else: moving music, backups, merging, sync or recovering a lost list.',
      options: startOptions,
    }
  );
}

export function localOnboardingReply({ messages }: OnboardingReplyInput): OnboardingReply {
  const reply = replyFor(classifyIntent(messages), messages);
  return {
    content: reply.content,
    ...(reply.options ? { options: [...reply.options] } : {}),
    suggestedRoute: routeFromMessages(messages),
  };
}
