import type { Database } from '../db/client';
import type { Logger } from '../logger';
import { CallScheduler } from './call-turns';
import { ProcessSlots, RollingBudget } from './rate-budget';
import { SharedBudget } from './shared-budget';

/**
 * The one budget of a service's calls for this process: shared with every process of the app through
 * PostgreSQL when the deployment runs on it (`shared`), this process's own on the embedded database, which
 * serves one process (decisions 0021, 0029). Either way calls take turns across people (call-turns.ts).
 */
export function serviceBudget(input: {
  service: string;
  /** The app the quota belongs to: Spotify's client id, Apple's developer key. */
  app: string;
  windowMs: number;
  shared?: Database | undefined;
  logger?: Logger | undefined;
}): CallScheduler {
  const source = input.shared
    ? new SharedBudget({
        db: input.shared,
        key: { service: input.service, app: input.app },
        windowMs: input.windowMs,
      })
    : new ProcessSlots(new RollingBudget({ windowMs: input.windowMs }));
  const { logger, service } = input;
  return new CallScheduler(source, {
    windowMs: input.windowMs,
    ...(logger
      ? {
          onRefused: (paced: boolean) =>
            paced
              ? logger.warn({ service, paced }, 'rate budget: a call paced by the learned budget was refused')
              : logger.info({ service, paced }, 'rate budget: refused, learning the budget'),
        }
      : {}),
  });
}
