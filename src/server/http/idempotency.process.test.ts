import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaylistSummary } from '../../shared/api/playlists';
import { connectService } from '../testing/connect-service';
import { type ServerProcess, startSandboxProcess, startServerProcess } from '../testing/server-process';
import { createTestDatabase, usesRealPostgres } from '../testing/test-database';
import { TestClient } from '../testing/test-server';

/**
 * Issue 20 item 9 across processes: copies of one create with one `Idempotency-Key`, sent at once to two
 * API processes on one PostgreSQL, create one thing; every other copy is told the first is running (409)
 * or gets its answer. PGlite serves one process, so this runs only on PostgreSQL (`npm run test:pg`, CI).
 */
const processes: ServerProcess[] = [];
let dataDir = '';
let databaseUrl = '';
let closeDatabase: (() => Promise<void>) | undefined;

describe.skipIf(!usesRealPostgres())('Idempotency-Key over two API processes on one PostgreSQL', () => {
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'crossfade-once-'));
    const database = await createTestDatabase();
    databaseUrl = database.url ?? '';
    closeDatabase = () => database.close();
    // Both API processes stand behind one address (a proxy's), whose Spotify callback the sandbox registers.
    const publicUrl = 'http://127.0.0.1:1';
    const sandbox = await startSandboxProcess({
      DATA_DIR: dataDir,
      SANDBOX_RATE_LIMIT: '0',
      PUBLIC_URL: publicUrl,
    });
    processes.push(sandbox);
    const common = {
      DATA_DIR: dataDir,
      PUBLIC_URL: publicUrl,
      DATABASE_URL: databaseUrl,
      SANDBOX_URL: sandbox.url,
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
      JOB_WORKERS: '0',
    };
    processes.push(...(await Promise.all([0, 1].map(() => startServerProcess(common)))));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop()));
    await closeDatabase?.();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates one link for ten copies sent at once to both processes', async () => {
    const [, first, second] = processes as [ServerProcess, ServerProcess, ServerProcess];
    const person = new TestClient(first.url);
    const username = `once${Date.now().toString(36)}`;
    const signup = await person.post('/api/auth/register', {
      username,
      email: `${username}@example.com`,
      password: 'secret-words',
    });
    expect(signup.status).toBe(201);
    const userId = (signup.body as { user: { id: string } }).user.id;
    await connectService(person, 'spotify');
    const roadTrip = ((await person.get('/api/playlists/spotify')).body as PlaylistSummary[]).find(
      (playlist) => playlist.name === 'Road Trip',
    );
    // A link to a playlist: its target is read from the emulator, so each copy runs for a while.
    const body = { name: 'Our road trip', url: `https://open.spotify.com/playlist/${roadTrip?.id}` };
    const key = randomUUID();
    // The same browser (cookies) through both processes, as behind a load balancer.
    const through = (api: ServerProcess) => {
      const client = new TestClient(api.url);
      for (const [name, value] of person.cookies) client.cookies.set(name, value);
      return client;
    };
    const clients = [through(first), through(second)];
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        (clients[index % 2] as TestClient).post('/api/links', body, { headers: { 'idempotency-key': key } }),
      ),
    );

    const created = answers.filter((answer) => answer.status === 201);
    const running = answers.filter((answer) => answer.status === 409);
    expect(
      answers.map((answer) => answer.status).filter((status) => status !== 201 && status !== 409),
    ).toEqual([]);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((answer) => answer.text)).size).toBe(1);
    expect(running.every((answer) => answer.headers.get('retry-after') === '1')).toBe(true);

    const database = new pg.Client({ connectionString: databaseUrl });
    await database.connect();
    try {
      const { rows } = await database.query<{ n: number }>(
        'select count(*)::int as n from links where user_id = $1',
        [userId],
      );
      expect(rows[0]?.n).toBe(1);
    } finally {
      await database.end();
    }

    // Afterwards both processes answer the first answer; another body under the key is refused by both.
    for (const client of clients) {
      const again = await client.post('/api/links', body, { headers: { 'idempotency-key': key } });
      expect(again.status).toBe(201);
      expect(again.text).toBe(created[0]?.text);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      const other = await client.post(
        '/api/links',
        { name: 'Other' },
        { headers: { 'idempotency-key': key } },
      );
      expect(other.status).toBe(422);
    }
  }, 120_000);
});
