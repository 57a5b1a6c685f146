import { describe, expect, it } from 'vitest';
import { SourceFeed } from './source-feed';

describe('a source feed', () => {
  it('lets matching begin with the first entries kept and ends with the whole source', async () => {
    const feed = new SourceFeed();
    let waited = false;
    const first = feed.waitFor(3).then(() => {
      waited = true;
    });
    feed.advance(2);
    await Promise.resolve();
    expect(waited).toBe(false);
    feed.advance(4);
    await first;
    expect(feed.kept).toBe(4);
    expect(feed.reading).toBe(true);
    feed.advance(6);
    feed.end();
    await feed.waitFor(100);
    expect(feed.total).toBe(6);
    expect(feed.reading).toBe(false);
  });

  it('hands the read error to whoever waits for more', async () => {
    const feed = new SourceFeed();
    const waiting = feed.waitFor(10);
    feed.fail(new Error('Spotify did not answer'));
    await expect(waiting).rejects.toThrow('Spotify did not answer');
    await expect(feed.waitFor(1)).rejects.toThrow('Spotify did not answer');
  });
});

describe('a source feed that holds its read back', () => {
  it('lets the read run a set distance ahead of what matching asked for, and no further', async () => {
    const feed = new SourceFeed(200);
    let room = false;
    const asking = feed.roomToRead(200).then(() => {
      room = true;
    });
    await feed.roomToRead(150);
    await Promise.resolve();
    expect(room).toBe(false);
    // Matching asks for the first 300 entries: the read may go on to 500.
    const first = feed.waitFor(300);
    await asking;
    expect(room).toBe(true);
    let beyond = false;
    const past = feed.roomToRead(500).then(() => {
      beyond = true;
    });
    feed.advance(500);
    await first;
    await Promise.resolve();
    expect(beyond).toBe(false);
    // Once matching stops (a failure that requeues the job), the read is held no more.
    feed.release();
    await past;
    expect(beyond).toBe(true);
    await feed.roomToRead(10_000);
  });
});
