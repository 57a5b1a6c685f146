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
  requestReply,
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
  const [pending, setPending] = useState(true);
  const started = useRef(false);

  useEffect(() => {
    // Once per visit, even when React runs effects twice in development.
    if (started.current) return;
    started.current = true;
    track('onboarding_started');
    requestReply([])
      .then((reply) => setMessages([newMessage('assistant', reply.content, reply.options)]))
      .catch(() => setMessages([newMessage('assistant', FALLBACK_GREETING)]))
      .finally(() => setPending(false));
  }, []);

  const send = async (text: string) => {
    const content = text.trim();
    if (content === '' || pending) return;
    const conversation = [...messages, newMessage('user', content)];
    setMessages(conversation);
    setDraft('');
    setPending(true);
    try {
      const reply = await requestReply(conversation);
      setMessages([...conversation, newMessage('assistant', reply.content, reply.options)]);
    } catch {
      replyFailed();
    } finally {
      setPending(false);
    }
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
          onSend={(text) => void send(text)}
        />
        {canComplete(messages) ? (
          <CompletionCard route={route} enabled={canComplete(messages)} onComplete={complete} />
        ) : null}
      </div>
    </Page>
  );
}
