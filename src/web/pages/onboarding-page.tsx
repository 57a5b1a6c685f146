import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { ONBOARDING_MESSAGES } from '../../shared/api/onboarding';
import { onboardingRouteFor } from '../../shared/onboarding-routing';
import { Page } from '../components/layout/page';
import { Button } from '../components/ui/button';
import {
  type ChatMessage,
  CompletionCard,
  canComplete,
  newMessage,
  OnboardingChat,
  useOnboardingReply,
} from '../features/onboarding';
import { toast } from '../hooks/use-toast';
import { paths } from '../lib/paths';
import { track } from '../lib/track';

const FALLBACK_GREETING =
  "Hi! I'm your Crossfade assistant. Tell me what you'd like to do with your music and I'll point you the right way.";

function replyFailed() {
  toast({
    title: ONBOARDING_MESSAGES.replyFailedTitle,
    description: ONBOARDING_MESSAGES.replyFailed,
    variant: 'destructive',
  });
}

export default function OnboardingPage() {
  const [, navigate] = useLocation();
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [draft, setDraft] = useState('');
  const reply = useOnboardingReply();
  // Until the greeting is there, nothing can be sent either.
  const pending = reply.isPending || messages.length === 0;
  const started = useRef(false);
  const { mutate: ask } = reply;

  useEffect(() => {
    // Once per visit, even when React runs effects twice in development.
    if (started.current) return;
    started.current = true;
    track('onboarding_started');
    ask([], {
      onSuccess: (greeting) => setMessages([newMessage('assistant', greeting.content, greeting.options)]),
      onError: () => setMessages([newMessage('assistant', FALLBACK_GREETING)]),
    });
  }, [ask]);

  const send = (text: string) => {
    const content = text.trim();
    if (content === '' || pending) return;
    const conversation = [...messages, newMessage('user', content)];
    setMessages(conversation);
    setDraft('');
    ask(conversation, {
      onSuccess: (answer) =>
        setMessages([...conversation, newMessage('assistant', answer.content, answer.options)]),
      onError: replyFailed,
    });
  };

  const route = onboardingRouteFor(messages);
  const complete = () => {
    if (!canComplete(messages)) return;
    track('onboarding_completed', { selected_option: route });
    navigate(route);
  };
  const skip = () => {
    track('onboarding_skipped');
    navigate(paths.transfer);
  };

  return (
    <Page title="Welcome" description="Tell us what you want to do and we will point you the right way.">
      <div className="grid gap-6">
        <div className="flex justify-end">
          <Button variant="ghost" onClick={skip}>
            Skip Chat
          </Button>
        </div>
        <OnboardingChat
          messages={messages}
          pending={pending}
          draft={draft}
          onDraftChange={setDraft}
          onSend={send}
        />
        {canComplete(messages) ? (
          <CompletionCard route={route} enabled={canComplete(messages)} onComplete={complete} />
        ) : null}
      </div>
    </Page>
  );
}
