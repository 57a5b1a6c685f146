import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  FRIEND_NAME,
  fillerAppleId,
  fillerIsrc,
  ROAD_TRIP_ENTRIES,
} from '../../../sandbox/apple/test-catalog';
import { streamable } from '../../../sandbox/apple/wire';
import { type AppleSandboxHarness, startAppleSandbox } from '../../testing/apple-sandbox';
import { ProviderError } from '../http';
import type { PlaylistEntry } from '../types';
import { APPLE_PLAYLISTS_APPEND_ONLY } from './client';
import { createDeveloperTokenSigner, generateSandboxAppleKeys } from './developer-token';

let sandbox: AppleSandboxHarness;
const HEAVEN_SINGLE = '1500000001';

beforeAll(async () => {
  sandbox = await startAppleSandbox();
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(() => {
  sandbox.requests.length = 0;
  sandbox.faults.length = 0;
});

async function playlistId(name: string): Promise<string> {
  const playlists = await sandbox.provider().listPlaylists();
  const found = playlists.find((playlist) => playlist.name === name);
  if (!found) throw new Error(`no playlist ${name}`);
  return found.id;
}

async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ProviderError)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error;
}

const trackIds = (entries: PlaylistEntry[]) =>
  entries.flatMap((entry) => (entry.kind === 'track' ? [entry.track.id] : []));

