import { describe, expect, it } from 'vitest';
import type { PlaylistSummary as PlaylistDto } from '../../shared/api/playlists';
import { PlaylistListCache } from './playlist-list-cache';

/** Decision 0032: the rules of step 2's list cache that the HTTP test cannot make certain. */
const key = { userId: 'u1', service: 'apple' as const, providerUserId: 'a1', authorizedAt: new Date(1_000) };
const entry = (id: string, trackCount: number): PlaylistDto => ({
  id,
  name: id,
  trackCount,
  kind: 'playlist',
});

describe('PlaylistListCache', () => {
  it('shares one read between concurrent readers and keeps it', async () => {
    const cache = new PlaylistListCache(60_000);
    let loads = 0;
    const load = async () => {
      loads++;
      return [entry('p.1', 3)];
    };
    const [first, second] = await Promise.all([cache.get(key, load), cache.get(key, load)]);
    expect(loads).toBe(1);
    expect(second).toBe(first);
    expect(new TextDecoder().decode(first.json)).toBe(JSON.stringify([entry('p.1', 3)]));
    expect(first.inner).toBe(JSON.stringify(entry('p.1', 3)));
    await cache.get(key, load);
    expect(loads).toBe(1);
    await cache.get(key, load, true);
    expect(loads).toBe(2);
  });

  it('keeps nothing read across a write, and nothing at all with a TTL of 0', async () => {
    const cache = new PlaylistListCache(60_000);
    let release: (entries: PlaylistDto[]) => void = () => undefined;
    const slow = cache.get(key, () => new Promise<PlaylistDto[]>((resolve) => (release = resolve)));
    cache.forget(key.userId);
    release([entry('p.1', 3)]);
    await slow;
    let loads = 0;
    await cache.get(key, async () => {
      loads++;
      return [entry('p.1', 4)];
    });
    expect(loads).toBe(1);

    const off = new PlaylistListCache(0);
    for (let i = 0; i < 2; i++) await off.get(key, async () => [entry('p.1', ++loads)]);
    expect(loads).toBe(3);
  });

  it('reuses a length only while its marker holds, and not when counted within 2 s of the marker', () => {
    const cache = new PlaylistListCache(60_000);
    const marker = '2026-11-27T10:00:00Z';
    const markerTime = Date.parse(marker);
    const summaries = [
      { id: 'p.old', name: 'old', trackCount: 7, changeMarker: marker },
      { id: 'p.new', name: 'new', trackCount: 2, changeMarker: '2026-11-27T10:00:09Z' },
      { id: 'p.none', name: 'none', trackCount: 1 },
    ];
    cache.rememberCounts(key, summaries, new Map(), markerTime + 10_000);
    const known = cache.knownCounts(key);
    expect(known.get('p.old')).toMatchObject({ changeMarker: marker, trackCount: 7 });
    expect(known.has('p.new')).toBe(false);
    expect(known.has('p.none')).toBe(false);
    // Another person (or account) has nothing of this one's.
    expect(cache.knownCounts({ ...key, userId: 'u2' }).size).toBe(0);
    expect(cache.knownCounts({ ...key, providerUserId: 'a2' }).size).toBe(0);
  });
});
