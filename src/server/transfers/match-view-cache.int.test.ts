import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaylistSummary } from '../../shared/api/playlists';
import type { MatchRow, MatchSetView } from '../../shared/api/transfer';
import { matchRows, matchSets } from '../db/schema';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';
import { matchViewCache } from './match-view-cache';

/** Decision 0032: the cached match view is keyed by the set's version, so every change shows at once. */
let server: TestServer;
let owner: TestClient;
let other: TestClient;
let view: MatchSetView;

async function register(client: TestClient, name: string) {
  const registered = await client.post('/api/auth/register', {
    username: name,
    email: `${name}@example.com`,
    password: 'secret-words',
  });
  expect(registered.status).toBe(201);
}

async function read(client: TestClient = owner) {
  const answer = await client.get(`/api/match/${view.matchSetId}`);
  return { status: answer.status, view: answer.body as MatchSetView };
}

const version = async () =>
  (
    await server.deps.db
      .select({ version: matchSets.version })
      .from(matchSets)
      .where(eq(matchSets.id, view.matchSetId))
  )[0]?.version;

beforeAll(async () => {
  server = await startTestServer();
  owner = server.newClient();
  other = server.newClient();
  await register(owner, 'cache-owner');
  await register(other, 'cache-other');
  await connectService(owner, 'spotify');
  await connectService(owner, 'apple');
  const playlists = (await owner.get('/api/playlists/spotify')).body as PlaylistSummary[];
  const road = playlists.find((p) => p.name === 'Road Trip') as PlaylistSummary;
  const started = await owner.post('/api/match', {
    sourceService: 'spotify',
    destinationService: 'apple',
    playlistId: road.id,
  });
  view = await waitUntil(
    async () =>
      (await owner.get(`/api/match/${(started.body as MatchSetView).matchSetId}`)).body as MatchSetView,
    (current) => current.status !== 'matching',
    120_000,
  );
  expect(view.status).toBe('ready');
  expect(view.results.length).toBeGreaterThan(2);
}, 180_000);
afterAll(() => server.close());

describe('the cached match view', () => {
  it('answers the same view again from the cache while nothing changes', async () => {
    const before = await version();
    const first = await read();
    const second = await read();
    expect(second.view).toEqual(first.view);
    expect(await version()).toBe(before);
    expect(matchViewCache(server.deps.db).size).toBeGreaterThan(0);
  });

  it("shows the person's edit on the next read", async () => {
    await read();
    const before = await version();
    const skipped = await owner.send('PATCH', `/api/match/${view.matchSetId}/rows/0`, { action: 'skip' });
    expect(skipped.status).toBe(200);
    expect((skipped.body as MatchRow).status).toBe('skipped');
    expect(await version()).toBeGreaterThan(before as number);
    const after = await read();
    expect(after.view.results[0]?.status).toBe('skipped');
    await owner.send('PATCH', `/api/match/${view.matchSetId}/rows/0`, { action: 'reset' });
    expect((await read()).view.results[0]?.status).toBe(view.results[0]?.status);
  });

  it('shows a change another process made straight in the database (the triggers bump the version)', async () => {
    await read();
    await server.deps.db
      .update(matchRows)
      .set({ reasons: ['Changed elsewhere'] })
      .where(and(eq(matchRows.matchSetId, view.matchSetId), eq(matchRows.position, 1)));
    expect((await read()).view.results[1]?.reasons).toEqual(['Changed elsewhere']);
    await server.deps.db
      .update(matchSets)
      .set({ sourcePlaylistName: 'Renamed elsewhere' })
      .where(eq(matchSets.id, view.matchSetId));
    expect((await read()).view.playlistName).toBe('Renamed elsewhere');
    await server.deps.db
      .delete(matchRows)
      .where(and(eq(matchRows.matchSetId, view.matchSetId), eq(matchRows.position, 2)));
    const after = await read();
    expect(after.view.results.map((row) => row.position)).not.toContain(2);
    expect(after.view.results).toHaveLength(view.results.length - 1);
  });

  it("never answers another person's cached view", async () => {
    expect((await read()).status).toBe(200);
    const foreign = await read(other);
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.view)).not.toContain(view.matchSetId);
  });
});