describe('AppleMusicProvider against the sandbox over HTTP', () => {
  it('says plainly that Apple playlists are append-only', () => {
    const provider = sandbox.provider();
    expect(APPLE_PLAYLISTS_APPEND_ONLY).toBe(true);
    expect(provider.appendOnly).toBe(true);
    expect(provider.addBatchSize).toBe(100);
    expect(provider.isrcBatchSize).toBe(25);
  });

  it('reads the person’s storefront as their region', async () => {
    expect(await sandbox.provider().getCurrentUser()).toEqual({ id: 'me', region: 'us' });
  });

  it('calls a playlist’s length unknown when Apple leaves meta.total out and it is long, never a wrong number', async () => {
    const headers = {
      authorization: `Bearer ${await sandbox.developerToken()}`,
      'music-user-token': sandbox.musicUserToken,
    };
    const base = `${sandbox.apiBaseUrl}/me/library/playlists`;
    const list = await (await fetch(`${base}?limit=100`, { headers })).text();
    const bigMix = await playlistId('Big Mix');
    const firstPage = (await (await fetch(`${base}/${bigMix}/tracks?limit=1`, { headers })).json()) as {
      data: unknown[];
    };
    // Every count call answers without meta.total; the rest of the pages are Big Mix's own (250 songs).
    const withoutTotal = JSON.stringify({
      data: firstPage.data,
      next: `/v1/me/library/playlists/${bigMix}/tracks?offset=1`,
    });
    sandbox.faults.push({ status: 200, body: list });
    for (let index = 0; index < 4; index++) sandbox.faults.push({ status: 200, body: withoutTotal });
    const playlists = await sandbox.provider().listPlaylists();
    for (const playlist of playlists) {
      // One song, then two pages of 100 counted; more remain, so the length is a lower bound.
      expect(playlist).toMatchObject({ trackCount: 201, trackCountUnknown: true });
    }
  });

  it('lists library playlists with their track counts', async () => {
    const playlists = await sandbox.provider().listPlaylists();
    expect(playlists.map((playlist) => [playlist.name, playlist.trackCount])).toEqual([
      ['Big Mix', 250],
      ['Road Trip', ROAD_TRIP_ENTRIES],
      ['Nothing Yet', 0],
      // Counted page by page: the emulator, as Apple may, sends no meta.total for a followed playlist.
      ['Friend Picks', 2],
    ]);
    expect(playlists.find((playlist) => playlist.name === 'Friend Picks')?.isOwned).toBe(false);
    expect(playlists[0]).toMatchObject({
      id: expect.stringMatching(/^p\./),
      description: 'Two hundred and fifty songs',
      isOwned: true,
      url: expect.stringMatching(/^https:\/\/music\.apple\.com\/library\/playlist\/p\./),
    });
    expect(sandbox.requests.filter((request) => request.startsWith('GET /v1/me/library/playlists?'))).toEqual(
      ['GET /v1/me/library/playlists?limit=100'],
    );
  });

  it('reads a 250-song playlist in three pages by following root-relative next links', async () => {
    const id = await playlistId('Big Mix');
    sandbox.requests.length = 0;
    const heard: PlaylistEntry[][] = [];
    const contents = await sandbox.provider().getPlaylist(id, { onEntries: (fresh) => heard.push(fresh) });
    expect(contents.playlist).toMatchObject({ id, name: 'Big Mix', trackCount: 250 });
    expect(contents.entries).toHaveLength(250);
    // Heard page by page, in order, each entry once (the pages after the first are read a few at a time).
    expect(heard.map((fresh) => fresh.length)).toEqual([100, 100, 50]);
    expect(heard.flat()).toEqual(contents.entries);
    expect(contents.entries.map((entry) => entry.position)).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(trackIds(contents.entries)).toEqual(Array.from({ length: 250 }, (_, i) => fillerAppleId(i)));
    const last = contents.entries[249];
    expect(last?.kind === 'track' && last.track).toMatchObject({
      isrc: fillerIsrc(249),
      uri: fillerAppleId(249),
    });
    const pages = sandbox.requests.filter((request) => request.includes('/tracks'));
    expect(pages).toEqual([
      `GET /v1/me/library/playlists/${id}/tracks?limit=100&include=catalog`,
      `GET /v1/me/library/playlists/${id}/tracks?offset=100&limit=100&include=catalog`,
      `GET /v1/me/library/playlists/${id}/tracks?offset=200&limit=100&include=catalog`,
    ]);
  });

  it('maps library songs to catalog tracks and reports songs without a catalog counterpart', async () => {
    const contents = await sandbox.provider().getPlaylist(await playlistId('Road Trip'));
    const [heaven, nightDrive, unavailable, upload, gone, trio, acoustic] = contents.entries;
    expect(heaven).toMatchObject({
      position: 0,
      kind: 'track',
      track: {
        id: HEAVEN_SINGLE,
        uri: HEAVEN_SINGLE,
        name: 'Heaven',
        artists: ['Maya Stone'],
        album: 'Heaven',
        albumType: 'single',
        isrc: 'USAAA2400001',
        durationMs: 215_000,
        explicit: false,
        releaseDate: '2024-02-02',
        genres: ['Pop'],
        imageUrl: expect.stringMatching(/\/600x600bb\.jpg$/),
        url: expect.stringContaining(`?i=${HEAVEN_SINGLE}`),
      },
    });
    expect(nightDrive).toMatchObject({
      kind: 'track',
      track: { name: 'Night Drive', artists: ['Maya Stone', 'Leo Park', 'Ana Ruiz'], explicit: true },
    });
    expect(unavailable).toMatchObject({ position: 2, kind: 'skipped', reason: 'not_in_catalog' });
    expect(upload).toMatchObject({
      position: 3,
      kind: 'skipped',
      reason: 'not_in_catalog',
      name: 'Garage Demo',
      artists: ['My Band'],
      album: 'Tapes',
      durationMs: 123_000,
    });
    expect(gone).toMatchObject({
      kind: 'skipped',
      reason: 'not_in_catalog',
      name: 'Lost Tape',
      artists: ['Nobody Famous'],
    });
    expect(trio).toMatchObject({ kind: 'track', track: { artists: ['Ana Ruiz', 'Leo Park', 'Maya Stone'] } });
    expect(acoustic).toMatchObject({
      kind: 'track',
      track: { name: 'Heaven - Acoustic', album: 'Northern Lights' },
    });
    expect(contents.entries).toHaveLength(ROAD_TRIP_ENTRIES);
  });

  it('treats the 404 Apple gives for an empty playlist as an empty playlist', async () => {
    const contents = await sandbox.provider().getPlaylist(await playlistId('Nothing Yet'));
    expect(contents.entries).toEqual([]);
    expect(contents.playlist.trackCount).toBe(0);
  });

  it('fails with not_found for a playlist that does not exist', async () => {
    const error = await providerError(sandbox.provider().getPlaylist('p.DoesNotExist1'));
    expect(error.kind).toBe('not_found');
  });

  it('looks up ISRCs, keeping every song an ISRC maps to and the storefront’s availability', async () => {
    const provider = sandbox.provider();
    const found = await provider.lookupIsrcs(['USAAA2400001', 'USAAA2400004', 'ZZ0000000000']);
    expect(found.get('USAAA2400001')?.map((track) => track.id)).toEqual(['1500000001', '1500000002']);
    expect(found.get('USAAA2400004')?.map((track) => track.name)).toEqual(['Border Town']);
    expect(found.get('ZZ0000000000')).toEqual([]);
    const inJapan = await provider.lookupIsrcs(['USAAA2400001', 'USAAA2400004'], { region: 'JP' });
    expect(inJapan.get('USAAA2400001')?.map((track) => track.id)).toEqual(['1500000001']);
    expect(inJapan.get('USAAA2400004')).toEqual([]);
  });

  it('splits 60 ISRCs into three calls of at most 25', async () => {
    const isrcs = Array.from({ length: 60 }, (_, index) => fillerIsrc(index));
    const found = await sandbox.provider().lookupIsrcs(isrcs, { region: 'us' });
    expect([...found.values()].every((tracks) => tracks.length === 1)).toBe(true);
    const calls = sandbox.requests.filter((request) => request.startsWith('GET /v1/catalog/us/songs?'));
    expect(calls).toHaveLength(3);
    const sizes = calls.map(
      (call) => decodeURIComponent(call.split('filter%5Bisrc%5D=')[1] ?? '').split(',').length,
    );
    expect(sizes).toEqual([25, 25, 10]);
  });

  it('searches the catalog by title and artist in the person’s storefront', async () => {
    const provider = sandbox.provider();
    const results = await provider.searchTracks({ title: 'Heaven', artist: 'Maya Stone' }, { limit: 5 });
    expect(results[0]).toMatchObject({ name: 'Heaven', artists: ['Maya Stone'] });
    expect(results.map((track) => track.name)).toContain('Heaven - Acoustic');
    expect(await provider.searchTracks({ text: 'no such song anywhere' })).toEqual([]);
    const japan = await provider.searchTracks({ text: 'Border Town' }, { region: 'JP' });
    expect(japan).toEqual([]);
    expect(sandbox.requests.some((request) => request.includes('term=Heaven+Maya+Stone'))).toBe(true);
  });

  it('never offers a song the storefront lists but cannot stream (no playParams) in search results', async () => {
    // Outside the US the emulator, like Apple, lists a few songs without playParams.
    const index = Array.from({ length: 250 }, (_, i) => i).find((i) => !streamable(fillerAppleId(i), 'gb'));
    if (index === undefined) throw new Error('every filler streams in gb');
    const unplayable = fillerAppleId(index);
    const answer = (await (
      await fetch(
        `${sandbox.apiBaseUrl}/catalog/gb/search?types=songs&limit=25&term=${encodeURIComponent(`Filler Song ${index}`)}`,
        { headers: { authorization: `Bearer ${await sandbox.developerToken()}` } },
      )
    ).json()) as { results: { songs?: { data: { id: string; attributes: { playParams?: unknown } }[] } } };
    const listed = answer.results.songs?.data.find((song) => song.id === unplayable);
    expect(listed).toBeDefined();
    expect(listed?.attributes.playParams).toBeUndefined();

    const provider = sandbox.provider();
    const results = await provider.searchTracks({ text: `Filler Song ${index}` }, { region: 'gb' });
    expect(results.map((track) => track.id)).not.toContain(unplayable);
    expect(results.every((track) => track.availability?.playable !== false)).toBe(true);
    // A song that streams there is found the same way.
    const playable = Array.from({ length: 250 }, (_, i) => i).find((i) => streamable(fillerAppleId(i), 'gb'));
    const found = await provider.searchTracks({ text: `Filler Song ${playable}` }, { region: 'gb' });
    expect(found.map((track) => track.id)).toContain(fillerAppleId(playable ?? 0));
  });

  it('gets one track, or null where the storefront lacks it', async () => {
    const provider = sandbox.provider();
    expect(await provider.getTrack('1500000005')).toMatchObject({
      name: 'Border Town',
      isrc: 'USAAA2400004',
    });
    expect(await provider.getTrack('1500000005', { region: 'jp' })).toBeNull();
  });

  it('reports availability per region, an absent song being unavailable', async () => {
    const availability = await sandbox
      .provider()
      .getAvailability(['1500000005', '1500000001', '1999999999'], 'JP');
    expect(Object.fromEntries(availability)).toEqual({
      '1500000005': false,
      '1500000001': true,
      '1999999999': false,
    });
  });

  it('creates a playlist and appends 250 tracks in order in batches of 100, checkpointing after each', async () => {
    const provider = sandbox.provider();
    const created = await provider.createPlaylist('Moved from Spotify', 'Made by Crossfade');
    expect(created.id).toMatch(/^p\./);
    expect(created.url).toBe(`https://music.apple.com/library/playlist/${created.id}`);
    const uris = Array.from({ length: 250 }, (_, index) => fillerAppleId(249 - index));
    const progress: number[] = [];
    await provider.addTracks(created.id, uris, ({ added, total }) => {
      expect(total).toBe(250);
      progress.push(added);
    });
    expect(progress).toEqual([100, 200, 250]);
    const contents = await provider.getPlaylist(created.id);
    expect(trackIds(contents.entries)).toEqual(uris);
    expect(contents.playlist).toMatchObject({ name: 'Moved from Spotify', description: 'Made by Crossfade' });
    expect(sandbox.requests.filter((request) => request.startsWith('POST'))).toHaveLength(4);
  });

  it('never tries to edit, reorder or delete: every write is a POST to create or append', async () => {
    const provider = sandbox.provider();
    const created = await provider.createPlaylist('Append only');
    await provider.addTracks(created.id, ['1500000001']);
    await provider.addTracks(created.id, ['1500000003', '1500000001']);
    await provider.getPlaylist(created.id);
    const writes = sandbox.requests.filter((request) => !request.startsWith('GET'));
    expect(writes).toEqual([
      'POST /v1/me/library/playlists',
      `POST /v1/me/library/playlists/${created.id}/tracks`,
      `POST /v1/me/library/playlists/${created.id}/tracks`,
    ]);
    // The emulator, like Apple, refuses edits outright.
    const refused = await fetch(`${sandbox.apiBaseUrl}/me/library/playlists/${created.id}/tracks`, {
      method: 'DELETE',
      headers: {
        authorization: `Bearer ${await sandbox.developerToken()}`,
        'music-user-token': sandbox.musicUserToken,
      },
    });
    expect(refused.status).toBe(405);
  });

  it('reads a shared playlist by its pl.u- id in the link’s storefront', async () => {
    const raw = await fetch(`${sandbox.apiBaseUrl}/me/library/playlists`, {
      headers: {
        authorization: `Bearer ${await sandbox.developerToken()}`,
        'music-user-token': sandbox.musicUserToken,
      },
    });
    const body = (await raw.json()) as { data: { attributes: { playParams: { globalId?: string } } }[] };
    const globalIds = body.data.flatMap((playlist) => playlist.attributes.playParams.globalId ?? []);
    expect(globalIds).toHaveLength(2);
    const globalId = globalIds[0] ?? '';
    sandbox.requests.length = 0;
    const shared = await sandbox.provider({ musicUserToken: undefined }).readSharedPlaylist({
      service: 'apple',
      id: globalId,
      storefront: 'gb',
    });
    expect(shared.playlist).toMatchObject({ id: globalId, name: 'Big Mix', trackCount: 250, isOwned: false });
    expect(shared.playlist.ownerName).toBeTruthy();
    expect(trackIds(shared.entries)).toEqual(Array.from({ length: 250 }, (_, i) => fillerAppleId(i)));
    expect(sandbox.requests[0]).toBe(`GET /v1/catalog/gb/playlists/${globalId}?include=tracks`);
    expect(sandbox.requests.slice(1)).toEqual([
      `GET /v1/catalog/gb/playlists/${globalId}/tracks?offset=100&limit=100`,
      `GET /v1/catalog/gb/playlists/${globalId}/tracks?offset=200&limit=100`,
    ]);
  });

  it('reads a followed friend’s playlist with its owner, leaving out songs the storefront lacks', async () => {
    const friendPlaylist = await fetch(`${sandbox.apiBaseUrl}/me/library/playlists?limit=100`, {
      headers: {
        authorization: `Bearer ${await sandbox.developerToken()}`,
        'music-user-token': sandbox.musicUserToken,
      },
    });
    const body = (await friendPlaylist.json()) as {
      data: { attributes: { name: string; playParams: { globalId?: string } } }[];
    };
    const globalId =
      body.data.find((playlist) => playlist.attributes.name === 'Friend Picks')?.attributes.playParams
        .globalId ?? '';
    const provider = sandbox.provider({ musicUserToken: undefined });
    const inUs = await provider.readSharedPlaylist({ service: 'apple', id: globalId, storefront: 'us' });
    expect(inUs.playlist.ownerName).toBe(FRIEND_NAME);
    expect(inUs.entries.map((entry) => entry.kind === 'track' && entry.track.name)).toEqual([
      'Night Drive',
      'Border Town',
    ]);
    const inJapan = await provider.readSharedPlaylist({ service: 'apple', id: globalId, storefront: 'jp' });
    expect(trackIds(inJapan.entries)).toEqual(['1500000003']);
  });

  it('cannot add to a playlist the person only follows', async () => {
    const error = await providerError(
      sandbox.provider().addTracks(await playlistId('Friend Picks'), ['1500000001']),
    );
    expect(error.kind).toBe('bad_request');
    expect(error.message).toMatch(/cannot be changed/);
  });

  it('refuses a private library link as forbidden', async () => {
    const error = await providerError(
      sandbox.provider().readSharedPlaylist({ service: 'apple', id: 'p.abcdefghijklmn', storefront: 'us' }),
    );
    expect(error.kind).toBe('forbidden');
  });
});

