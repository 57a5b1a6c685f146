import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client';
import { jobs } from '../db/schema';
import { createLogger } from '../logger';
import { createTestDatabase } from '../testing/test-database';
import {
  DATABASE_ERROR_MESSAGE,
  type JobHandler,
  JobRunner,
  PermanentJobError,
  RetryLater,
} from './job-runner';
import { claimNextJob, enqueueJob, getJob, type JobRow, saveCheckpoint } from './job-store';

let database: DatabaseHandle;
const logger = createLogger('silent');

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

async function waitFor(id: string, statuses: JobRow['status'][], timeoutMs = 20_000): Promise<JobRow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await getJob(database.db, id);
    if (job && statuses.includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} stuck in ${job?.status}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function runner(handlers: Record<string, JobHandler>, concurrency = 1) {
  return new JobRunner({
    db: database.db,
    logger,
    handlers,
    concurrency,
    pollIntervalMs: 20,
    retryBaseMs: 10,
  });
}

describe('JobRunner', () => {
  it('runs a job and stores its result', async () => {
    const worker = runner({ double: async ({ job }) => ({ value: (job.payload as { n: number }).n * 2 }) });
    worker.start();
    const job = await enqueueJob(database.db, { kind: 'double', payload: { n: 21 } });
    const done = await waitFor(job.id, ['succeeded', 'failed']);
    await worker.stop();
    expect(done.status).toBe('succeeded');
    expect(done.result).toEqual({ value: 42 });
    expect(done.finishedAt).not.toBeNull();
  });

  it('retries a failing job with backoff and gives up after maxAttempts with the last error', async () => {
    let calls = 0;
    const worker = runner({
      flaky: async () => {
        calls++;
        throw new Error(`attempt ${calls} broke`);
      },
    });
    worker.start();
    const job = await enqueueJob(database.db, { kind: 'flaky', payload: {}, maxAttempts: 3 });
    const done = await waitFor(job.id, ['failed', 'succeeded']);
    await worker.stop();
    expect(done.status).toBe('failed');
    expect(calls).toBe(3);
    expect(done.error).toBe('attempt 3 broke');
  });

  it('stores a database error as a sentence, never its query or the values in it', async () => {
    const worker = runner({
      // PostgreSQL refuses NUL in text: a real database error whose message names the value.
      storing: async () => {
        await database.db.execute(sql`select ${'secret-value\u0000'}::text`);
      },
    });
    worker.start();
    const job = await enqueueJob(database.db, { kind: 'storing', payload: {}, maxAttempts: 1 });
    const done = await waitFor(job.id, ['failed']);
    await worker.stop();
    expect(done.error).toBe(DATABASE_ERROR_MESSAGE);
  });

  it('fails at once on a permanent error', async () => {
    const worker = runner({
      doomed: async () => Promise.reject(new PermanentJobError('The playlist was deleted.')),
    });
    worker.start();
    const job = await enqueueJob(database.db, { kind: 'doomed', payload: {} });
    const done = await waitFor(job.id, ['failed']);
    await worker.stop();
    expect(done.attempts).toBe(1);
    expect(done.error).toBe('The playlist was deleted.');
  });

  it('requeues a job that must wait for a rate limit without using up its attempts, and frees the slot meanwhile', async () => {
    const order: string[] = [];
    let waited = false;
    const worker = runner(
      {
        limited: async () => {
          if (!waited) {
            waited = true;
            order.push('limited:wait');
            throw new RetryLater(300, 'Spotify asked us to wait');
          }
          order.push('limited:done');
          return 'ok';
        },
        quick: async () => {
          order.push('quick');
          return 'ok';
        },
      },
      1,
    );
    const limited = await enqueueJob(database.db, { kind: 'limited', payload: {}, maxAttempts: 1 });
    const quick = await enqueueJob(database.db, { kind: 'quick', payload: {} });
    worker.start();
    const [limitedDone] = await Promise.all([
      waitFor(limited.id, ['succeeded', 'failed']),
      waitFor(quick.id, ['succeeded']),
    ]);
    await worker.stop();
    expect(limitedDone.status).toBe('succeeded');
    // The other person's job ran while the limited one waited, even with a single slot.
    expect(order).toEqual(['limited:wait', 'quick', 'limited:done']);
  });

  it('holdLease extends the lease before a write, and refuses once another worker has taken the job', async () => {
    const writes: string[] = [];
    let release: () => void = () => {};
    const stolen = new Promise<void>((resolve) => {
      release = resolve;
    });
    const worker = runner({
      'write-twice': async (context) => {
        // Pretend the lease is nearly over, as after a long stall: holdLease renews it before the write.
        await database.db.execute(
          sql`update jobs set locked_until = now() + interval '1 second' where id = ${context.job.id}`,
        );
        await context.holdLease();
        const [row] = await database.db.select().from(jobs).where(eq(jobs.id, context.job.id));
        writes.push((row?.lockedUntil?.getTime() ?? 0) - Date.now() > 5_000 ? 'renewed' : 'short');
        await stolen;
        await context.holdLease();
        writes.push('written after the takeover');
      },
    });
    worker.start();
    const job = await enqueueJob(database.db, { kind: 'write-twice', payload: {}, maxAttempts: 1 });
    await expect.poll(() => writes.length, { timeout: 10_000 }).toBe(1);
    // Another worker takes the job over (its lease ran out during a stall, say).
    await database.db.update(jobs).set({ lockedBy: 'other-worker' }).where(eq(jobs.id, job.id));
    release();
    await expect
      .poll(async () => (await getJob(database.db, job.id))?.lockedBy, { timeout: 10_000 })
      .toBe('other-worker');
    await worker.stop();
    expect(writes).toEqual(['renewed']);
  });

  it('resumes from the last checkpoint when the worker holding a job died (its lease ran out)', async () => {
    const job = await enqueueJob(database.db, { kind: 'count-to-five', payload: {} });
    // A worker claims it, checkpoints after step 3, then "dies": it never renews its lease.
    const claimed = await claimNextJob(database.db, 'dead-worker', ['count-to-five']);
    expect(claimed?.id).toBe(job.id);
    await saveCheckpoint(database.db, job.id, 'dead-worker', { state: { steps: [1, 2, 3] } });
    await database.db.execute(
      sql`update jobs set locked_until = now() - interval '1 second' where id = ${job.id}`,
    );

    const worker = runner({
      'count-to-five': async (context) => {
        const steps = [...((context.state as { steps: number[] } | undefined)?.steps ?? [])];
        while (steps.length < 5) {
          steps.push(steps.length + 1);
          await context.checkpoint({ steps });
        }
        return steps;
      },
    });
    worker.start();
    const done = await waitFor(job.id, ['succeeded', 'failed']);
    await worker.stop();
    expect(done.result).toEqual([1, 2, 3, 4, 5]);
    // The dead worker can no longer write: its lease is gone.
    expect(await saveCheckpoint(database.db, job.id, 'dead-worker', { state: { steps: [] } })).toBe(false);
  });

  it('never runs one job in two runners at once', async () => {
    const running = new Set<string>();
    const runs = new Map<string, number>();
    let overlaps = 0;
    const handler: JobHandler = async ({ job }) => {
      if (running.has(job.id)) overlaps++;
      running.add(job.id);
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running.delete(job.id);
    };
    const created = await Promise.all(
      Array.from({ length: 30 }, () => enqueueJob(database.db, { kind: 'shared', payload: {} })),
    );
    const first = runner({ shared: handler }, 3);
    const second = runner({ shared: handler }, 3);
    first.start();
    second.start();
    for (const job of created) await waitFor(job.id, ['succeeded']);
    await Promise.all([first.stop(), second.stop()]);
    expect(overlaps).toBe(0);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    expect(runs.size).toBe(30);
  });

  it('deduplicates scheduled work by key', async () => {
    const a = await enqueueJob(database.db, {
      kind: 'backup',
      payload: { day: 1 },
      dedupeKey: 'backup:u1:2026-11-22',
    });
    const b = await enqueueJob(database.db, {
      kind: 'backup',
      payload: { day: 2 },
      dedupeKey: 'backup:u1:2026-11-22',
    });
    expect(b.id).toBe(a.id);
    const rows = await database.db.select().from(jobs).where(eq(jobs.dedupeKey, 'backup:u1:2026-11-22'));
    expect(rows).toHaveLength(1);
  });
});
