import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { type AppleSandboxHarness, startAppleSandbox } from '../../testing/apple-sandbox';
import {
  catalogPlaylistResponseSchema,
  catalogTracksPageSchema,
  errorResponseSchema,
  isrcSongsResponseSchema,
  libraryPlaylistResponseSchema,
  libraryPlaylistsPageSchema,
  libraryTracksPageSchema,
  searchResponseSchema,
  songsResponseSchema,
  storefrontsResponseSchema,
} from './schemas';

/**
 * Every answer the client reads, fetched raw from the emulator and checked against the schemas written from
 * the Apple Music API reference, plus the conventions the schemas cannot express (root-relative `next` without `limit`,
 * string status codes, id families).
 */

let sandbox: AppleSandboxHarness;
let headers: Record<string, string>;

beforeAll(async () => {
  sandbox = await startAppleSandbox();
  headers = {
    authorization: `Bearer ${await sandbox.developerToken()}`,
    'music-user-token': sandbox.musicUserToken,
  };
});
afterAll(async () => {
  await sandbox.close();
});

async function read<T>(schema: z.ZodType<T>, path: string, expectedStatus = 200): Promise<T> {
  const response = await fetch(`${sandbox.origin}/sandbox/apple${path}`, { headers });
  expect(response.status, path).toBe(expectedStatus);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const parsed = schema.safeParse(await response.json());
  if (!parsed.success) throw new Error(`${path}: ${parsed.error.message}`);
  return parsed.data;
}

function expectAppleNext(next: string | undefined, path: string) {
  expect(next, 'next').toBeDefined();
  expect(next?.startsWith(`${path}?`)).toBe(true);
  expect(next).toMatch(/[?&]offset=\d+/);
  expect(next).not.toMatch(/[?&]limit=/);
}

describe('Apple emulator answers match the documented shapes', () => {
  it('storefronts', async () => {
    const mine = await read(storefrontsResponseSchema, '/v1/me/storefront');
    expect(mine.data[0]?.id).toBe('us');
    await read(storefrontsResponseSchema, '/v1/storefronts/jp');
  });

  it('library playlists, one playlist and its track pages', async () => {
    const list = await read(libraryPlaylistsPageSchema, '/v1/me/library/playlists?limit=2');
    expectAppleNext(list.next, '/v1/me/library/playlists');
    expect(list.meta?.total).toBe(4);
    const [bigMix] = list.data;
    if (!bigMix) throw new Error('no playlist');
    const one = await read(libraryPlaylistResponseSchema, `/v1/me/library/playlists/${bigMix.id}`);
    expect(one.data[0]?.id).toBe(bigMix.id);
    const path = `/v1/me/library/playlists/${bigMix.id}/tracks`;
    const page = await read(libraryTracksPageSchema, `${path}?limit=100&include=catalog`);
    expectAppleNext(page.next, path);
    expect(page.data.every((song) => song.id.startsWith('i.'))).toBe(true);
    const last = await read(libraryTracksPageSchema, `${page.next ?? ''}&limit=100`);
    expect(last.data).toHaveLength(100);
  });

  it('catalog songs by ids, one song, ISRC filter and search', async () => {
    const byIds = await read(songsResponseSchema, '/v1/catalog/us/songs?ids=1500000001,1500000003');
    expect(byIds.data.map((song) => song.id)).toEqual(['1500000001', '1500000003']);
    await read(songsResponseSchema, '/v1/catalog/us/songs/1500000001');
    const byIsrc = await read(isrcSongsResponseSchema, '/v1/catalog/us/songs?filter[isrc]=USAAA2400001');
    expect(Object.keys(byIsrc.meta?.filters?.isrc ?? {})).toEqual(['USAAA2400001']);
    const search = await read(searchResponseSchema, '/v1/catalog/us/search?term=filler&types=songs&limit=25');
    expectAppleNext(search.results.songs?.next?.replace(/&term=.*$/, ''), '/v1/catalog/us/search');
    const nothing = await read(searchResponseSchema, '/v1/catalog/us/search?term=qqqqq&types=songs');
    expect(nothing.results).toEqual({});
  });

  it('a user-shared catalog playlist and its track pages', async () => {
    const list = await read(libraryPlaylistsPageSchema, '/v1/me/library/playlists');
    const globalId = list.data.flatMap((playlist) => playlist.attributes.playParams?.globalId ?? [])[0] ?? '';
    expect(globalId).toMatch(/^pl\.u-/);
    const playlist = await read(
      catalogPlaylistResponseSchema,
      `/v1/catalog/us/playlists/${globalId}?include=tracks`,
    );
    const tracks = playlist.data[0]?.relationships?.tracks;
    expect(tracks?.data).toHaveLength(100);
    const path = `/v1/catalog/us/playlists/${globalId}/tracks`;
    expectAppleNext(tracks?.next, path);
    const page = await read(catalogTracksPageSchema, `${tracks?.next ?? ''}&limit=100`);
    expect(page.data).toHaveLength(100);
  });

  it('errors: Apple’s envelope with string status and code', async () => {
    for (const [path, status] of [
      ['/v1/catalog/us/songs/42', 404],
      ['/v1/me/library/playlists?limit=500', 400],
      ['/v1/catalog/us/search?term=x', 400],
      ['/v1/me/library/playlists/p.nope/tracks', 404],
    ] as const) {
      const body = await read(errorResponseSchema, path, status);
      expect(body.errors[0]?.status).toBe(String(status));
    }
  });
});