describe('AppleMusicProvider failures', () => {
  it('asks the person to reconnect when there is no Music User Token, without calling Apple', async () => {
    const error = await providerError(sandbox.provider({ musicUserToken: undefined }).listPlaylists());
    expect(error.kind).toBe('reconnect_required');
    expect(sandbox.requests).toEqual([]);
  });

  it('asks the person to reconnect when Apple answers 403 for the Music User Token', async () => {
    const error = await providerError(
      sandbox.provider({ musicUserToken: async () => 'expired-token' }).listPlaylists(),
    );
    expect(error.kind).toBe('reconnect_required');
    expect(error.status).toBe(403);
    expect(error.message).toBe('Apple Music sign-in has expired; connect Apple Music again.');
  });

  it('blames the developer token configuration on a 401', async () => {
    const stranger = await generateSandboxAppleKeys();
    const error = await providerError(
      sandbox
        .provider({ developerToken: createDeveloperTokenSigner(stranger) })
        .searchTracks({ text: 'heaven' }),
    );
    expect(error.kind).toBe('unauthorized');
    expect(error.message).toMatch(/developer token/);
  });

  it('retries 5xx answers and succeeds', async () => {
    sandbox.faults.push({ status: 503, body: '' }, { status: 500, body: '{"errors":[]}' });
    const user = await sandbox.provider().getCurrentUser();
    expect(user.region).toBe('us');
    expect(sandbox.requests).toHaveLength(3);
  });

  it('gives up with unavailable when 5xx answers go on', async () => {
    for (let index = 0; index < 10; index++) sandbox.faults.push({ status: 502, body: 'Bad Gateway' });
    const error = await providerError(sandbox.provider({ http: { maxRetries: 2 } }).getCurrentUser());
    expect(error.kind).toBe('unavailable');
    expect(sandbox.requests).toHaveLength(3);
  });

  it('fails with malformed on a body that is not JSON or not Apple’s shape', async () => {
    sandbox.faults.push({ status: 200, body: '<html>oops</html>', contentType: 'text/html' });
    expect((await providerError(sandbox.provider().getCurrentUser())).kind).toBe('malformed');
    sandbox.faults.push({ status: 200, body: '{"data":[{"id":"123","type":"songs"}]}' });
    expect((await providerError(sandbox.provider().getTrack('1500000001'))).kind).toBe('malformed');
  });
});

