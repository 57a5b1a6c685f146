import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TasteGraph, TasteTimeline } from '../../shared/api/visualizations';
import { users } from '../db/schema';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';

let server: TestServer;
let owner: TestClient;
let ownerId: string;

async function signUp(name: string) {
  const client = server.newClient();
  const res = await client.post('/api/auth/register', {
    username: name,
    email: `${name}@example.com`,
    password: 'secret-password',
  });
  expect(res.status).toBe(201);
  return client;
}

function expectConsistentGraph(graph: TasteGraph) {
  const ids = new Set(graph.nodes.map((node) => node.id));
  expect(ids.size).toBe(graph.nodes.length);
  expect(graph.nodes.length).toBeGreaterThan(0);
  expect(graph.nodes.length).toBeLessThanOrEqual(40);
  for (const edge of graph.edges) {
    expect(ids.has(edge.from), `edge from ${edge.from}`).toBe(true);
    expect(ids.has(edge.to), `edge to ${edge.to}`).toBe(true);
    expect(edge.value).toBeGreaterThan(0);
  }
}

function expectYearsSumTo100(timeline: TasteTimeline) {
  for (const series of [timeline.genres, timeline.moods]) {
    timeline.years.forEach((year, index) => {
      const total = Object.values(series).reduce((sum, values) => sum + (values[index] ?? 0), 0);
      expect(total, `year ${year}`).toBe(100);
    });
    for (const values of Object.values(series)) expect(values).toHaveLength(timeline.years.length);
  }
}

beforeAll(async () => {
  server = await startTestServer();
  owner = await signUp('taste_owner');
  await connectService(owner, 'spotify');
  const [row] = await server.deps.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.username, 'taste_owner'));
  ownerId = row?.id ?? '';
});

afterAll(async () => {
  await server.close();
});

describe('GET /api/taste-graph', () => {
  it('shows a connected person their own genres, with Spotify tracks classified through the Apple catalog', async () => {
    const res = await owner.get('/api/taste-graph?type=genres');
    expect(res.status).toBe(200);
    const graph = res.body as TasteGraph;
    expect(graph.sample).toBe(false);
    expect(graph.source.services).toEqual(['spotify']);
    expect(graph.source.trackCount).toBeGreaterThan(100);
    expect(graph.source.tracksWithoutGenres).toBeLessThan(graph.source.trackCount / 2);
    expect(graph.nodes.every((node) => node.group === 'genre')).toBe(true);
    expect(graph.edges.length).toBeGreaterThan(0);
    expectConsistentGraph(graph);
    const values = graph.nodes.map((node) => node.value);
    expect(values).toEqual([...values].sort((a, b) => b - a));
  });

  it('builds the artists network and the key influences from the same library', async () => {
    const artists = (await owner.get('/api/taste-graph?type=artists')).body as TasteGraph;
    expect(artists.nodes.every((node) => node.group === 'artist')).toBe(true);
    expectConsistentGraph(artists);
    const influences = (await owner.get('/api/taste-graph?type=connections')).body as TasteGraph;
    expectConsistentGraph(influences);
    expect(new Set(influences.nodes.map((node) => node.group))).toEqual(
      new Set(['genre', 'artist', 'track']),
    );
  });

  it('refuses an unknown type with a message', async () => {
    const res = await owner.get('/api/taste-graph?type=planets');
    expect(res.status).toBe(400);
    expect((res.body as { message: string }).message).toMatch(/genres.*artists.*connections/);
  });

  it('shows the sample, flagged, to someone signed out or without a connected service', async () => {
    const anonymous = (await server.newClient().get('/api/taste-graph?type=genres')).body as TasteGraph;
    expect(anonymous.sample).toBe(true);
    expect(anonymous.source).toMatchObject({ playlistCount: 3, trackCount: 45 });
    expectConsistentGraph(anonymous);
    const unconnected = await signUp('taste_unconnected');
    const answer = (await unconnected.get('/api/taste-graph?type=artists')).body as TasteGraph;
    expect(answer.sample).toBe(true);
  });

  it("shows another person's graph only when their profile is public", async () => {
    const visitor = await signUp('taste_visitor');
    const refused = await visitor.get(`/api/taste-graph/${ownerId}?type=genres`);
    expect(refused.status).toBe(403);
    expect((refused.body as { message: string }).message).toMatch(/private/);
    expect((await visitor.get(`/api/taste-timeline/${ownerId}?timeRange=all`)).status).toBe(403);

    await server.deps.db.update(users).set({ publicProfile: true }).where(eq(users.id, ownerId));
    const allowed = await visitor.get(`/api/taste-graph/${ownerId}?type=genres`);
    expect(allowed.status).toBe(200);
    const graph = allowed.body as TasteGraph;
    expect(graph.sample).toBe(false);
    expect(graph.nodes).toEqual(((await owner.get('/api/taste-graph?type=genres')).body as TasteGraph).nodes);
    await server.deps.db.update(users).set({ publicProfile: false }).where(eq(users.id, ownerId));

    const missing = await visitor.get('/api/taste-graph/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
  });
});

describe('GET /api/taste-timeline', () => {
  it('gives whole percentages that add up to 100 in every year, for each range', async () => {
    const currentYear = new Date().getUTCFullYear();
    const limits = { '5years': 5, decade: 10 } as const;
    for (const range of ['5years', 'decade', 'all'] as const) {
      const res = await owner.get(`/api/taste-timeline?timeRange=${range}`);
      expect(res.status).toBe(200);
      const timeline = res.body as TasteTimeline;
      expect(timeline.sample).toBe(false);
      expect(timeline.basis).toBe('release-year');
      expect(timeline.years.length).toBeGreaterThan(0);
      const years = timeline.years.map(Number);
      expect(years).toEqual([...years].sort((a, b) => a - b));
      if (range !== 'all') expect(years[0]).toBeGreaterThan(currentYear - limits[range]);
      expect(Object.keys(timeline.genres).length).toBeGreaterThan(1);
      expect(Object.keys(timeline.moods).length).toBeGreaterThan(1);
      expectYearsSumTo100(timeline);
    }
  });

  it('refuses an unknown range and gives the sample when signed out', async () => {
    const bad = await owner.get('/api/taste-timeline?timeRange=century');
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toMatch(/5years/);
    const sample = (await server.newClient().get('/api/taste-timeline?timeRange=all')).body as TasteTimeline;
    expect(sample.sample).toBe(true);
    expectYearsSumTo100(sample);
    expect(sample.years[0]).toBe('2010');
  });
});
