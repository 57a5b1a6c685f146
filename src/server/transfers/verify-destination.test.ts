import { describe, expect, it } from 'vitest';
import type { NormalizedTrack, PlaylistEntry } from '../providers/types';
import { missingFrom } from './verify-destination';

const track = (id: string, name: string, artist: string): NormalizedTrack => ({
  id,
  uri: id,
  name,
  artists: [artist],
  album: 'Album',
  durationMs: 200_000,
});
const dreams = track('1', 'Dreams', 'Fleetwood Mac');
const jolene = track('2', 'Jolene', 'Dolly Parton');
const expected = [
  { position: 0, track: dreams },
  { position: 1, track: jolene },
  { position: 2, track: jolene },
];

describe('missingFrom', () => {
  it('counts each entry for one expected track, so a song wanted twice needs two entries', () => {
    const entries: PlaylistEntry[] = [
      { position: 0, kind: 'track', track: dreams },
      { position: 1, kind: 'track', track: jolene },
    ];
    expect(missingFrom(entries, expected).map((item) => item.position)).toEqual([2]);
  });

  it('counts a song read back without its catalog link by its name and first artist, so it is not added twice', () => {
    const entries: PlaylistEntry[] = [
      { position: 0, kind: 'track', track: dreams },
      { position: 1, kind: 'skipped', reason: 'unavailable', name: 'jolene ', artists: ['Dolly Parton'] },
      { position: 2, kind: 'skipped', reason: 'unavailable', name: 'Dreams', artists: ['Someone Else'] },
    ];
    expect(missingFrom(entries, expected).map((item) => item.position)).toEqual([2]);
  });

  it('counts a song read back under another id of the same recording (same ISRC), so it is not added again', () => {
    const withIsrc = { ...jolene, isrc: 'USRC17300001' };
    const equivalent = { ...withIsrc, id: '999', uri: '999', name: 'Jolene (Remastered)' };
    const entries: PlaylistEntry[] = [
      { position: 0, kind: 'track', track: dreams },
      { position: 1, kind: 'track', track: equivalent },
    ];
    const wanted = [
      { position: 0, track: dreams },
      { position: 1, track: withIsrc },
      { position: 2, track: withIsrc },
    ];
    expect(missingFrom(entries, wanted).map((item) => item.position)).toEqual([2]);
  });
});
