import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MergedPlaylist, MergePlaylistsResponse } from '../../shared/api/merge';
import type { PlaylistSummary } from '../../shared/api/playlists';
import { connectService } from '../testing/connect-service';
import { type FakeAnthropicApi, startFakeAnthropicApi } from '../testing/fake-anthropic-api';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';

// Issue 26: the page may say "AI Insight" only when a model wrote it, so the server says who did. Here the
// server runs the Anthropic engine against the local fake Anthropic API.
const KEY = 'sk-ant-merge-test';
const MODEL_INSIGHT = {
  insightSummary: 'Both lists lean on bright guitar pop and late-night synths, so the blend moves easily.',
  playlistName: 'Bright Night Blend',
};

let fake: FakeAnthropicApi;
let server: TestServer;
let sam: TestClient;
let playlists: PlaylistSummary[];

beforeAll(async () => {
  fake = await startFakeAnthropicApi({ apiKey: KEY });
  server = await startTestServer({ env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake.url } });
  sam = server.newClient();
  const registered = await sam.post('/api/auth/register', {
    username: 'sam',
    email: 'sam@example.com',
    password: 'secret123',
  });
  expect(registered.status).toBeLessThan(300);
  await connectService(sam, 'spotify');
  playlists = (await sam.get('/api/playlists/spotify')).body as PlaylistSummary[];
}, 60_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

async function merge(): Promise<MergePlaylistsResponse> {
  const id = (name: string) => {
    const found = playlists.find((playlist) => playlist.name === name);
    if (!found) throw new Error(`no demo playlist ${name}`);
    return `spotify:${found.id}`;
  };
  const answer = await sam.post('/api/claude/merge-playlists', {
    userPlaylistId: id('Road Trip'),
    friendPlaylistId: id('K-Pop Favourites'),
    mixRatio: [50, 50],
    includeBridgeTracks: false,
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as MergePlaylistsResponse;
}

const publicPage = async (id: string) =>
  (await server.newClient().get(`/api/merged-playlists/${id}`)).body as MergedPlaylist;

describe('who wrote a merge insight', () => {
  it('is the model when the Anthropic engine answered, on the merge and on the public page', async () => {
    fake.script.always({ kind: 'text', text: JSON.stringify(MODEL_INSIGHT) });
    const merged = await merge();
    expect(merged.insightSummary).toBe(MODEL_INSIGHT.insightSummary);
    expect(merged.insightWrittenBy).toBe('anthropic');
    const page = await publicPage(merged.newPlaylistId);
    expect(page.insightSummary).toBe(MODEL_INSIGHT.insightSummary);
    expect(page.insightWrittenBy).toBe('anthropic');
  });

  it('is the local rules when the model failed and the engine fell back', async () => {
    fake.script.always({ kind: 'error', status: 500, message: 'Scripted outage.' });
    const merged = await merge();
    expect(merged.insightSummary).not.toBe(MODEL_INSIGHT.insightSummary);
    expect(merged.insightWrittenBy).toBe('local');
    expect((await publicPage(merged.newPlaylistId)).insightWrittenBy).toBe('local');
  });
});
