import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../app-context';
import { jobBacklog } from '../jobs/job-store';

/**
 * `GET /api/health`: 200 with the job backlog while the database answers, 503 when it does not (so a
 * reverse proxy or orchestrator takes this process out of rotation). Public and cheap: one query.
 */
export function healthRoutes(deps: AppDeps) {
  return new Hono<AppEnv>().get('/', async (c) => {
    try {
      const jobs = await jobBacklog(deps.db);
      return c.json({
        ok: true,
        database: 'up',
        jobs,
        jobWorkers: deps.config.JOB_WORKERS,
      });
    } catch (error) {
      deps.logger.warn({ err: (error as Error).message }, 'health check: database unreachable');
      return c.json({ ok: false, database: 'down', message: 'The database is not reachable.' }, 503);
    }
  });
}
