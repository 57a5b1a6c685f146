import type { AnalyticsEvent } from '../../shared/api/events';
import type { Database } from '../db/client';
import { analyticsEvents } from '../db/schema';

/** Stores a batch of first-party analytics events in our own database; no third party sees them. */
export async function recordEvents(
  db: Database,
  batch: { userId: string | null; sessionKey: string; events: readonly AnalyticsEvent[] },
): Promise<void> {
  if (batch.events.length === 0) return;
  await db.insert(analyticsEvents).values(
    batch.events.map((event) => ({
      userId: batch.userId,
      sessionKey: batch.sessionKey,
      event: event.event,
      properties: event.properties,
      occurredAt: new Date(event.timestamp),
    })),
  );
}
