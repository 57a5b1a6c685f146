// The public face of the onboarding feature: pages and other features import from here only.
export { type ChatMessage, canComplete, newMessage } from './chat-model';
export { CompletionCard } from './completion-card';
export { useOnboardingReply } from './onboarding-api';
export { OnboardingChat } from './onboarding-chat';
