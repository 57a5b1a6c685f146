import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchPlaylistTracksResponse, PlaylistSummary } from '../../shared/api/playlists';
import { capturedLog } from '../testing/captured-log';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';

/**
 * Decision 0032: step 2's list of a person's playlists is kept per person for PLAYLISTS_CACHE_SECONDS
 * (long here, so what is served from memory is certain); a reload (`Cache-Control: no-cache`) and
 * Crossfade's own writes read it again, and on a refresh Apple's playlists whose `lastModifiedDate` did
 * not move are not counted again.
 */
const { logger, lines } = capturedLog();
let server: TestServer;
let owner: { client: TestClient; id: string };
let other: { client: TestClient; id: string };

async function person(name: string, scenario: string) {
  const client = server.newClient();
  const registered = await client.post('/api/auth/register', {
    username: name,
    email: `${name}@example.com`,
    password: 'secret-words',
  });
  expect(registered.status).toBe(201);
  for (const service of ['spotify', 'apple'] as const)
    await connectService(client, service, { account: 'own', scenario });
  return { client, id: (registered.body as { user: { id: string } }).user.id };
}

async function list(client: TestClient, service: 'spotify' | 'apple', reload = false) {
  const answer = await client.send('GET', `/api/playlists/${service}`, undefined, {
    headers: reload ? { 'cache-control': 'no-cache' } : {},
  });
  expect(answer.status).toBe(200);
  return answer.body as PlaylistSummary[];
}

const ownPlaylist = (playlists: PlaylistSummary[]) =>
  playlists.find((p) => p.kind === 'playlist' && p.isOwned !== false && p.trackCount > 1) as PlaylistSummary;

/** The paths the app asked of the emulators since `from` (the request log of the one process). */
const emulatorPaths = (from: number, prefix: string) =>
  lines
    .slice(from)
    .map((line) => JSON.parse(line) as { msg?: string; path?: string })
    .filter((entry) => entry.msg === 'request' && entry.path?.startsWith(prefix))
    .map((entry) => entry.path as string);

async function aTrackUri(client: TestClient, playlistId: string) {
  const read = await client.post('/api/fetch-playlist-tracks', {
    playlistUrl: `https://open.spotify.com/playlist/${playlistId}`,
  });
  return (read.body as FetchPlaylistTracksResponse).tracks[0]?.uri as string;
}

beforeAll(async () => {
  server = await startTestServer({ logger, env: { PLAYLISTS_CACHE_SECONDS: '600' } });
  owner = await person('list-owner', 'playlist-cache-owner');
  other = await person('list-other', 'playlist-cache-other');
}, 120_000);
afterAll(() => server?.close());

describe("step 2's playlist list cache", () => {
  it('serves the kept list until a reload, which shows a change made on Spotify (a new snapshot)', async () => {
    const before = await list(owner.client, 'spotify');
    const target = ownPlaylist(before);
    const connection = await server.deps.providers.connections.get(owner.id, 'spotify');
    if (connection?.tokens.kind !== 'spotify') throw new Error('no Spotify connection');
    // A change made in Spotify's own app: straight to the emulator, not through Crossfade.
    const added = await fetch(`${server.url}/sandbox/spotify/api/v1/playlists/${target.id}/items`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${connection.tokens.accessToken}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ uris: [await aTrackUri(owner.client, target.id)] }),
    });
    expect(added.status).toBe(201);
    const kept = await list(owner.client, 'spotify');
    expect(kept.find((p) => p.id === target.id)?.trackCount).toBe(target.trackCount);
    const reloaded = await list(owner.client, 'spotify', true);
    expect(reloaded.find((p) => p.id === target.id)?.trackCount).toBe(target.trackCount + 1);
    // The reload is kept in turn.
    expect((await list(owner.client, 'spotify')).find((p) => p.id === target.id)?.trackCount).toBe(
      target.trackCount + 1,
    );
  });

  it("shows Crossfade's own writes at once", async () => {
    const before = await list(owner.client, 'spotify');
    const target = ownPlaylist(before);
    const spotify = await server.deps.providers.forUser(owner.id, 'spotify');
    await spotify.addTracks(target.id, [await aTrackUri(owner.client, target.id)]);
    const after = await list(owner.client, 'spotify');
    expect(after.find((p) => p.id === target.id)?.trackCount).toBe(target.trackCount + 1);
  });

  it('counts again only the Apple playlists whose lastModifiedDate moved', async () => {
    const before = await list(owner.client, 'apple', true);
    const playlists = before.filter((p) => p.kind === 'playlist');
    expect(playlists.length).toBeGreaterThan(1);
    const target = ownPlaylist(before);
    // Nothing changed: a reload lists the playlists but counts none of them again.
    const quiet = lines.length;
    expect(await list(owner.client, 'apple', true)).toEqual(before);
    const counted = (from: number) =>
      emulatorPaths(from, '/sandbox/apple/v1/me/library/playlists/').filter((path) =>
        /\/me\/library\/playlists\/[^/?]+\/tracks/.test(path),
      );
    expect(emulatorPaths(quiet, '/sandbox/apple/v1/me/library/playlists').length).toBeGreaterThan(0);
    expect(counted(quiet)).toEqual([]);
    // One playlist changes (through Crossfade, which also drops the kept list): only it is counted again.
    const apple = await server.deps.providers.forUser(owner.id, 'apple');
    const song = (await apple.getPlaylist(target.id)).entries.find((entry) => entry.kind === 'track');
    if (song?.kind !== 'track') throw new Error('no song to add');
    const changed = lines.length;
    await apple.addTracks(target.id, [song.track.uri]);
    const after = await waitUntil(
      () => list(owner.client, 'apple', true),
      (answer) => answer.find((p) => p.id === target.id)?.trackCount === target.trackCount + 1,
      30_000,
    );
    expect(after.filter((p) => p.id !== target.id)).toEqual(before.filter((p) => p.id !== target.id));
    const recounted = new Set(
      counted(changed).map((path) => decodeURIComponent(/playlists\/([^/?]+)\/tracks/.exec(path)?.[1] ?? '')),
    );
    expect([...recounted]).toEqual([target.id]);
  });

  it("never answers one person's list to another", async () => {
    const mine = await list(owner.client, 'spotify');
    const theirs = await list(other.client, 'spotify');
    const direct = await (await server.deps.providers.forUser(other.id, 'spotify')).listPlaylists();
    expect(theirs.filter((p) => p.kind === 'playlist').map((p) => p.id)).toEqual(direct.map((p) => p.id));
    const myIds = new Set(mine.filter((p) => p.kind === 'playlist').map((p) => p.id));
    expect(theirs.some((p) => myIds.has(p.id))).toBe(false);
  });
});
