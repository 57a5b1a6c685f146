import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER } from '../../sandbox/spotify/state';
import type { PlaylistSummary } from '../../shared/api/playlists';
import type { MatchSetView, TransferResult } from '../../shared/api/transfer';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';

/**
 * Spec section 7, call by call, each with the spec's request body and nothing more: our own optional
 * fields (services, match set ids, the friend's service) are never needed. Reading an answer that is
 * still running (202) uses our polling routes, which the spec leaves open.
 */
let server: TestServer;
let client: TestClient;

beforeAll(async () => {
  server = await startTestServer();
  client = server.newClient();
}, 60_000);
afterAll(() => server.close());

const spotifyLink = (id: string) => `https://open.spotify.com/playlist/${id}`;

/** Follows a provider's consent page the way a browser would; answers the redirect back to us. */
async function consent(authUrl: string, form: Record<string, string>): Promise<URL> {
  const url = new URL(authUrl);
  const html = await (await fetch(url)).text();
  const body = new URLSearchParams();
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    body.set(match[1] ?? '', (match[2] ?? '').replace(/&amp;/g, '&'));
  }
  for (const [key, value] of Object.entries(form)) body.set(key, value);
  const answer = await fetch(url.origin + url.pathname, { method: 'POST', body, redirect: 'manual' });
  return new URL(answer.headers.get('location') ?? '', url);
}