describe('AppleMusicProvider under Apple’s rate limit', () => {
  let limited: AppleSandboxHarness;
  // One clock for both sides: the client's backoff `sleep` moves it, so the emulator's rolling window
  // drains exactly as it would in real time, without the test waiting.
  let clock = Date.now();

  beforeAll(async () => {
    limited = await startAppleSandbox({ rateLimit: { budget: 3, windowMs: 1_000 }, now: () => clock });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('rides out a storm of 429s without Retry-After by backing off, and loses nothing', async () => {
    const waits: number[] = [];
    const provider = limited.provider({
      onRateLimit: ({ service, waitMs }) => {
        expect(service).toBe('apple');
        waits.push(waitMs);
      },
      http: {
        backoffBaseMs: 100,
        sleep: async (ms) => {
          clock += ms;
        },
      },
    });
    const ids = Array.from({ length: 250 }, (_, index) => fillerAppleId(index));
    const created = await provider.createPlaylist('Storm');
    await provider.addTracks(created.id, ids);
    const contents = await provider.getPlaylist(created.id);
    expect(trackIds(contents.entries)).toEqual(ids);
    expect(waits.length).toBeGreaterThan(0);
    expect(waits.every((wait) => wait > 0)).toBe(true);
    // 1 create + 3 appends + 1 playlist read + 3 track pages succeeded; every wait was one refused call.
    expect(limited.requests).toHaveLength(8 + waits.length);
  });
});
