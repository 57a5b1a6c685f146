import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RollingWindowLimiter } from '../../sandbox/rate-limiter';
import type { DatabaseHandle } from '../db/client';
import { createTestDatabase, usesRealPostgres } from '../testing/test-database';
import { CallScheduler } from './call-turns';
import { SharedBudget } from './shared-budget';

/**
 * Two budgets on one database stand for two processes of one app (decision 0029) calling the emulators'
 * own limiter: after the first refusal teaches the budget, no call either of them paces is refused.
 */
let database: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

// The shared budget serves PostgreSQL deployments (PGlite serves one process and keeps its own budget).
describe.skipIf(!usesRealPostgres())('SharedBudget', () => {
  it('keeps two processes of one app within the budget the first refusal taught', async () => {
    const windowMs = 1000;
    const service = new RollingWindowLimiter(12, windowMs, Date.now);
    const key = { service: 'spotify', app: `test-${randomUUID()}` };
    const processes = [0, 1].map(
      () =>
        new CallScheduler(
          new SharedBudget({ db: database.db, key, windowMs, slackMs: 100, validMs: 200, learnTrimMs: 100 }),
          {
            windowMs,
          },
        ),
    );
    const refusals = { learning: 0, paced: 0 };
    let accepted = 0;
    const until = Date.now() + windowMs * 4;
    await Promise.all(
      processes.flatMap((scheduler, index) =>
        Array.from({ length: 3 }, async () => {
          while (Date.now() < until) {
            const slot = await scheduler.acquire({ userId: `person-${index}`, interactive: true }, 10_000);
            await new Promise((resolve) => setTimeout(resolve, 2)); // on its way
            const ok = service.take() === 0;
            scheduler.release(ok);
            if (ok) accepted++;
            else {
              if (slot.paced) refusals.paced++;
              else refusals.learning++;
              await scheduler.learn(slot);
            }
          }
        }),
      ),
    );
    expect(refusals.learning).toBeGreaterThanOrEqual(1);
    expect(refusals.paced).toBe(0);
    // The budget binds: about 12 a second over 4 seconds, not far fewer.
    expect(accepted).toBeGreaterThan(12 * 2);
  }, 30_000);
});
