import { onboardingRouteFor as routeFromMessages } from '../../shared/onboarding-routing';
import type { ChatMessage, OnboardingReply, OnboardingReplyInput } from './engine';

/**
 * The local onboarding assistant: a keyword intent classifier over the person's last message and a fixed,
 * specific answer per intent. Answers about backups, merging and recovery avoid the words that route to
 * /transfer (transfer, playlist, Spotify, Apple), because the spec's routing rule reads the assistant's
 * messages too and checks those words first.
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

const replies: Record<OnboardingIntent, { content: string; options?: string[] }> = {
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
  },
  merge: {
    content:
      "Merging blends one of your lists with someone else's: paste the share link they send you, pick one of your own lists, and set the mix from 0 to 100% in steps of 10 (50/50 by default). Bridge tracks, on by default, add songs that connect your two tastes. You get a new mix, a short insight into what you have in common, and buttons to save it to your library or share it back.",
    options: ['Merge with a friend', 'How are bridge tracks chosen?'],
  },
  recreate: {
    content:
      'Sorry it went missing. Crossfade can rebuild it: paste its share link if it still opens, upload an old CSV or JSON export, or paste the song titles one per line. Each song is matched again and you review anything uncertain before the list is created again on your service.',
    options: ['Recover something I lost', 'Rebuild from an old export'],
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

export function localOnboardingReply({ messages }: OnboardingReplyInput): OnboardingReply {
  const reply = replies[classifyIntent(messages)];
  return {
    content: reply.content,
    ...(reply.options ? { options: [...reply.options] } : {}),
    suggestedRoute: routeFromMessages(messages),
  };
}