describe('spec section 7, with the spec’s bodies', () => {
  let playlists: PlaylistSummary[];

  it('POST /api/auth/register {username, email, password} and POST /api/auth/login {username, password}', async () => {
    const registered = await client.post('/api/auth/register', {
      username: 'specuser',
      email: 'spec@example.com',
      password: 'secret-words',
    });
    expect(registered.status, registered.text).toBeLessThan(300);
    const other = server.newClient();
    const login = await other.post('/api/auth/login', { username: 'specuser', password: 'secret-words' });
    expect(login.status, login.text).toBeLessThan(300);
  });

  it('GET /api/auth/status', async () => {
    const status = await client.get('/api/auth/status');
    expect(status.body).toMatchObject({
      authenticated: true,
      spotifyConnected: false,
      appleConnected: false,
    });
  });

  it('GET /api/auth/spotify/connect answers authUrl', async () => {
    const connect = await client.get('/api/auth/spotify/connect');
    expect(connect.status).toBe(200);
    const { authUrl } = connect.body as { authUrl: string };
    const back = await consent(authUrl, { account: DEMO_USER.id, decision: 'agree' });
    await client.get(`${back.pathname}${back.search}`);
    expect((await client.get('/api/auth/status')).body).toMatchObject({ spotifyConnected: true });
  });

  it('GET /api/auth/apple/connect answers useRedirect, authUrl, token; POST /api/auth/apple/init {token}', async () => {
    const connect = await client.get('/api/auth/apple/connect');
    expect(connect.status).toBe(200);
    const answer = connect.body as { useRedirect: boolean; authUrl: string; token: string };
    expect(typeof answer.useRedirect).toBe('boolean');
    expect(typeof answer.token).toBe('string');
    const back = await consent(answer.authUrl, { decision: 'allow' });
    const token = back.searchParams.get('music_user_token') ?? '';
    expect(token).not.toBe('');
    const init = await client.post('/api/auth/apple/init', { token });
    expect(init.status, init.text).toBeLessThan(300);
    expect((await client.get('/api/auth/status')).body).toMatchObject({ appleConnected: true });
  });

  it('GET /api/playlists/{service}', async () => {
    const answer = await client.get('/api/playlists/spotify');
    expect(answer.status).toBe(200);
    playlists = answer.body as PlaylistSummary[];
    expect(playlists.length).toBeGreaterThan(0);
    expect((await client.get('/api/playlists/apple')).status).toBe(200);
  });

  it('POST /api/match, POST /api/transfer and GET /api/export/csv/{the result’s playlistId}', async () => {
    const road = playlists.find((p) => p.name === 'Road Trip') as PlaylistSummary;
    const request = { sourceService: 'spotify', destinationService: 'apple', playlistId: road.id };
    const started = await client.post('/api/match', request);
    expect([200, 202]).toContain(started.status);
    const matched = await waitUntil(
      async () =>
        (await client.get(`/api/match/${(started.body as MatchSetView).matchSetId}`)).body as MatchSetView,
      (view) => view.status !== 'matching',
      120_000,
    );
    expect(matched.results.length).toBe(road.trackCount);

    const transfer = await client.post('/api/transfer', { ...request, includeUnmatched: false });
    expect([200, 202], transfer.text).toContain(transfer.status);
    const result = await waitUntil(
      async () =>
        (await client.get(`/api/transfers/${(transfer.body as TransferResult).transferId}`))
          .body as TransferResult,
      (current) => current.status === 'succeeded' || current.status === 'failed',
      120_000,
    );
    expect(result.status, result.error ?? '').toBe('succeeded');
    expect(result.playlistId).not.toBe('');
    const csv = await client.get(`/api/export/csv/${encodeURIComponent(result.playlistId)}`);
    expect(csv.status, csv.text).toBe(200);
    expect(csv.headers.get('content-disposition')).toContain('playlist_transfer.csv');
  }, 240_000);

  it('POST /api/fetch-playlist-tracks {playlistUrl}', async () => {
    const answer = await client.post('/api/fetch-playlist-tracks', {
      playlistUrl: spotifyLink((playlists.find((p) => p.kind === 'playlist') as PlaylistSummary).id),
    });
    expect(answer.status, answer.text).toBe(200);
    expect((answer.body as { tracks: unknown[] }).tracks.length).toBeGreaterThan(0);
  });

  it('POST /api/claude/geo-locked-alternatives {tracks, sourceRegion, targetRegion} and POST /api/create-region-optimized-playlist {playlistUrl, targetRegion, replacements}', async () => {
    const around = playlists.find((p) => p.name === 'Around the World') as PlaylistSummary;
    const tracks = (
      (await client.post('/api/fetch-playlist-tracks', { playlistUrl: spotifyLink(around.id) })).body as {
        tracks: unknown[];
      }
    ).tracks;
    const analysis = await client.post('/api/claude/geo-locked-alternatives', {
      tracks,
      sourceRegion: 'US',
      targetRegion: 'JP',
    });
    expect(analysis.status, analysis.text).toBe(200);
    const alternatives = (
      analysis.body as { alternatives: { original: { id: string }; alternative: unknown }[] }
    ).alternatives.filter((a) => a.alternative !== null);
    const created = await client.post('/api/create-region-optimized-playlist', {
      playlistUrl: spotifyLink(around.id),
      targetRegion: 'JP',
      replacements: alternatives.slice(0, 1).map((a) => a.original.id),
    });
    expect(created.status, created.text).toBe(200);
  }, 60_000);

  it('GET /api/taste-graph?type= and GET /api/taste-timeline?timeRange=', async () => {
    for (const type of ['genres', 'artists', 'connections']) {
      const graph = await client.get(`/api/taste-graph?type=${type}`);
      expect(graph.status, graph.text).toBe(200);
      expect(graph.body).toMatchObject({ nodes: expect.any(Array), edges: expect.any(Array) });
    }
    for (const timeRange of ['5years', 'decade', 'all']) {
      const timeline = await client.get(`/api/taste-timeline?timeRange=${timeRange}`);
      expect(timeline.status, timeline.text).toBe(200);
      expect(timeline.body).toMatchObject({ years: expect.any(Array) });
    }
  });

  it('POST /api/fetch-friend-playlist {shareUrl}, POST /api/claude/merge-playlists and POST /api/save-playlist {playlistName, tracks}', async () => {
    const jazz = playlists.find((p) => p.name === 'Late Night Jazz') as PlaylistSummary;
    const road = playlists.find((p) => p.name === 'Road Trip') as PlaylistSummary;
    const friend = await client.post('/api/fetch-friend-playlist', { shareUrl: spotifyLink(jazz.id) });
    expect(friend.status, friend.text).toBe(200);
    const friendAnswer = friend.body as { id: string; name: string; owner: string; trackCount: number };
    expect(friendAnswer).toMatchObject({ name: 'Late Night Jazz', trackCount: expect.any(Number) });

    const merge = await client.post('/api/claude/merge-playlists', {
      userPlaylistId: road.id,
      friendPlaylistId: friendAnswer.id,
      mixRatio: [60, 40],
      includeBridgeTracks: true,
    });
    expect(merge.status, merge.text).toBe(200);
    const merged = merge.body as { playlistName: string; tracks: { id: string }[]; newPlaylistId: string };
    expect(merged.tracks.length).toBeGreaterThan(0);

    const saved = await client.post('/api/save-playlist', {
      playlistName: merged.playlistName,
      tracks: merged.tracks.map((t) => t.id),
    });
    expect(saved.status, saved.text).toBe(200);
  }, 60_000);

  it('POST /api/auth/spotify/disconnect and POST /api/auth/apple/disconnect, with empty bodies', async () => {
    expect((await client.post('/api/auth/spotify/disconnect')).status).toBeLessThan(300);
    expect((await client.post('/api/auth/apple/disconnect')).status).toBeLessThan(300);
    expect((await client.get('/api/auth/status')).body).toMatchObject({
      spotifyConnected: false,
      appleConnected: false,
    });
  });
});
