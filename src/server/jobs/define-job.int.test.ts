import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { DatabaseHandle } from '../db/client';
import { jobs } from '../db/schema';
import { createLogger } from '../logger';
import { createTestDatabase } from '../testing/test-database';
import { defineJob, enqueue, jobRegistry } from './define-job';
import { JobRunner, type JobRunnerOptions } from './job-runner';
import { enqueueJob, getJob, type JobRow } from './job-store';

let database: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

async function waitFor(id: string, statuses: JobRow['status'][]): Promise<JobRow> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const job = await getJob(database.db, id);
    if (job && statuses.includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} stuck in ${job?.status}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Greets the name in its payload; the dependency is the greeting. */
const greetJob = defineJob({
  kind: 'greet',
  payloadSchema: z.object({ name: z.string().min(1) }),
  stateSchema: z.never(),
  handler: (greeting: string) => async (payload) => ({ text: `${greeting}, ${payload.name}` }),
});

/** Counts up to its payload, checkpointing each step; a resumed run goes on from its checkpoint. */
const countJob = defineJob({
  kind: 'count',
  payloadSchema: z.object({ upTo: z.number().int() }),
  stateSchema: z.object({ counted: z.number().int().nonnegative() }),
  handler:
    (_greeting: string) =>
    async ({ upTo }, context) => {
      const from = context.state?.counted ?? 0;
      for (let counted = from + 1; counted <= upTo; counted++) await context.checkpoint({ counted });
      return { resumedFrom: from, counted: upTo };
    },
});

const runnerFor = (handlers: JobRunnerOptions['handlers']) =>
  new JobRunner({
    db: database.db,
    logger: createLogger('silent'),
    handlers,
    concurrency: 1,
    pollIntervalMs: 20,
  });

describe('defined jobs', () => {
  it('run with their parsed payload through the registry', async () => {
    const runner = runnerFor(jobRegistry([greetJob], 'Hello'));
    runner.start();
    try {
      const queued = await enqueue(database.db, greetJob, { payload: { name: 'Ada' } });
      expect(queued.kind).toBe('greet');
      const done = await waitFor(queued.id, ['succeeded']);
      expect(done.result).toEqual({ text: 'Hello, Ada' });

      // A row written some other way with a payload the schema refuses fails for good, without a retry.
      const bad = await enqueueJob(database.db, { kind: 'greet', payload: { name: 42 }, maxAttempts: 5 });
      const failed = await waitFor(bad.id, ['failed']);
      expect(failed.error).toBe("The greet job's payload is not valid.");
      expect(failed.attempts).toBe(1);
    } finally {
      await runner.stop();
    }
  });

  it('resume from their parsed checkpoint, and fail for good on one they cannot read', async () => {
    const runner = runnerFor(jobRegistry([countJob], 'Hello'));
    // Checkpoints as an earlier run left them, written before the runner starts.
    const saved = await enqueue(database.db, countJob, { payload: { upTo: 5 } });
    await database.db
      .update(jobs)
      .set({ state: { counted: 3 } })
      .where(eq(jobs.id, saved.id));
    const unreadable = await enqueue(database.db, countJob, { payload: { upTo: 5 }, maxAttempts: 5 });
    await database.db
      .update(jobs)
      .set({ state: { counted: 'three' } })
      .where(eq(jobs.id, unreadable.id));
    runner.start();
    try {
      expect((await waitFor(saved.id, ['succeeded'])).result).toEqual({ resumedFrom: 3, counted: 5 });
      const failed = await waitFor(unreadable.id, ['failed']);
      expect(failed.error).toBe("The count job's saved progress is not valid.");
      expect(failed.attempts).toBe(1);
    } finally {
      await runner.stop();
    }
  });

  it('refuse to enqueue a payload outside the schema', async () => {
    // @ts-expect-error the payload's type comes from the job's schema
    const wrongType = enqueue(database.db, greetJob, { payload: { nom: 'Ada' } });
    await expect(wrongType).rejects.toThrow();
    await expect(enqueue(database.db, greetJob, { payload: { name: '' } })).rejects.toThrow();
  });

  it('may not share a kind', () => {
    expect(() => jobRegistry([greetJob, greetJob], 'Hi')).toThrow(
      'two jobs are defined with the kind "greet"',
    );
  });
});
