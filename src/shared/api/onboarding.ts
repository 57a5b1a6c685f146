import { z } from 'zod';
import { ONBOARDING_ROUTES } from '../onboarding-routing';
import { text } from '../text';

/** The onboarding assistant (spec sections 2, 3, 4): POST /api/claude/onboarding-chat. */

export const MAX_CHAT_MESSAGES = 50;
export const MAX_CHAT_MESSAGE_LENGTH = 2000;
/** Messages needed before the completion button works (spec section 2). */
export const MIN_MESSAGES_TO_COMPLETE = 4;

export const ONBOARDING_MESSAGES = {
  replyFailedTitle: 'Something went wrong',
  replyFailed: 'Failed to get a response from Claude',
} as const;

/** Spec section 3: id, type (assistant or user), content, timestamp, optional options list. */
export const chatMessageSchema = z.object({
  id: text().max(100).optional(),
  type: z.enum(['assistant', 'user'], { error: 'Each message needs a type: "assistant" or "user"' }),
  content: text({ error: 'Each message needs its text as content' }).max(
    MAX_CHAT_MESSAGE_LENGTH,
    `A message can be at most ${MAX_CHAT_MESSAGE_LENGTH.toLocaleString('en-US')} characters`,
  ),
  timestamp: text().max(64).optional(),
  options: z.array(text().max(200)).max(10).optional(),
});
export type ChatMessageDto = z.infer<typeof chatMessageSchema>;

export const onboardingChatRequestSchema = z.object({
  messages: z
    .array(chatMessageSchema, { error: 'messages must be a list of chat messages' })
    .max(MAX_CHAT_MESSAGES, `A conversation can have at most ${MAX_CHAT_MESSAGES} messages`),
});
export type OnboardingChatRequest = z.infer<typeof onboardingChatRequestSchema>;

export const onboardingChatResponseSchema = z.object({
  content: text(),
  options: z.array(text()).optional(),
  suggestedRoute: z.enum(ONBOARDING_ROUTES),
  /** Which engine answered: the local one is instant, so the page paces it like a typing assistant. */
  engine: z.enum(['local', 'anthropic']),
});
export type OnboardingChatResponse = z.infer<typeof onboardingChatResponseSchema>;
