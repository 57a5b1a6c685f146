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
          const fromYou = result.entries.filter((e) => e.side === 'you').length;
          const fromFriend = result.entries.filter((e) => e.side === 'friend').length;
          expect(fromYou).toBe(result.counts.you);
          expect(fromFriend).toBe(result.counts.friend);
          expect(Math.abs(fromYou - ((fromYou + fromFriend) * ratio[0]) / 100)).toBeLessThanOrEqual(1);
          // Only tracks the person's side had count as theirs.
          for (const entry of result.entries) {
            const pool = entry.side === 'you' ? you : friend;
            expect(pool).toContain(entry.track);
          }
        },
      ),
    );
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
            expect(entry.id.startsWith('bt-')).toBe(entry.side === 'bridge');
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
    expect(result.entries.map((e) => e.id)).toEqual(['y1', 'f1', 'y2']);
    expect(result.entries[0]?.source).toBe('both');
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
