import { MIN_MESSAGES_TO_COMPLETE } from '../../../shared/api/onboarding';
import type { OnboardingTarget } from '../../../shared/onboarding-routing';

/** Spec section 3: a chat message. */
export interface ChatMessage {
  id: string;
  type: 'assistant' | 'user';
  content: string;
  timestamp: string;
  options?: string[];
}

let sequence = 0;

export function newMessage(type: ChatMessage['type'], content: string, options?: string[]): ChatMessage {
  sequence += 1;
  return {
    id: `${type}-${Date.now().toString(36)}-${sequence}`,
    type,
    content,
    timestamp: new Date().toISOString(),
    ...(options && options.length > 0 ? { options } : {}),
  };
}

/** Spec section 2: Send is disabled when the text is blank or a reply is pending. */
export const canSend = (text: string, pending: boolean) => !pending && text.trim() !== '';

/** Enter sends; Shift+Enter (and Enter while an IME is composing) adds a newline. */
export const sendsOnKey = (event: { key: string; shiftKey: boolean; isComposing?: boolean }) =>
  event.key === 'Enter' && !event.shiftKey && event.isComposing !== true;

export const canComplete = (messages: readonly ChatMessage[]) => messages.length >= MIN_MESSAGES_TO_COMPLETE;

export const ROUTE_LABELS: Record<OnboardingTarget, string> = {
  '/transfer': 'Transfer a playlist',
  '/vault': 'Back up your library with Vault+',
  '/merge': 'Merge playlists with a friend',
  '/recreate': 'Recreate a lost playlist',
  '/syncs': 'Keep playlists in sync',
};

/** The local engine answers at once; a short pause reads as the assistant typing (spec: about 1 s). */
export const LOCAL_REPLY_PACING_MS = 1000;

export const remainingPacing = (engine: 'local' | 'anthropic', elapsedMs: number) =>
  engine === 'local' ? Math.max(0, LOCAL_REPLY_PACING_MS - elapsedMs) : 0;
