import { createHmac } from 'node:crypto';
import type { DeliveryRecord, StripeStore } from './state';
import { event as eventWire } from './wire';

/** Stripe's signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.payload" with the endpoint secret>`. */
export function signatureHeader(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)) {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

/**
 * Delays between attempts at one delivery. Stripe retries a failed delivery with exponential backoff
 * (over three days in live mode); the sandbox starts at a second so a restarted app catches up quickly.
 */
export const DEFAULT_RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 120_000, 300_000];

/** What an endpoint must answer within, as Stripe times deliveries out. */
const DELIVERY_TIMEOUT_MS = 10_000;

export interface WebhookDelivererOptions {
  retryDelaysMs?: readonly number[];
  onDelivery?: (result: {
    eventId: string;
    endpointId: string;
    status: number | null;
    attempt: number;
  }) => void;
}

/**
 * Sends queued events to their endpoints as POSTs signed like Stripe's: one at a time per endpoint in the
 * order they happened, a failed one (network error, timeout or any non-2xx answer) retried later with
 * backoff while the next ones go on. Deliveries are kept in the emulator's state, so they survive a restart.
 */
export class WebhookDeliverer {
  private readonly busy = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly retryDelaysMs: readonly number[];

  constructor(
    private readonly store: StripeStore,
    private readonly options: WebhookDelivererOptions = {},
  ) {
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  }

  /** Starts whatever is due now and sets a timer for the next retry. */
  kick(): void {
    if (this.closed) return;
    const now = Date.now();
    for (const endpointId of new Set(this.store.value.deliveries.map((delivery) => delivery.endpointId))) {
      if (this.busy.has(endpointId)) continue;
      const next = this.store.value.deliveries.find(
        (delivery) => delivery.endpointId === endpointId && delivery.nextAttemptAt <= now,
      );
      if (next) void this.send(next);
    }
    this.scheduleWakeUp();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private scheduleWakeUp() {
    if (this.timer) clearTimeout(this.timer);
    const waiting = this.store.value.deliveries.filter((delivery) => !this.busy.has(delivery.endpointId));
    if (waiting.length === 0) return;
    const soonest = Math.min(...waiting.map((delivery) => delivery.nextAttemptAt));
    this.timer = setTimeout(() => this.kick(), Math.max(10, soonest - Date.now()));
    this.timer.unref();
  }

  private async send(delivery: DeliveryRecord) {
    const { endpointId, eventId } = delivery;
    this.busy.add(endpointId);
    const state = this.store.value;
    const endpoint = state.webhookEndpoints[endpointId];
    const event = state.events.find((candidate) => candidate.id === eventId);
    let status: number | null = null;
    if (endpoint && event && endpoint.status === 'enabled') {
      const payload = JSON.stringify(eventWire(event), null, 2);
      try {
        const response = await fetch(endpoint.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
            'stripe-signature': signatureHeader(payload, endpoint.secret),
          },
          body: payload,
          signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
        });
        status = response.status;
        await response.body?.cancel();
      } catch {
        status = null;
      }
    }
    const delivered = status !== null && status >= 200 && status < 300;
    const attempt = delivery.attempts + 1;
    this.options.onDelivery?.({ eventId, endpointId, status, attempt });
    this.store.update((current) => {
      const index = current.deliveries.findIndex(
        (candidate) => candidate.eventId === eventId && candidate.endpointId === endpointId,
      );
      const entry = current.deliveries[index];
      if (!entry) return;
      const delay = this.retryDelaysMs[entry.attempts];
      // Gone endpoints and exhausted retries end the delivery, as Stripe stops after its last retry.
      if (delivered || !endpoint || delay === undefined) {
        current.deliveries.splice(index, 1);
        const record = current.events.find((candidate) => candidate.id === eventId);
        if (record) record.pendingWebhooks = Math.max(0, record.pendingWebhooks - 1);
      } else {
        entry.attempts = attempt;
        entry.nextAttemptAt = Date.now() + delay;
      }
    });
    this.busy.delete(endpointId);
    this.kick();
  }
}
