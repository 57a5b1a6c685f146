import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NormalizedTrack } from '../providers/types';
import { bridgeQueries, mergePlaylists, songKeys, tasteOverlap } from './merge-playlists';

const TITLES = [
  'Heaven',
  'Neon Rain',
  'Golden Hour',
  'Slow Burn',
  'Paper Moon',
  'Heaven (Live)',
  'Ocean Eyes',
];
const ARTISTS = ['Mira Lane', 'The Static', 'Kofi Vale', 'Luna Park', 'DJ Orbit'];
const ISRCS = ['USRC17607839', 'GBAYE0601498', 'USUM71703861', 'JPAB01234567', undefined];

let counter = 0;
const trackArb: fc.Arbitrary<NormalizedTrack> = fc
  .record({
    title: fc.constantFrom(...TITLES),
    artist: fc.constantFrom(...ARTISTS),
    isrc: fc.constantFrom(...ISRCS),
    genre: fc.constantFrom('pop', 'rock', 'k-pop', 'jazz'),
  })
  .map(({ title, artist, isrc, genre }) => {
    counter += 1;
    return {
      id: `t${counter}`,
      uri: `spotify:track:t${counter}`,
      name: title,
      artists: [artist],
      album: 'Album',
      durationMs: 200_000,
      genres: [genre],
      ...(isrc ? { isrc } : {}),
    };
  });

const ratioArb = fc.integer({ min: 0, max: 10 }).map((step) => [step * 10, 100 - step * 10] as const);

const sameSong = (a: NormalizedTrack, b: NormalizedTrack) =>
  songKeys(a).some((key) => songKeys(b).includes(key));

