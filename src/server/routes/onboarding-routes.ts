import { Hono } from 'hono';
import { onboardingChatRequestSchema } from '../../shared/api/onboarding';
import type { AppDeps, AppEnv } from '../app-context';
import { ApiError } from '../http/errors';
import { TokenBuckets } from '../http/token-bucket';
import { readJson } from '../http/validation';
import { onboardingChatReply } from '../onboarding/onboarding-reply';

/** A person types far slower than this; the limit only stops scripts from spending the model budget. */
const REPLIES_PER_SECOND = 0.5;
const REPLY_BURST = 20;

/**
 * The onboarding assistant. Open to signed-out visitors too, like the page: it reads only what is sent
 * and stores nothing.
 */
export function onboardingRoutes(deps: AppDeps) {
  const buckets = new TokenBuckets(REPLIES_PER_SECOND, REPLY_BURST);
  return new Hono<AppEnv>().post('/claude/onboarding-chat', async (c) => {
    const key = c.get('user')?.id ?? c.get('clientAddress');
    const waitMs = buckets.take(key);
    if (waitMs > 0) {
      throw new ApiError(429, 'Too many messages at once. Please wait a moment and try again.', {
        'retry-after': String(Math.ceil(waitMs / 1000)),
      });
    }
    const request = await readJson(c, onboardingChatRequestSchema);
    return c.json(await onboardingChatReply(deps, request));
  });
}
