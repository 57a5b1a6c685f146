import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob } from '../jobs/job-store';
import { startTestServer, type TestServer } from '../testing/test-server';

/** `GET /api/health` as a load balancer and an operator read it: the database and the job backlog. */
let server: TestServer;

beforeAll(async () => {
  // No job slots in this process (an API-only process), so queued jobs stay queued.
  server = await startTestServer({ env: { JOB_WORKERS: '0' } });
});
afterAll(async () => {
  await server.close();
});

describe('GET /api/health', () => {
  it('answers 200 with the job backlog while the database answers', async () => {
    const client = server.newClient();
    const empty = await client.get('/api/health');
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      ok: true,
      database: 'up',
      jobWorkers: 0,
      jobs: { queued: 0, running: 0, oldestQueuedSeconds: 0 },
    });

    await enqueueJob(server.deps.db, { kind: 'match', payload: {}, runAfter: new Date(Date.now() - 5_000) });
    await enqueueJob(server.deps.db, { kind: 'match', payload: {} });
    // Not due yet (a rate-limit wait): not part of the backlog.
    await enqueueJob(server.deps.db, { kind: 'match', payload: {}, runAfter: new Date(Date.now() + 60_000) });
    const backlog = (await client.get('/api/health')).body as { jobs: Record<string, number> };
    expect(backlog.jobs.queued).toBe(2);
    expect(backlog.jobs.running).toBe(0);
    expect(backlog.jobs.oldestQueuedSeconds).toBeGreaterThanOrEqual(5);
  });

  // Last in this file: it closes the server's database.
  it('answers 503 with a message when the database is not reachable', async () => {
    const client = server.newClient();
    expect((await client.get('/api/health')).status).toBe(200);
    await server.closeDatabase();
    const response = await client.get('/api/health');
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ ok: false, database: 'down', message: 'The database is not reachable.' });
  });
});
