import {
  ANALYTICS_FLUSH_INTERVAL_MS,
  ANALYTICS_MAX_BATCH,
  type AnalyticsEvent,
  type EventBatch,
} from '../../shared/api/events';
import { apiRequest } from './api-client';

/** Spec section 9: retries back off from 3 s, capped at 30 min, at most 10 per batch. */
export const RETRY_BASE_MS = 3000;
export const RETRY_CAP_MS = 30 * 60 * 1000;
export const MAX_RETRIES = 10;
/** Holds at most this many unsent events so an offline tab cannot grow without bound. */
export const MAX_QUEUED_EVENTS = 1000;

export type EventProperties = AnalyticsEvent['properties'];

/** Delay before retry number `attempt` (1-based): 3 s, 6 s, 12 s, … never above 30 min. */
export function retryDelayMs(attempt: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1), RETRY_CAP_MS);
}

/** Sends one batch; resolves true when the server took it. */
export type BatchSender = (events: AnalyticsEvent[], options: { keepalive: boolean }) => Promise<boolean>;

/** Posts batches to our own collector (POST /api/events); any non-2xx answer counts as not delivered. */
export function httpBatchSender(endpoint = '/api/events'): BatchSender {
  return async (events, { keepalive }) => {
    const batch: EventBatch = { events };
    await apiRequest('POST', endpoint, batch, { keepalive });
    return true;
  };
}

export interface AnalyticsClientOptions {
  send: BatchSender;
  flushIntervalMs?: number;
  now?: () => Date;
}

export interface AnalyticsClient {
  track(event: string, properties?: EventProperties): void;
  /** Sends everything queued, batch by batch; stops at the first failure and schedules a retry. */
  flush(options?: { keepalive?: boolean }): Promise<void>;
  /** Events waiting to be sent. */
  pending(): number;
  /** Starts the periodic flush; returns the function that stops it. */
  start(): () => void;
}

export function createAnalyticsClient(options: AnalyticsClientOptions): AnalyticsClient {
  const interval = options.flushIntervalMs ?? ANALYTICS_FLUSH_INTERVAL_MS;
  const now = options.now ?? (() => new Date());
  let queue: AnalyticsEvent[] = [];
  let failedAttempts = 0;
  let retryAt = 0;
  let flushing: Promise<void> | null = null;

  const sendAll = async (keepalive: boolean): Promise<void> => {
    while (queue.length > 0) {
      const batch = queue.slice(0, ANALYTICS_MAX_BATCH);
      let delivered = false;
      try {
        delivered = await options.send(batch, { keepalive });
      } catch {
        delivered = false;
      }
      if (delivered) {
        queue = queue.slice(batch.length);
        failedAttempts = 0;
        retryAt = 0;
        continue;
      }
      failedAttempts += 1;
      if (failedAttempts > MAX_RETRIES) {
        // The server has refused this batch eleven times; keeping it would block every later event.
        queue = queue.slice(batch.length);
        failedAttempts = 0;
        retryAt = 0;
        continue;
      }
      retryAt = Date.now() + retryDelayMs(failedAttempts);
      return;
    }
  };

  const client: AnalyticsClient = {
    track(event, properties = {}) {
      queue.push({ event, properties, timestamp: now().toISOString() });
      if (queue.length > MAX_QUEUED_EVENTS) queue = queue.slice(queue.length - MAX_QUEUED_EVENTS);
    },
    flush({ keepalive = false } = {}) {
      if (flushing) return flushing;
      flushing = sendAll(keepalive).finally(() => {
        flushing = null;
      });
      return flushing;
    },
    pending: () => queue.length,
    start() {
      const timer = setInterval(() => {
        if (Date.now() >= retryAt) void client.flush();
      }, interval);
      return () => clearInterval(timer);
    },
  };
  return client;
}
