import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NormalizedTrack } from '../providers/types';
import {
  type AlbumInfo,
  type AlbumSource,
  albumTrackMatch,
  findAlbumMatch,
  mapAlbumTracks,
  NEAR_COUNT_CONFIDENCE,
  normalizeUpc,
  onMatchedAlbumReason,
  pickByTitle,
  pickByUpc,
  scoreAlbumCandidate,
  TITLE_ARTIST_COUNT_CONFIDENCE,
  UPC_CONFIDENCE,
} from './albums';

const album = (fields: Partial<AlbumInfo> & Pick<AlbumInfo, 'id' | 'name'>): AlbumInfo => ({
  artists: ['Maya Stone'],
  trackCount: 10,
  ...fields,
});

let nextId = 0;
function track(fields: Partial<NormalizedTrack> & Pick<NormalizedTrack, 'name'>): NormalizedTrack {
  nextId++;
  return {
    id: `t${nextId}`,
    uri: `u${nextId}`,
    artists: ['Maya Stone'],
    album: 'Northern Lights',
    durationMs: 200_000,
    ...fields,
  };
}

describe('normalizeUpc', () => {
  it('compares a 12-digit UPC with its 13-digit EAN form and refuses what is not a code', () => {
    expect(normalizeUpc('0602577123456')).toBe(normalizeUpc('602577123456'));
    expect(normalizeUpc('602-577 123456')).toBe('602577123456');
    expect(normalizeUpc('abc')).toBeNull();
    expect(normalizeUpc('')).toBeNull();
    expect(normalizeUpc('0000000')).toBeNull();
  });

  it('ignores leading zeros and only ever drops them (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{6,13}$/), (digits) => {
        const once = normalizeUpc(digits);
        if (normalizeUpc(`0${digits}`) !== once) return false;
        if (once === null) return /^0+$/.test(digits);
        return digits.endsWith(once) && /^0*$/.test(digits.slice(0, -once.length));
      }),
    );
  });
});

describe('scoring an album found by title and artist', () => {
  const source = album({ id: 's', name: 'Northern Lights', trackCount: 11, releaseDate: '2019-03-01' });

  it('accepts the same title, artist and track count', () => {
    const match = scoreAlbumCandidate(source, album({ id: 'd', name: 'Northern Lights', trackCount: 11 }));
    expect(match).toMatchObject({ method: 'title_artist_count', confidence: TITLE_ARTIST_COUNT_CONFIDENCE });
  });

  it('reads Apple’s " - EP" and an edition note as the same title, and another artist as another album', () => {
    expect(
      scoreAlbumCandidate(source, album({ id: 'd', name: 'Northern Lights - EP', trackCount: 11 })),
    ).not.toBeNull();
    expect(
      scoreAlbumCandidate(
        source,
        album({ id: 'd', name: 'Northern Lights (Deluxe Edition)', trackCount: 11 }),
      ),
    ).not.toBeNull();
    expect(
      scoreAlbumCandidate(
        source,
        album({ id: 'd', name: 'Northern Lights', artists: ['Leo Park'], trackCount: 11 }),
      ),
    ).toBeNull();
    expect(
      scoreAlbumCandidate(source, album({ id: 'd', name: 'Northern Lights (Live)', trackCount: 11 })),
    ).toBeNull();
  });

  it('accepts the primary artist inside Apple’s one credit string', () => {
    const match = scoreAlbumCandidate(
      album({ id: 's', name: 'Together', artists: ['Maya Stone', 'Leo Park'] }),
      album({ id: 'd', name: 'Together', artists: ['Maya Stone & Leo Park'] }),
    );
    expect(match?.method).toBe('title_artist_count');
  });

  it('offers a track count within two for review, says so, and refuses more', () => {
    const near = scoreAlbumCandidate(source, album({ id: 'd', name: 'Northern Lights', trackCount: 13 }));
    expect(near).toMatchObject({ method: 'title_artist_near_count', confidence: NEAR_COUNT_CONFIDENCE });
    expect(near?.reason).toBe('same title and artist, 13 tracks instead of 11');
    expect(
      scoreAlbumCandidate(source, album({ id: 'd', name: 'Northern Lights', trackCount: 14 })),
    ).toBeNull();
  });

  it('picks the exact count over a near one, then the same release year', () => {
    const picked = pickByTitle(source, [
      album({ id: 'near', name: 'Northern Lights', trackCount: 12 }),
      album({ id: 'other-year', name: 'Northern Lights', trackCount: 11, releaseDate: '2021' }),
      album({ id: 'same-year', name: 'Northern Lights', trackCount: 11, releaseDate: '2019-05-01' }),
    ]);
    expect(picked?.album.id).toBe('same-year');
  });

  it('never accepts a candidate whose title or artist differs (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 5 }),
        (extra, delta) => {
          const candidate = album({ id: 'd', name: `Northern Lights ${extra}x`, trackCount: 11 + delta });
          const match = scoreAlbumCandidate(source, candidate);
          return match === null || match.method !== 'upc';
        },
      ),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 }), (a, b) => {
        const match = scoreAlbumCandidate(
          album({ id: 's', name: 'X', trackCount: a }),
          album({ id: 'd', name: 'X', trackCount: b }),
        );
        if (Math.abs(a - b) > 2) return match === null;
        return match !== null && (a === b) === (match.confidence === TITLE_ARTIST_COUNT_CONFIDENCE);
      }),
    );
  });
});

