import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { generateCatalog } from '../src/sandbox/catalog/generator';
import { createApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/open';
import { recordObservation } from '../src/server/history/playlist-history';
import { createLogger } from '../src/server/logger';
import { setUserPlan } from '../src/server/plans/plan-store';
import { createRuntime } from '../src/server/runtime';
import { connectService } from '../src/server/testing/connect-service';
import { TestClient } from '../src/server/testing/test-server';
import { waitUntil } from '../src/server/testing/wait-until';
import type { HistoryPage, RestoreStarted, RestoreStatus } from '../src/shared/api/history';

const TRACKS = Number(process.env.BENCH_TRACKS ?? 10_000);

/**
 * The restore part of `npm run bench:history`: a TRACKS-track Spotify playlist in the emulator (no rate
 * limit), its first version recorded, ten changes made in Spotify, then the first version restored through
 * the API and the restore job (in place: cleared, added in order, read back). Answers the seconds from the
 * request to the verified result.
 */
export async function benchRestore(): Promise<number> {
  const catalog = generateCatalog({ trackCount: Math.round(TRACKS * 1.2) });
  const dataDir = mkdtempSync(join(tmpdir(), 'crossfade-bench-history-'));
  const database = await openDatabase({ memory: true });
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_URL: url,
    SANDBOX_RATE_LIMIT: '0',
  });
  const { deps, mounts, jobRunner } = await createRuntime(config, database.db, createLogger('silent'), {
    catalog,
    encryptionKey: Buffer.alloc(32, 1),
  });
  server.on('request', getRequestListener(createApp(deps, { mounts }).fetch));
  jobRunner?.start();
  try {
    const client = new TestClient(url);
    const registered = await client.post('/api/auth/register', {
      username: 'bench',
      email: 'bench@example.com',
      password: 'bench-password',
    });
    const userId = (registered.body as { user: { id: string } }).user.id;
    await setUserPlan(database.db, userId, 'vault');
    await connectService(client, 'spotify');
    const spotify = await deps.providers.forUser(userId, 'spotify');
    const uris = catalog.tracks.flatMap((track) =>
      track.spotify ? [`spotify:track:${track.spotify.id}`] : [],
    );
    const created = await spotify.createPlaylist('Bench restore');
    await spotify.addTracks(created.id, uris.slice(0, TRACKS));
    const key = { userId, service: 'spotify' as const, playlistId: created.id, name: 'Bench restore' };
    const first = await spotify.getPlaylist(created.id);
    await recordObservation(deps.db, { ...key, entries: first.entries, mode: 'read', cause: 'sync' });
    await spotify.removeTracks?.(created.id, uris.slice(100, 105));
    await spotify.addTracks(created.id, uris.slice(TRACKS, TRACKS + 5));
    const second = await spotify.getPlaylist(created.id);
    await recordObservation(deps.db, { ...key, entries: second.entries, mode: 'read', cause: 'sync' });
    const page = (await client.get(`/api/history/spotify/${created.id}`)).body as HistoryPage;
    const oldest = page.versions.at(-1);

    const began = performance.now();
    const started = (
      await client.post(`/api/history/spotify/${created.id}/restore`, { versionId: oldest?.id })
    ).body as RestoreStarted;
    const status = await waitUntil(
      async () => (await client.get(`/api/history/restores/${started.jobId}`)).body as RestoreStatus,
      (current) => ['succeeded', 'failed'].includes(current.job.status),
      30 * 60_000,
      200,
      500,
    );
    const seconds = (performance.now() - began) / 1000;
    if (status.job.status !== 'succeeded' || status.result?.verified !== TRACKS)
      throw new Error(`the restore did not verify: ${JSON.stringify(status)}`);
    console.log(
      `restore: verified ${status.result.verified} of ${status.result.total} in ${seconds.toFixed(2)} s`,
    );
    return seconds;
  } finally {
    await jobRunner?.stop();
    server.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
