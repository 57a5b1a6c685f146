import { describe, expect, it } from 'vitest';
import type { PlaylistEntry } from '../providers/types';
import { SourceFeed } from './source-feed';

const skipped = (position: number): PlaylistEntry => ({ position, kind: 'skipped', reason: 'unavailable' });
const entries = (from: number, count: number) => Array.from({ length: count }, (_, i) => skipped(from + i));

describe('a source feed', () => {
  it('lets matching begin with the first entries and ends with the whole source, each entry once', async () => {
    const feed = new SourceFeed();
    let waited = false;
    const first = feed.waitFor(3).then(() => {
      waited = true;
    });
    feed.push(entries(0, 2));
    await Promise.resolve();
    expect(waited).toBe(false);
    feed.push(entries(2, 2));
    await first;
    expect(feed.entries.map((entry) => entry.position)).toEqual([0, 1, 2, 3]);
    // The read's own result adds only what was not heard yet.
    feed.end(entries(0, 6));
    await feed.waitFor(100);
    expect((await feed.all()).map((entry) => entry.position)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(feed.total).toBe(6);
  });

  it('hands the read error to whoever waits for more', async () => {
    const feed = new SourceFeed();
    const waiting = feed.waitFor(10);
    feed.fail(new Error('Spotify did not answer'));
    await expect(waiting).rejects.toThrow('Spotify did not answer');
    await expect(feed.all()).rejects.toThrow('Spotify did not answer');
  });
});
