import {
  type AiEngine,
  type BreakTieInput,
  type BreakTieResult,
  breakTieResultSchema,
  type GeoLockExplanationInput,
  type GeoLockExplanationResult,
  geoLockExplanationResultSchema,
  type MergeInsightInput,
  type MergeInsightResult,
  mergeInsightResultSchema,
  type OnboardingReply,
  type OnboardingReplyInput,
  onboardingReplySchema,
} from './engine';
import { localGeoLockExplanation } from './local-geo-lock-explanation';
import { localMergeInsight } from './local-merge-insight';
import { localOnboardingReply } from './local-onboarding';
import { localBreakTie } from './local-tie-break';

/** Deterministic, needs no key or network; the default engine and the Anthropic engine's fallback. */
export class LocalAiEngine implements AiEngine {
  readonly name = 'local' as const;

  async breakTie(input: BreakTieInput): Promise<BreakTieResult> {
    return breakTieResultSchema.parse(localBreakTie(input));
  }

  async mergeInsight(input: MergeInsightInput): Promise<MergeInsightResult> {
    return mergeInsightResultSchema.parse(localMergeInsight(input));
  }

  async geoLockExplanation(input: GeoLockExplanationInput): Promise<GeoLockExplanationResult> {
    return geoLockExplanationResultSchema.parse(localGeoLockExplanation(input));
  }

  async onboardingReply(input: OnboardingReplyInput): Promise<OnboardingReply> {
    return onboardingReplySchema.parse(localOnboardingReply(input));
  }
}
