import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { eventBatchSchema } from '../../shared/api/events';
import { recordEvents } from '../analytics/event-store';
import type { AppDeps, AppEnv } from '../app-context';
import { readJson } from '../http/validation';
import { enforceRateLimit } from '../security/rate-limit';

/** POST /api/events: first-party analytics, stored in our own database; no third party sees them. */
export function eventRoutes({ db, config }: AppDeps) {
  // Spec section 9: 10 events per second with bursts of 100 (EVENTS_PER_10_SECONDS per 10 s window).
  const events = {
    bucket: 'events',
    limit: config.EVENTS_PER_10_SECONDS,
    windowMs: 10_000,
    message: 'Too many analytics events.',
  };
  return new Hono<AppEnv>().post('/', async (c) => {
    const batch = await readJson(c, eventBatchSchema);
    // Limited per account when signed in, else per address: never by the CSRF cookie, which the
    // client chooses and could change with every request.
    const user = c.get('user');
    await enforceRateLimit(
      db,
      events,
      user ? `user:${user.id}` : `address:${c.get('clientNetwork')}`,
      batch.events.length,
    );
    // Groups one browser's events in the stored data (not a limit key).
    const sessionKey = createHash('sha256').update(c.get('csrfToken')).digest('hex').slice(0, 32);
    await recordEvents(db, { userId: user?.id ?? null, sessionKey, events: batch.events });
    return c.json({ accepted: batch.events.length }, 202);
  });
}
