import { AnthropicAiEngine } from './anthropic-engine';
import type { AiEngine, AiLogger } from './engine';
import { LocalAiEngine } from './local-engine';

export { onboardingRouteFor as routeFromMessages } from '../../shared/onboarding-routing';
export { AnthropicAiEngine, DEFAULT_AI_TIMEOUT_MS, DEFAULT_ANTHROPIC_MODEL } from './anthropic-engine';
export * from './engine';
export { LocalAiEngine } from './local-engine';
export { createMatchingTieBreaker, summarizeTrack } from './matching-tie-breaker';

export interface AiSettings {
  /** With a key the Anthropic engine runs (falling back to local per call); without one, the local engine. */
  anthropicApiKey?: string;
  anthropicBaseUrl?: string;
  anthropicModel?: string;
  timeoutMs?: number;
  maxRetries?: number;
}

export function createAiEngine(
  settings: AiSettings,
  logger: AiLogger,
): AiEngine & { name: 'local' | 'anthropic' } {
  const apiKey = settings.anthropicApiKey?.trim();
  if (!apiKey) return new LocalAiEngine();
  return new AnthropicAiEngine({
    apiKey,
    logger,
    ...(settings.anthropicBaseUrl ? { baseUrl: settings.anthropicBaseUrl } : {}),
    ...(settings.anthropicModel ? { model: settings.anthropicModel } : {}),
    ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
    ...(settings.maxRetries === undefined ? {} : { maxRetries: settings.maxRetries }),
  });
}
