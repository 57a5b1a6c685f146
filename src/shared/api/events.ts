import { z } from 'zod';
import { text } from '../text';

/** First-party analytics (spec section 3 event list; section 9 batching and rate limits). */
export const ANALYTICS_FLUSH_INTERVAL_MS = 3000;
export const ANALYTICS_MAX_BATCH = 100;

export const analyticsEventSchema = z.object({
  event: text()
    .min(1, 'event name is required')
    .max(64, 'event name is too long')
    .regex(/^\$?[a-z][a-z0-9_]*$/, 'event name must be snake_case (or $pageview)'),
  properties: z
    .record(text().max(64), z.union([text().max(2000), z.number(), z.boolean(), z.null()]))
    .refine((value) => Object.keys(value).length <= 32, 'at most 32 properties per event')
    .default({}),
  timestamp: z.iso.datetime({ offset: true, error: 'timestamp must be an ISO 8601 date-time' }),
});
export type AnalyticsEvent = z.infer<typeof analyticsEventSchema>;

export const eventBatchSchema = z.object({
  events: z
    .array(analyticsEventSchema)
    .min(1, 'events must not be empty')
    .max(ANALYTICS_MAX_BATCH, `at most ${ANALYTICS_MAX_BATCH} events per batch`),
});
export type EventBatch = z.infer<typeof eventBatchSchema>;
