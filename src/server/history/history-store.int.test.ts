import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, DatabaseHandle } from '../db/client';
import { users } from '../db/schema';
import type { NormalizedTrack, PlaylistEntry } from '../providers/types';
import { createTestDatabase } from '../testing/test-database';
import { HISTORY_KEYFRAME_EVERY } from './history-codec';
import { findHistory, listVersions } from './history-store';
import { forgetCachedHistories, historyPage, readVersionTracks, recordObservation } from './playlist-history';

/**
 * The history store on the database (both engines): tracks that became unavailable (Spotify's
 * `is_playable: false`, an Apple song read back without its catalog id), and every version of a long
 * history read back exactly, across keyframes, with and without the in-memory track details.
 */
let database: DatabaseHandle;
let db: Database;
let userId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  const [user] = await db
    .insert(users)
    .values({ username: `store${Date.now()}`, email: `store${Date.now()}@example.com`, passwordHash: 'x' })
    .returning({ id: users.id });
  userId = user?.id ?? '';
});
afterAll(() => database.close());

const track = (n: number, playable = true): NormalizedTrack => ({
  id: `t${n}`,
  uri: `spotify:track:t${n}`,
  name: `Song ${n}`,
  artists: [`Artist ${n}`],
  album: 'Album',
  durationMs: 200_000,
  ...(playable ? {} : { availability: { playable: false } }),
});
const entries = (tracks: NormalizedTrack[]): PlaylistEntry[] =>
  tracks.map((item, position) => ({ position, kind: 'track', track: item }));

describe('history store', () => {
  it('records what became unavailable: is_playable false on Spotify, a catalog id gone on Apple', async () => {
    const key = { userId, service: 'spotify' as const, playlistId: 'unavailable-spotify', name: 'U' };
    await recordObservation(db, {
      ...key,
      entries: entries([track(1), track(2)]),
      mode: 'read',
      cause: 'sync',
    });
    await recordObservation(db, {
      ...key,
      entries: entries([track(1), track(2, false)]),
      mode: 'read',
      cause: 'sync',
    });
    const page = await historyPage(db, { ...key, plan: 'vault' }, { limit: 10 });
    expect(page.versions.map((version) => version.cause)).toEqual(['outside', 'sync']);
    expect(page.versions[0]?.becameUnavailable.map((item) => item.uri)).toEqual(['spotify:track:t2']);
    expect(page.versions[0]).toMatchObject({ added: [], removed: [], trackCount: 2 });

    const apple = { userId, service: 'apple' as const, playlistId: 'unavailable-apple', name: 'A' };
    const song = { ...track(3), id: '1003', uri: '1003' };
    await recordObservation(db, {
      ...apple,
      entries: entries([song, track(4)]),
      mode: 'read',
      cause: 'backup',
    });
    await recordObservation(db, {
      ...apple,
      entries: [
        { position: 0, kind: 'skipped', reason: 'unavailable', name: song.name, artists: song.artists },
        { position: 1, kind: 'track', track: track(4) },
      ],
      mode: 'read',
      cause: 'backup',
    });
    const applePage = await historyPage(db, { ...apple, plan: 'vault' }, { limit: 10 });
    expect(applePage.versions[0]?.becameUnavailable.map((item) => item.uri)).toEqual(['1003']);
    expect(applePage.versions[0]?.removed).toEqual([]);
  });

  it('reads back every version of a long history exactly, cold or warm', async () => {
    const key = { userId, service: 'spotify' as const, playlistId: 'long', name: 'Long' };
    let list = Array.from({ length: 50 }, (_, n) => track(n));
    const truth: string[][] = [];
    let next = 1000;
    const versions = HISTORY_KEYFRAME_EVERY + 25;
    for (let index = 0; index < versions; index++) {
      await recordObservation(db, { ...key, entries: entries(list), mode: 'write', cause: 'sync' });
      truth.push(list.map((item) => item.uri));
      list = [...list.slice(1, 20), track(next++), ...list.slice(20), list[0] ?? track(next++)];
    }
    const history = await findHistory(db, key);
    if (!history) throw new Error('no history');
    const rows = await listVersions(db, history.id, { limit: versions + 1 });
    expect(rows).toHaveLength(versions);
    for (const row of rows) {
      if (row.seq % 7 === 0) forgetCachedHistories();
      const read = await readVersionTracks(db, row);
      expect(read.tracks.map((item) => item.uri)).toEqual(truth[row.seq - 1]);
    }
  }, 120_000);
});
