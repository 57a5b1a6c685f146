import { useMutation } from '@tanstack/react-query';
import {
  MAX_CHAT_MESSAGES,
  type OnboardingChatResponse,
  onboardingChatResponseSchema,
} from '../../../shared/api/onboarding';
import { request } from '../../lib/api-client';
import { type ChatMessage, remainingPacing } from './chat-model';

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The assistant's next message, paced like the spec's simulated reply when the local engine answers. */
export async function requestReply(messages: readonly ChatMessage[]): Promise<OnboardingChatResponse> {
  const started = performance.now();
  const reply = await request(onboardingChatResponseSchema, 'POST', '/api/claude/onboarding-chat', {
    // The server reads at most 50; the latest ones carry the context that matters.
    messages: messages
      .slice(-MAX_CHAT_MESSAGES)
      .map(({ id, type, content, timestamp }) => ({ id, type, content, timestamp })),
  });
  const wait = remainingPacing(reply.engine, performance.now() - started);
  if (wait > 0) await pause(wait);
  return reply;
}

/** Asking the assistant is a write (a conversation turn): one mutation per page, pending while it answers. */
export const useOnboardingReply = () => useMutation({ mutationFn: requestReply });
