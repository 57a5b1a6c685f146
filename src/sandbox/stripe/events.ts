import { newId } from './ids';
import type { EventRecord, StripeState } from './state';
import type { Wire } from './wire';

/** The API request that caused an event (`event.request`), when one did. */
export interface EventCause {
  requestId: string | null;
  idempotencyKey: string | null;
}

export const NO_CAUSE: EventCause = { requestId: null, idempotencyKey: null };

/**
 * Records an event with a snapshot of its object (as Stripe's events carry the object as it was) and
 * queues one delivery per enabled webhook endpoint that listens for its type.
 */
export function recordEvent(
  state: StripeState,
  type: string,
  object: Wire,
  cause: EventCause,
  previousAttributes: Wire | null = null,
): EventRecord {
  const endpoints = Object.values(state.webhookEndpoints).filter(
    (endpoint) =>
      endpoint.status === 'enabled' &&
      (endpoint.enabledEvents.includes('*') || endpoint.enabledEvents.includes(type)),
  );
  const record: EventRecord = {
    id: newId('event'),
    type,
    created: Math.floor(Date.now() / 1000),
    object: structuredClone(object),
    previousAttributes,
    requestId: cause.requestId,
    idempotencyKey: cause.idempotencyKey,
    pendingWebhooks: endpoints.length,
  };
  state.events.push(record);
  // Stripe keeps events for 30 days; the emulator keeps the last 5,000.
  if (state.events.length > 5000) state.events.splice(0, state.events.length - 5000);
  const now = Date.now();
  for (const endpoint of endpoints) {
    state.deliveries.push({ eventId: record.id, endpointId: endpoint.id, attempts: 0, nextAttemptAt: now });
  }
  return record;
}
