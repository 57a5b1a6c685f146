import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client';
import type { CachedLookup } from '../matching/cache';
import { createTestDatabase } from '../testing/test-database';
import { DatabaseMatchCache } from './db-match-cache';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const answer = (id: string): CachedLookup => ({
  tracks: [{ id, uri: id, name: 'Song', artists: ['Artist'], album: 'Album', durationMs: 200_000 }],
  fetchedAt: new Date().toISOString(),
});

describe('DatabaseMatchCache', () => {
  it('shares answers between people (instances) once flushed, per service and region', async () => {
    const first = new DatabaseMatchCache(database.db, 'apple', 'us');
    await first.set('isrc:USAAA1200001', answer('111'));
    expect(await new DatabaseMatchCache(database.db, 'apple', 'us').get('isrc:USAAA1200001')).toBeUndefined();
    await first.flush();
    expect(
      (await new DatabaseMatchCache(database.db, 'apple', 'us').get('isrc:USAAA1200001'))?.tracks[0]?.id,
    ).toBe('111');
    expect(await new DatabaseMatchCache(database.db, 'apple', 'jp').get('isrc:USAAA1200001')).toBeUndefined();
    expect(
      await new DatabaseMatchCache(database.db, 'spotify', 'us').get('isrc:USAAA1200001'),
    ).toBeUndefined();
  });

  it('prefetches many keys in one go and remembers misses', async () => {
    const writer = new DatabaseMatchCache(database.db, 'spotify', 'us');
    for (let n = 0; n < 700; n++) await writer.set(`k${n}`, answer(`t${n}`));
    await writer.flush();
    const reader = new DatabaseMatchCache(database.db, 'spotify', 'us');
    await reader.prefetch([...Array.from({ length: 700 }, (_, n) => `k${n}`), 'absent']);
    expect((await reader.get('k699'))?.tracks[0]?.id).toBe('t699');
    expect(await reader.get('absent')).toBeUndefined();
  });

  it('asks again once an answer is two weeks old, and overwrites it', async () => {
    const cache = new DatabaseMatchCache(database.db, 'apple', 'gb');
    await cache.set('search:old', answer('old'));
    await cache.flush();
    await database.db.execute(
      sql`update match_cache set created_at = now() - interval '15 days' where lookup_key = 'search:old'`,
    );
    expect(await new DatabaseMatchCache(database.db, 'apple', 'gb').get('search:old')).toBeUndefined();
    const fresh = new DatabaseMatchCache(database.db, 'apple', 'gb');
    await fresh.set('search:old', answer('new'));
    await fresh.flush();
    expect((await new DatabaseMatchCache(database.db, 'apple', 'gb').get('search:old'))?.tracks[0]?.id).toBe(
      'new',
    );
  });
});
