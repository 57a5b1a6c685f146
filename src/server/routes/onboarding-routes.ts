import { Hono } from 'hono';
import { onboardingChatRequestSchema } from '../../shared/api/onboarding';
import type { AppDeps, AppEnv } from '../app-context';
import { readJson } from '../http/validation';
import { onboardingChatReply } from '../onboarding/onboarding-reply';
import { enforceRateLimit, MINUTE_MS } from '../security/rate-limit';

/**
 * The onboarding assistant. Open to signed-out visitors too, like the page: it reads only what is sent
 * and stores nothing. A person types far slower than the limit; it only stops scripts from spending the
 * model budget.
 */
export function onboardingRoutes(deps: AppDeps) {
  const replies = {
    bucket: 'onboarding-reply',
    limit: deps.config.ONBOARDING_REPLIES_PER_MINUTE,
    windowMs: MINUTE_MS,
    message: 'Too many messages at once. Please wait a moment.',
  };
  return new Hono<AppEnv>().post('/claude/onboarding-chat', async (c) => {
    const user = c.get('user');
    await enforceRateLimit(deps.db, replies, user ? `user:${user.id}` : `address:${c.get('clientNetwork')}`);
    const request = await readJson(c, onboardingChatRequestSchema);
    return c.json(await onboardingChatReply(deps, request));
  });
}