describe('findAlbumMatch', () => {
  const calls: unknown[] = [];
  const destination = (answers: { upc?: AlbumInfo[]; search?: AlbumInfo[] }): AlbumSource => ({
    findAlbums: async (query) => {
      calls.push(query);
      return (query.upc ? answers.upc : answers.search) ?? [];
    },
  });

  it('takes the UPC first, then title and artist, and answers null when neither finds it', async () => {
    const source = album({ id: 's', name: 'Northern Lights', upc: '012345678905' });
    const byUpc = await findAlbumMatch(
      source,
      destination({ upc: [album({ id: 'd1', name: 'Other Name', upc: '12345678905' })] }),
    );
    expect(byUpc).toMatchObject({ album: { id: 'd1' }, method: 'upc', confidence: UPC_CONFIDENCE });

    calls.length = 0;
    const byTitle = await findAlbumMatch(
      source,
      destination({ search: [album({ id: 'd2', name: 'Northern Lights', upc: '999999999' })] }),
    );
    expect(byTitle).toMatchObject({ album: { id: 'd2' }, method: 'title_artist_count' });
    expect(calls).toEqual([{ upc: '012345678905' }, { title: 'Northern Lights', artist: 'Maya Stone' }]);

    expect(await findAlbumMatch(source, destination({}))).toBeNull();
  });

  it('asks only by title when the source has no UPC', async () => {
    calls.length = 0;
    await findAlbumMatch(album({ id: 's', name: 'Northern Lights - Single' }), destination({}));
    expect(calls).toEqual([{ title: 'Northern Lights', artist: 'Maya Stone' }]);
  });

  it('takes a UPC found in the search answer', () => {
    const source = album({ id: 's', name: 'A', upc: '777777' });
    expect(pickByUpc(source, [album({ id: 'x', name: 'B', upc: '0777777' })])?.album.id).toBe('x');
  });
});

describe('mapAlbumTracks', () => {
  it('pairs by ISRC, then track number and title, then title, each destination track once', () => {
    const sources = [
      track({ name: 'Intro', isrc: 'USAAA2400001', trackNumber: 1 }),
      track({ name: 'Heaven', trackNumber: 2 }),
      track({ name: 'Night Drive (feat. Ana Ruiz)', trackNumber: 3 }),
      track({ name: 'Heaven - Live', trackNumber: 4 }),
      track({ name: 'Bonus', trackNumber: 12 }),
    ];
    const destinations = [
      track({ name: 'Intro (2019)', isrc: 'usaaa2400001', trackNumber: 1 }),
      track({ name: 'Heaven', trackNumber: 2 }),
      track({ name: 'Night Drive', trackNumber: 5 }),
      track({ name: 'Heaven (Live)', trackNumber: 4 }),
    ];
    const paired = mapAlbumTracks(sources, destinations);
    expect(paired.map((p) => (p ? [p.track.name, p.via] : null))).toEqual([
      ['Intro (2019)', 'isrc'],
      ['Heaven', 'track_number'],
      ['Night Drive', 'title'],
      ['Heaven (Live)', 'track_number'],
      null,
    ]);
  });

  it('never pairs two sources with one destination track (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ name: fc.constantFrom('A', 'B', 'C'), n: fc.integer({ min: 1, max: 4 }) }), {
          maxLength: 8,
        }),
        fc.array(fc.record({ name: fc.constantFrom('A', 'B', 'C'), n: fc.integer({ min: 1, max: 4 }) }), {
          maxLength: 8,
        }),
        (left, right) => {
          const paired = mapAlbumTracks(
            left.map((t) => track({ name: t.name, trackNumber: t.n })),
            right.map((t) => track({ name: t.name, trackNumber: t.n })),
          );
          const ids = paired.flatMap((p) => (p ? [p.track.id] : []));
          return new Set(ids).size === ids.length && paired.length === left.length;
        },
      ),
    );
  });
});

describe('albumTrackMatch', () => {
  it('lifts a paired track to the album’s confidence and says it is on the matched album', () => {
    const source = track({ name: 'Heaven', durationMs: 200_000 });
    const destination = track({ name: 'Heaven', durationMs: 207_000 });
    const match = albumTrackMatch(
      source,
      { track: destination, via: 'track_number' },
      {
        album: album({ id: 'd', name: 'Northern Lights' }),
        method: 'upc',
        confidence: UPC_CONFIDENCE,
        reason: '',
      },
    );
    expect(match.status).toBe('accepted');
    expect(match.confidence).toBe(UPC_CONFIDENCE);
    expect(match.reasons[0]).toBe(onMatchedAlbumReason('upc'));
    expect(match.reasons[0]).toBe('on the matched album (UPC)');
  });

  it('keeps another version out even on the matched album', () => {
    const match = albumTrackMatch(
      track({ name: 'Heaven' }),
      { track: track({ name: 'Heaven - Karaoke Version' }), via: 'title' },
      {
        album: album({ id: 'd', name: 'Northern Lights' }),
        method: 'upc',
        confidence: UPC_CONFIDENCE,
        reason: '',
      },
    );
    expect(match.status).toBe('unmatched');
  });
});