describe('mergePlaylists', () => {
  it('takes tracks from each side in the mix ratio, within one track', () => {
    fc.assert(
      fc.property(
        fc.array(trackArb, { maxLength: 40 }),
        fc.array(trackArb, { maxLength: 40 }),
        ratioArb,
        (you, friend, ratio) => {
          const result = mergePlaylists({ you, friend, mixRatio: ratio, includeBridgeTracks: false });
          const fromYou = result.entries.filter((e) => e.source === 'you').length;
          const fromFriend = result.entries.filter((e) => e.source === 'friend').length;
          const fromBoth = result.entries.filter((e) => e.source === 'both').length;
          expect(fromYou).toBe(result.counts.you);
          expect(fromFriend).toBe(result.counts.friend);
          expect(fromBoth).toBe(result.counts.shared);
          expect(Math.abs(fromYou - ((fromYou + fromFriend) * ratio[0]) / 100)).toBeLessThanOrEqual(1);
          // Each label tells the truth: "you" only you have, "friend" only the friend, "both" both.
          for (const entry of result.entries) {
            const inYours = you.some((t) => sameSong(t, entry.track));
            const inFriends = friend.some((t) => sameSong(t, entry.track));
            expect([inYours, inFriends]).toEqual(
              entry.source === 'both' ? [true, true] : entry.source === 'you' ? [true, false] : [false, true],
            );
          }
        },
      ),
    );
  });

  /** Two playlists drawn from one pool of distinct songs, so the overlap is whatever the draw makes it. */
  const overlapArb = fc
    .record({
      pool: fc.integer({ min: 0, max: 120 }),
      yours: fc.array(fc.nat(), { maxLength: 120 }),
      friends: fc.array(fc.nat(), { maxLength: 120 }),
      ratio: ratioArb,
    })
    .map(({ pool, yours, friends, ratio }) => {
      const songs = Array.from({ length: pool }, (_, i) => track(`s${i}`, `Song ${i}`, `Artist ${i}`));
      const pick = (indexes: number[], prefix: string) =>
        pool === 0
          ? []
          : [...new Set(indexes.map((i) => i % pool))].map((i) => {
              const song = songs[i] as NormalizedTrack;
              return { ...song, id: `${prefix}${i}` };
            });
      return { you: pick(yours, 'y'), friend: pick(friends, 'f'), ratio };
    });

  it('counts the overlap of any two playlists truly: none, partial, identical or one side empty', () => {
    fc.assert(
      fc.property(overlapArb, ({ you, friend, ratio }) => {
        const result = mergePlaylists({ you, friend, mixRatio: ratio, includeBridgeTracks: false });
        const friendNames = new Set(friend.map((t) => t.name));
        const yourNames = new Set(you.map((t) => t.name));
        const sharedCount = you.filter((t) => friendNames.has(t.name)).length;
        const yourOnly = you.length - sharedCount;
        const friendOnly = friend.filter((t) => !yourNames.has(t.name)).length;
        const { entries, counts, overlap } = result;

        // Every song both have is in the merge (up to the length limit), and the insight's overlap is
        // the number of "both" rows on the page, never more than the page's total.
        expect(counts.shared).toBe(Math.min(sharedCount, 100));
        expect(overlap.overlapTrackCount).toBe(counts.shared);
        expect(entries.length).toBe(counts.you + counts.friend + counts.shared);
        expect(overlap.overlapTrackCount).toBeLessThanOrEqual(entries.length);
        expect(counts.you).toBeLessThanOrEqual(yourOnly);
        expect(counts.friend).toBeLessThanOrEqual(friendOnly);
        // The merge is as long as the ratio allows: one more track from either side would break it,
        // or the list is full.
        if (entries.length < 100 && counts.you < yourOnly && counts.friend < friendOnly) {
          expect.unreachable('both sides had songs left but the merge stopped short');
        }
        expect(Math.abs(counts.you - ((counts.you + counts.friend) * ratio[0]) / 100)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('merges identical playlists into the one list, every track marked both', () => {
    const songs = Array.from({ length: 48 }, (_, i) => track(`y${i}`, `Song ${i}`, 'Mira Lane'));
    const copies = songs.map((song) => ({ ...song, id: song.id.replace('y', 'f') }));
    const result = mergePlaylists({
      you: songs,
      friend: copies,
      mixRatio: [50, 50],
      includeBridgeTracks: false,
    });
    expect(result.entries).toHaveLength(48);
    expect(result.entries.every((entry) => entry.source === 'both')).toBe(true);
    expect(result.overlap.overlapTrackCount).toBe(48);
  });

  it('keeps a mostly overlapping merge long: 46 shared songs plus the ratio of the rest', () => {
    const songs = Array.from({ length: 48 }, (_, i) => track(`y${i}`, `Song ${i}`, 'Mira Lane'));
    const friend = [
      ...songs.slice(0, 46).map((song) => ({ ...song, id: song.id.replace('y', 'f') })),
      track('f-new-1', 'New One', 'Kofi Vale'),
      track('f-new-2', 'New Two', 'Kofi Vale'),
    ];
    const result = mergePlaylists({ you: songs, friend, mixRatio: [50, 50], includeBridgeTracks: false });
    expect(result.counts).toEqual({ you: 2, friend: 2, shared: 46, bridge: 0 });
    expect(result.entries).toHaveLength(50);
  });

  it('never holds the same song twice (same ISRC or same normalized title and primary artist)', () => {
    fc.assert(
      fc.property(
        fc.array(trackArb, { maxLength: 30 }),
        fc.array(trackArb, { maxLength: 30 }),
        fc.array(trackArb, { maxLength: 10 }),
        ratioArb,
        (you, friend, bridges, ratio) => {
          const { entries } = mergePlaylists({
            you,
            friend,
            mixRatio: ratio,
            includeBridgeTracks: true,
            bridgeCandidates: bridges,
          });
          for (let i = 0; i < entries.length; i++) {
            for (let j = i + 1; j < entries.length; j++) {
              const a = entries[i];
              const b = entries[j];
              if (a && b) expect(sameSong(a.track, b.track)).toBe(false);
            }
          }
        },
      ),
    );
  });

  it('marks bridge tracks with ids starting bt- and only adds songs neither playlist has', () => {
    fc.assert(
      fc.property(
        fc.array(trackArb, { minLength: 1, maxLength: 20 }),
        fc.array(trackArb, { minLength: 1, maxLength: 20 }),
        fc.array(trackArb, { maxLength: 10 }),
        (you, friend, bridges) => {
          const { entries } = mergePlaylists({
            you,
            friend,
            mixRatio: [50, 50],
            includeBridgeTracks: true,
            bridgeCandidates: bridges,
          });
          for (const entry of entries) {
            expect(entry.id.startsWith('bt-')).toBe(entry.source === 'bridge');
            if (entry.side === 'bridge') {
              expect(entry.id).toBe(`bt-${entry.track.id}`);
              expect([...you, ...friend].some((t) => sameSong(t, entry.track))).toBe(false);
            }
          }
        },
      ),
    );
  });

  it('adds no bridge tracks when they are turned off', () => {
    fc.assert(
      fc.property(
        fc.array(trackArb, { maxLength: 20 }),
        fc.array(trackArb, { maxLength: 20 }),
        fc.array(trackArb, { minLength: 1 }),
        (you, friend, bridges) => {
          const { entries } = mergePlaylists({
            you,
            friend,
            mixRatio: [50, 50],
            includeBridgeTracks: false,
            bridgeCandidates: bridges,
          });
          expect(entries.some((e) => e.id.startsWith('bt-'))).toBe(false);
        },
      ),
    );
  });

  it('keeps songs both people have, once, labelled both', () => {
    const shared = track('s1', 'Golden Hour', 'Mira Lane', 'USRC17607839');
    const yourCopy = track('y1', 'Golden Hour', 'Mira Lane', 'USRC17607839');
    const you = [yourCopy, track('y2', 'Neon Rain', 'The Static')];
    const friend = [track('f1', 'Paper Moon', 'Kofi Vale'), shared];
    const result = mergePlaylists({ you, friend, mixRatio: [50, 50], includeBridgeTracks: false });
    expect(result.entries.map((e) => e.id).sort()).toEqual(['f1', 'y1', 'y2']);
    expect(result.entries.find((e) => e.id === 'y1')?.source).toBe('both');
    expect(result.overlap.overlapTrackCount).toBe(1);
  });

  it('alternates the two sides evenly at 50/50', () => {
    const you = ['A', 'B', 'C', 'D'].map((t, i) => track(`y${i}`, `You ${t}`, 'Mira Lane'));
    const friend = ['A', 'B', 'C', 'D'].map((t, i) => track(`f${i}`, `Friend ${t}`, 'Kofi Vale'));
    const { entries } = mergePlaylists({ you, friend, mixRatio: [50, 50], includeBridgeTracks: false });
    expect(entries.map((e) => e.side)).toEqual([
      'you',
      'friend',
      'you',
      'friend',
      'you',
      'friend',
      'you',
      'friend',
    ]);
  });
});

describe('tasteOverlap and bridgeQueries', () => {
  it('finds the artists and genres both sides have and searches those first', () => {
    const you = [
      track('y1', 'One', 'Mira Lane', undefined, ['pop']),
      track('y2', 'Two', 'The Static', undefined, ['rock']),
    ];
    const friend = [
      track('f1', 'Three', 'Mira Lane', undefined, ['pop']),
      track('f2', 'Four', 'DJ Orbit', undefined, ['jazz']),
    ];
    const overlap = tasteOverlap(you, friend);
    expect(overlap.sharedArtists).toEqual(['Mira Lane']);
    expect(overlap.sharedGenres).toEqual(['pop']);
    expect(bridgeQueries(you, friend)).toEqual([{ artist: 'Mira Lane' }, { text: 'pop' }]);
  });

  it('with nothing in common, searches each side’s most frequent artist', () => {
    const you = [track('y1', 'One', 'Mira Lane'), track('y2', 'Two', 'Mira Lane')];
    const friend = [track('f1', 'Three', 'DJ Orbit')];
    expect(bridgeQueries(you, friend)).toEqual([{ artist: 'Mira Lane' }, { artist: 'DJ Orbit' }]);
  });
});

function track(id: string, name: string, artist: string, isrc?: string, genres?: string[]): NormalizedTrack {
  return {
    id,
    uri: `spotify:track:${id}`,
    name,
    artists: [artist],
    album: 'Album',
    durationMs: 180_000,
    ...(isrc ? { isrc } : {}),
    ...(genres ? { genres } : {}),
  };
}
