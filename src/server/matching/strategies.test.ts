import { describe, expect, it } from 'vitest';
import type { NormalizedTrack } from '../providers/types';
import { buildStrategies, normalizeIsrc, queryKey } from './strategies';

const base: NormalizedTrack = {
  id: 's1',
  uri: 'spotify:track:s1',
  name: 'Eight Days A Week - Remastered 2009',
  artists: ['The Beatles'],
  album: 'Beatles For Sale (Remastered)',
  durationMs: 164_000,
  isrc: 'gbaye0601477',
};

describe('normalizeIsrc', () => {
  it.each([
    ['GBAYE0601477', 'GBAYE0601477'],
    ['gbaye0601477', 'GBAYE0601477'],
    ['GB-AYE-06-01477', 'GBAYE0601477'],
    [' GB AYE 06 01477 ', 'GBAYE0601477'],
  ])('accepts %j as %j', (raw, expected) => {
    expect(normalizeIsrc(raw)).toBe(expected);
  });

  it.each([[''], ['GBAYE060147'], ['GBAYE06014777'], ['12AYE0601477'], ['GBAYE06O1477'], [undefined]])(
    'rejects %j',
    (raw) => {
      expect(normalizeIsrc(raw)).toBeNull();
    },
  );
});

describe('buildStrategies', () => {
  it('tries ISRC, title + artist, simplified title, album, title alone, then the artist alone', () => {
    // The remaster note is left out of the query: each service words it its own way.
    expect(buildStrategies(base)).toEqual([
      { kind: 'isrc', isrc: 'GBAYE0601477' },
      { kind: 'search', name: 'fields', query: { title: 'Eight Days A Week', artist: 'The Beatles' } },
      { kind: 'search', name: 'simplified', query: { text: 'Eight Days A Week The Beatles' } },
      { kind: 'search', name: 'album', query: { album: 'Beatles For Sale', artist: 'The Beatles' } },
      { kind: 'search', name: 'title', query: { title: 'Eight Days A Week' } },
      { kind: 'search', name: 'artist', query: { artist: 'The Beatles' } },
    ]);
  });

  it('keeps the words of another recording in the title query, as the source writes them', () => {
    const strategies = buildStrategies({ ...base, name: 'Yellow - Live at Glastonbury 2016 - Remastered' });
    expect(strategies[1]).toEqual({
      kind: 'search',
      name: 'fields',
      query: { title: 'Yellow - Live at Glastonbury 2016', artist: 'The Beatles' },
    });
  });

  it('also searches in Latin letters for a name written in another script, artist included', () => {
    const strategies = buildStrategies({
      id: 's2',
      uri: 's2',
      name: 'Москва любит...',
      artists: ['Скриптонит'],
      album: '2004',
      durationMs: 205_000,
    });
    expect(strategies.map((s) => (s.kind === 'search' ? [s.name, s.query] : []))).toEqual([
      ['fields', { title: 'Москва любит...', artist: 'Скриптонит' }],
      ['transliterated', { text: 'Moskva lyubit... Skriptonit' }],
      ['simplified', { text: 'Москва любит... Скриптонит' }],
      ['album', { album: '2004', artist: 'Скриптонит' }],
      ['title', { title: 'Москва любит...' }],
      ['artist', { artist: 'Skriptonit' }],
    ]);
  });

  it('searches by the primary artist with featured credits out of the title', () => {
    const { isrc: _withoutIsrc, ...withoutIsrc } = base;
    const strategies = buildStrategies({
      ...withoutIsrc,
      name: 'ROCKSTAR (feat. Roddy Ricch)',
      artists: ['DaBaby', 'Roddy Ricch'],
      album: 'BLAME IT ON BABY',
    });
    expect(strategies[0]).toEqual({
      kind: 'search',
      name: 'fields',
      query: { title: 'ROCKSTAR', artist: 'DaBaby' },
    });
    expect(strategies.some((s) => s.kind === 'isrc')).toBe(false);
  });

  it('splits an Apple artist string to find the primary artist', () => {
    const strategies = buildStrategies({
      ...base,
      name: 'One Kiss',
      artists: ['Calvin Harris & Dua Lipa'],
      isrc: 'bad',
    });
    expect(strategies[0]).toEqual({
      kind: 'search',
      name: 'fields',
      query: { title: 'One Kiss', artist: 'Calvin Harris' },
    });
  });

  it('lists each distinct query once', () => {
    const strategies = buildStrategies({ ...base, name: 'Yellow', album: 'Yellow', artists: [] });
    const keys = strategies.flatMap((s) => (s.kind === 'search' ? [queryKey(s.query)] : []));
    expect(new Set(keys).size).toBe(keys.length);
    expect(strategies.filter((s) => s.kind === 'search').map((s) => s.kind === 'search' && s.name)).toEqual([
      'fields',
      'simplified',
    ]);
    // Without artists there is no artist search either.
    expect(strategies.some((s) => s.kind === 'search' && s.name === 'artist')).toBe(false);
  });
});
