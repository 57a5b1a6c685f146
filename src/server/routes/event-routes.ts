import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { eventBatchSchema } from '../../shared/api/events';
import { recordEvents } from '../analytics/event-store';
import type { AppDeps, AppEnv } from '../app-context';
import { ApiError } from '../http/errors';
import { TokenBuckets } from '../http/token-bucket';
import { readJson } from '../http/validation';

/** Spec section 9: 10 events per second with bursts of 100, per browser session. */
const EVENTS_PER_SECOND = 10;
const EVENT_BURST = 100;

/** POST /api/events: first-party analytics, stored in our own database; no third party sees them. */
export function eventRoutes({ db }: AppDeps) {
  const buckets = new TokenBuckets(EVENTS_PER_SECOND, EVENT_BURST);
  return new Hono<AppEnv>().post('/', async (c) => {
    const { events } = await readJson(c, eventBatchSchema);
    const sessionKey = createHash('sha256').update(c.get('csrfToken')).digest('hex').slice(0, 32);
    const waitMs = buckets.take(sessionKey, events.length);
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new ApiError(429, `Too many analytics events. Try again in ${seconds} s.`, {
        'Retry-After': String(seconds),
      });
    }
    await recordEvents(db, { userId: c.get('user')?.id ?? null, sessionKey, events });
    return c.json({ accepted: events.length }, 202);
  });
}
