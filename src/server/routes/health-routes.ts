import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../app-context';
import type { Database } from '../db/client';

/** Jobs waiting for a worker (queued and due) and jobs a worker holds: what a load balancer or operator watches. */
export interface JobBacklog {
  queued: number;
  running: number;
  /** Seconds the oldest due job has waited; 0 when none waits. With no worker running this only grows. */
  oldestQueuedSeconds: number;
}

async function jobBacklog(db: Database): Promise<JobBacklog> {
  const result = await db.execute(sql`
    select
      count(*) filter (where status = 'queued' and run_after <= now()) as queued,
      count(*) filter (where status = 'running') as running,
      coalesce(extract(epoch from now() - min(run_after) filter (where status = 'queued' and run_after <= now())), 0)
        as oldest
    from jobs
    where status in ('queued', 'running')`);
  const row = (result as unknown as { rows: { queued: unknown; running: unknown; oldest: unknown }[] })
    .rows[0];
  return {
    queued: Number(row?.queued ?? 0),
    running: Number(row?.running ?? 0),
    oldestQueuedSeconds: Math.round(Number(row?.oldest ?? 0)),
  };
}

/**
 * `GET /api/health`: 200 with the job backlog while the database answers, 503 when it does not (so a
 * reverse proxy or orchestrator takes this process out of rotation). Public and cheap: one query.
 */
export function healthRoutes(deps: AppDeps) {
  return new Hono<AppEnv>().get('/', async (c) => {
    try {
      const jobs = await jobBacklog(deps.db);
      return c.json({ ok: true, database: 'up', jobs, jobWorkers: deps.config.JOB_WORKERS });
    } catch (error) {
      deps.logger.warn({ err: (error as Error).message }, 'health check: database unreachable');
      return c.json({ ok: false, database: 'down', message: 'The database is not reachable.' }, 503);
    }
  });
}
