import { describe, expect, it } from 'vitest';
import { sameNameDetails, withTwinDetails } from './playlist-twins';

describe('sameNameDetails', () => {
  it('leaves playlists with a name of their own alone', () => {
    expect(
      sameNameDetails([
        { id: 'a', name: 'Road Trip', trackCount: 3 },
        { id: 'b', name: 'Gym', trackCount: 3 },
      ]).size,
    ).toBe(0);
  });

  it('says what differs between same-named playlists: owner, track count, last change, cover', () => {
    const details = sameNameDetails([
      {
        id: 'a',
        name: 'Late Night Jazz',
        trackCount: 36,
        ownerName: 'Priya',
        imageUrl: 'x',
        updatedAt: '2026-11-03T10:00:00Z',
      },
      {
        id: 'b',
        name: 'late night jazz ',
        trackCount: 36,
        ownerName: 'Walker',
        imageUrl: 'y',
        updatedAt: '2026-11-20T10:00:00Z',
      },
      { id: 'c', name: 'Gym', trackCount: 3 },
    ]);
    expect(details.get('a')).toBe('by Priya · changed 3 Nov 2026');
    expect(details.get('b')).toBe('by Walker · changed 20 Nov 2026');
    expect(details.has('c')).toBe(false);

    const apple = sameNameDetails([
      { id: 'p.1', name: 'Road Trip', trackCount: 48, imageUrl: 'art' },
      { id: 'p.2', name: 'Road Trip', trackCount: 41 },
    ]);
    expect(apple.get('p.1')).toBe('48 tracks · with a cover');
    expect(apple.get('p.2')).toBe('41 tracks · no cover');
  });

  it('numbers twins nothing else tells apart', () => {
    const details = sameNameDetails([
      { id: 'a', name: 'Mix', trackCount: 2 },
      { id: 'b', name: 'Mix', trackCount: 2 },
    ]);
    expect(details.get('a')).toBe('2 tracks · no cover · 1 of 2');
    expect(details.get('b')).toBe('2 tracks · no cover · 2 of 2');
    expect(withTwinDetails('Mix (Spotify)', details.get('b'))).toBe(
      'Mix (Spotify) — 2 tracks · no cover · 2 of 2',
    );
  });
});
