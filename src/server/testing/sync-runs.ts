import type { Sync, SyncRun, SyncRunList } from '../../shared/api/syncs';
import type { TestClient } from './test-server';
import { waitUntil } from './wait-until';

/** One of the person's syncs as `GET /api/syncs` shows it. */
export async function findSync(client: TestClient, id: string): Promise<Sync> {
  const list = (await client.get('/api/syncs')).body as { syncs: Sync[] };
  const sync = list.syncs.find((item) => item.id === id);
  if (!sync) throw new Error(`no sync ${id}`);
  return sync;
}

/** A sync's run, once it has stopped (finished, failed or waiting for the person). */
export function settledRun(client: TestClient, syncId: string, runId: string): Promise<SyncRun> {
  return waitUntil(
    async () => {
      const runs = ((await client.get(`/api/syncs/${syncId}/runs`)).body as SyncRunList).runs;
      const run = runs.find((item) => item.id === runId);
      if (!run) throw new Error(`no run ${runId}`);
      return run;
    },
    (run) => !['queued', 'running'].includes(run.status),
    90_000,
    50,
  );
}
