import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { DatabaseHandle } from '../db/client';
import { createLogger } from '../logger';
import { createTestDatabase } from '../testing/test-database';
import { defineJob, enqueue, jobRegistry } from './define-job';
import { enqueueJob, getJob, type JobRow } from './job-queue';
import { JobRunner } from './job-runner';

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
  handler: (greeting: string) => async (payload) => ({ text: `${greeting}, ${payload.name}` }),
});

describe('defined jobs', () => {
  it('run with their parsed payload through the registry', async () => {
    const runner = new JobRunner({
      db: database.db,
      logger: createLogger('silent'),
      handlers: jobRegistry([greetJob], 'Hello'),
      concurrency: 1,
      pollIntervalMs: 20,
    });
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
