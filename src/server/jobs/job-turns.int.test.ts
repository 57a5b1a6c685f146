import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client';
import { users } from '../db/schema';
import { createTestDatabase } from '../testing/test-database';
import { claimNextJob, enqueueJob, finishJob } from './job-store';

/** The queue's turns across people (decision 0029): who is served next, whatever order the jobs came in. */
let database: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

async function person(name: string): Promise<string> {
  const [row] = await database.db
    .insert(users)
    .values({
      username: `${name}-${randomUUID().slice(0, 8)}`,
      email: `${randomUUID()}@example.com`,
      passwordHash: 'x',
    })
    .returning({ id: users.id });
  if (!row) throw new Error('no user');
  return row.id;
}

describe('the job queue takes turns across people', () => {
  it('serves first the people with nothing running, then the one served least recently', async () => {
    const kind = `turns-${randomUUID()}`;
    const [big, small1, small2] = [await person('big'), await person('small1'), await person('small2')];
    const past = new Date(Date.now() - 60_000);
    // The big library's three jobs were queued first; the two small ones after.
    for (let index = 0; index < 3; index++)
      await enqueueJob(database.db, { kind, userId: big, payload: { index }, runAfter: past });
    await enqueueJob(database.db, { kind, userId: small1, payload: {} });
    await enqueueJob(database.db, { kind, userId: small2, payload: {} });

    const claim = async () => {
      const job = await claimNextJob(database.db, 'worker-a', [kind]);
      if (!job) throw new Error('nothing to claim');
      return job;
    };
    const first = await claim();
    expect(first.userId).toBe(big); // the oldest due job, nobody is running anything
    expect(first.startedAt).not.toBeNull();
    const second = await claim();
    const third = await claim();
    // big has a job running: both small people come before big's second job.
    expect([second.userId, third.userId].sort()).toEqual([small1, small2].sort());
    await finishJob(database.db, first.id, 'worker-a', { status: 'succeeded', result: null });
    await finishJob(database.db, second.id, 'worker-a', { status: 'succeeded', result: null });
    const fourth = await claim();
    expect(fourth.userId).toBe(big);
  });

  it('takes the person served least recently first when nobody has a job running', async () => {
    const kind = `turns-${randomUUID()}`;
    const [often, never] = [await person('often'), await person('never')];
    const earlier = new Date(Date.now() - 60_000);
    const served = await enqueueJob(database.db, { kind, userId: often, payload: {}, runAfter: earlier });
    const claimed = await claimNextJob(database.db, 'worker-b', [kind]);
    expect(claimed?.id).toBe(served.id);
    await finishJob(database.db, served.id, 'worker-b', { status: 'succeeded', result: null });
    // `often` queues again before `never` does; `never` was never served, so it goes first.
    await enqueueJob(database.db, { kind, userId: often, payload: {}, runAfter: earlier });
    await enqueueJob(database.db, { kind, userId: never, payload: {} });
    expect((await claimNextJob(database.db, 'worker-b', [kind]))?.userId).toBe(never);
    expect((await claimNextJob(database.db, 'worker-b', [kind]))?.userId).toBe(often);
  });
});
