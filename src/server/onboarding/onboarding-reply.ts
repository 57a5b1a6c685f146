import type { OnboardingChatRequest, OnboardingChatResponse } from '../../shared/api/onboarding';
import type { AppDeps } from '../app-context';

/** The assistant's next message; the engine (local, or Anthropic with its local fallback) decides the text. */
export async function onboardingChatReply(
  deps: Pick<AppDeps, 'ai'>,
  request: OnboardingChatRequest,
): Promise<OnboardingChatResponse> {
  const reply = await deps.ai.onboardingReply({
    messages: request.messages.map(({ type, content }) => ({ type, content })),
  });
  return {
    content: reply.content,
    ...(reply.options && reply.options.length > 0 ? { options: reply.options } : {}),
    suggestedRoute: reply.suggestedRoute,
    engine: deps.ai.name,
  };
}
