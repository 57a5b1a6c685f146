import { createAnalyticsClient, type EventProperties, httpBatchSender } from './analytics';

/** First-party only: events go to our own POST /api/events, never to a third party. */
const analytics = createAnalyticsClient({ send: httpBatchSender('/api/events') });

let stopFlushing: (() => void) | null = null;

/** Starts the 3 s flush and the flush on page hide; safe to call more than once. */
export function startAnalytics(): void {
  if (stopFlushing || typeof window === 'undefined') return;
  stopFlushing = analytics.start();
  // keepalive lets the last batch outlive the page, the way sendBeacon would, while keeping the CSRF header.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') void analytics.flush({ keepalive: true });
  });
  window.addEventListener('pagehide', () => void analytics.flush({ keepalive: true }));
}

/** Sends what is queued now, surviving a navigation that is about to happen. */
export function flushAnalytics(): Promise<void> {
  return analytics.flush({ keepalive: true });
}

export function track(event: string, properties: EventProperties = {}): void {
  analytics.track(event, properties);
}

/** Spec section 3: `button_clicked (button_id, context)`. */
export function trackButtonClick(buttonId: string, context: string): void {
  track('button_clicked', { button_id: buttonId, context });
}
