import { Bot, Send, User } from 'lucide-react';
import { type KeyboardEvent, useEffect, useRef } from 'react';
import { MAX_CHAT_MESSAGE_LENGTH } from '../../../shared/api/onboarding';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { type ChatMessage, canSend, sendsOnKey } from './chat-model';

interface OnboardingChatProps {
  messages: ChatMessage[];
  pending: boolean;
  draft: string;
  onDraftChange: (text: string) => void;
  onSend: (text: string) => void;
}

function MessageBubble({ message }: { message: ChatMessage }) {
  const mine = message.type === 'user';
  const Icon = mine ? User : Bot;
  return (
    <li className={cn('flex items-start gap-2', mine && 'flex-row-reverse')}>
      <span
        aria-hidden="true"
        className={cn(
          'mt-1 flex h-7 w-7 shrink-0 items-center justify-center rounded-full',
          mine ? 'bg-slate-200 text-slate-700' : 'bg-violet-100 text-violet-700',
        )}
      >
        <Icon className="h-4 w-4" />
      </span>
      <div
        className={cn(
          'max-w-[80%] whitespace-pre-wrap rounded-2xl px-4 py-2 text-sm',
          mine ? 'bg-violet-700 text-white' : 'bg-slate-100 text-slate-900',
        )}
      >
        <span className="sr-only">{mine ? 'You: ' : 'Assistant: '}</span>
        {message.content}
      </div>
    </li>
  );
}

/** The onboarding conversation: messages, quick replies under the latest answer, and the composer. */
export function OnboardingChat({ messages, pending, draft, onDraftChange, onSend }: OnboardingChatProps) {
  const endRef = useRef<HTMLDivElement>(null);
  const last = messages.at(-1);
  const quickReplies = !pending && last?.type === 'assistant' ? (last.options ?? []) : [];

  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: 'nearest' });
  });

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!sendsOnKey({ key: event.key, shiftKey: event.shiftKey, isComposing: event.nativeEvent.isComposing }))
      return;
    event.preventDefault();
    if (canSend(draft, pending)) onSend(draft);
  };

  return (
    <div className="grid gap-3">
      <div className="h-96 overflow-y-auto rounded-2xl border border-slate-200 bg-white p-4">
        <ol aria-label="Conversation" aria-live="polite" className="grid gap-3">
          {messages.map((message) => (
            <MessageBubble key={message.id} message={message} />
          ))}
        </ol>
        {pending ? (
          <p role="status" className="mt-3 text-sm text-slate-500">
            The assistant is typing…
          </p>
        ) : null}
        <div ref={endRef} />
      </div>
      {quickReplies.length > 0 ? (
        <fieldset className="flex flex-wrap gap-2">
          <legend className="sr-only">Quick replies</legend>
          {quickReplies.map((option) => (
            <Button key={option} variant="outline" size="sm" onClick={() => onSend(option)}>
              {option}
            </Button>
          ))}
        </fieldset>
      ) : null}
      <form
        className="flex items-end gap-2"
        aria-label="Send a message"
        onSubmit={(event) => {
          event.preventDefault();
          if (canSend(draft, pending)) onSend(draft);
        }}
      >
        <label htmlFor="onboarding-message" className="sr-only">
          Message
        </label>
        <textarea
          id="onboarding-message"
          rows={2}
          maxLength={MAX_CHAT_MESSAGE_LENGTH}
          value={draft}
          onChange={(event) => onDraftChange(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Type your message…"
          className="min-h-[2.75rem] flex-1 resize-none rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-violet-600"
        />
        <Button type="submit" disabled={!canSend(draft, pending)}>
          <Send aria-hidden="true" className="h-4 w-4" />
          Send
        </Button>
      </form>
    </div>
  );
}
