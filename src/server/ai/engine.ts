import { z } from 'zod';
import { insightWriterSchema } from '../../shared/api/merge';
import { ONBOARDING_ROUTES } from '../../shared/onboarding-routing';

/**
 * The AI layer's one interface. Matching, friend merge, geo-lock and onboarding call an `AiEngine` and never
 * a model API: the local engine answers alone, and the Anthropic engine falls back to it on any failure, so
 * every feature works without a key.
 */

export const trackSummarySchema = z.object({
  name: z.string(),
  artists: z.array(z.string()),
  album: z.string(),
  durationMs: z.number().int().nonnegative(),
  isrc: z.string().optional(),
  explicit: z.boolean().optional(),
  /**
   * Matching's version labels (`live`, `remix melad`, `remaster 2011`, `radio edit`, `explicit`…). Labels of
   * remaster, radio edit, extended and mono are soft (same performance); any other label is a different
   * recording. `explicit`/`clean` are ignored here: the `explicit` flag says that.
   */
  versionLabels: z.array(z.string()),
  albumType: z.enum(['album', 'single', 'compilation']).optional(),
});
export type TrackSummary = z.infer<typeof trackSummarySchema>;

export const candidateSummarySchema = trackSummarySchema.extend({
  id: z.string().min(1),
  /** Matching's confidence for this candidate, 0–100 (the review band is 70–89). */
  score: z.number().min(0).max(100),
});
export type CandidateSummary = z.infer<typeof candidateSummarySchema>;

export interface BreakTieInput {
  source: TrackSummary;
  candidates: CandidateSummary[];
}
export const breakTieResultSchema = z.object({
  /** One of the candidates' ids, or null when none is the same recording. */
  chosenId: z.string().min(1).nullable(),
  confidence: z.number().int().min(0).max(100),
  reason: z.string().min(1).max(500),
});
export type BreakTieResult = z.infer<typeof breakTieResultSchema>;

export interface MergeInsightInput {
  yourName: string;
  friendName: string;
  sharedArtists: string[];
  sharedGenres: string[];
  yourTopGenres: string[];
  friendTopGenres: string[];
  /** Tracks both playlists contain. */
  overlapTrackCount: number;
  /** Tracks in the merged playlist. */
  totalTracks: number;
  /** Percent from you and from your friend; sums to 100. */
  mixRatio: [number, number];
  bridgeTrackCount: number;
  /**
   * Who reads it: `reader` (default) is the person named `yourName`, addressed as "you"; `public` is anyone
   * (the merged playlist's public page, the friend, visitors): both people by name, never "you".
   */
  audience?: 'reader' | 'public';
}
/** What the insight writer (a model or the local rules) answers. */
export const mergeInsightAnswerSchema = z.object({
  insightSummary: z.string().min(1).max(700),
  playlistName: z.string().min(1).max(100),
});
/** The answer and which engine wrote it, so the page says "AI" only when a model did. */
export const mergeInsightResultSchema = mergeInsightAnswerSchema.extend({ writtenBy: insightWriterSchema });
export type MergeInsightResult = z.infer<typeof mergeInsightResultSchema>;

export type AlternativeKind = 'same_recording' | 'same_song' | 'other_version' | 'none';
export interface GeoLockExplanationInput {
  track: TrackSummary;
  /** ISO 3166-1 alpha-2, any case. */
  targetRegion: string;
  alternative: TrackSummary | null;
  kind: AlternativeKind;
}
export const geoLockExplanationResultSchema = z.object({
  explanation: z.string().min(1).max(600),
});
export type GeoLockExplanationResult = z.infer<typeof geoLockExplanationResultSchema>;

/** The onboarding assistant's targets: the shared rule's list (`src/shared/onboarding-routing.ts`). */
export const onboardingRoutes = ONBOARDING_ROUTES;
export type OnboardingRoute = (typeof onboardingRoutes)[number];

export interface ChatMessage {
  type: 'user' | 'assistant';
  content: string;
}
export interface OnboardingReplyInput {
  messages: ChatMessage[];
}
export const onboardingReplySchema = z.object({
  content: z.string().min(1).max(1500),
  /** Quick replies; each is sent as the person's next message when tapped. */
  options: z.array(z.string().min(1).max(60)).max(5).optional(),
  suggestedRoute: z.enum(onboardingRoutes),
});
export type OnboardingReply = z.infer<typeof onboardingReplySchema>;

export interface AiEngine {
  /** Picks among matching's review-band candidates; `chosenId` null means none is the same recording. */
  breakTie(input: BreakTieInput): Promise<BreakTieResult>;
  /** Describes the real overlap of two playlists; every number in it comes from the input. */
  mergeInsight(input: MergeInsightInput): Promise<MergeInsightResult>;
  /** Says why a track is missing in a region and what the alternative is. */
  geoLockExplanation(input: GeoLockExplanationInput): Promise<GeoLockExplanationResult>;
  /** The onboarding assistant's next message; `suggestedRoute` follows `routeFromMessages`. */
  onboardingReply(input: OnboardingReplyInput): Promise<OnboardingReply>;
}

/** Pino-compatible: a pino `Logger` can be passed as is. */
export interface AiLogger {
  warn(obj: object, msg: string): void;
}
