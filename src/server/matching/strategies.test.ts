import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NormalizedTrack } from '../providers/types';
import { buildStrategies, normalizeIsrc, queryKey, RESCUE_SEARCHES } from './strategies';

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
      {
        kind: 'search',
        name: 'written',
        query: { text: 'Eight Days A Week - Remastered 2009 The Beatles' },
      },
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

  it('adds the title as written, in Latin letters, when the title query leaves a segment out', () => {
    const strategies = buildStrategies({
      id: 's3',
      uri: 's3',
      name: 'ХОТБОКС (prod. by Young Royce)',
      artists: ['SODA LUV'],
      album: 'ХОТБОКС',
      durationMs: 96_000,
    });
    const written = strategies.filter((s) => s.kind === 'search' && s.name === 'written');
    expect(written).toEqual([
      { kind: 'search', name: 'written', query: { text: 'KhOTBOKS (prod. by Young Royce) SODA LUV' } },
    ]);
    // Counter-example: a plain title has nothing the title query left out, so no call is spent on it.
    const plain = buildStrategies({ ...base, name: 'Yellow', artists: ['Coldplay'] });
    expect(plain.some((s) => s.kind === 'search' && s.name === 'written')).toBe(false);
  });

  it('adds the title with up to two other credited names when the song credits several', () => {
    const strategies = buildStrategies({
      ...base,
      name: 'ME! (feat. Brendon Urie of Panic! At The Disco)',
      artists: ['Taylor Swift', 'A', 'B', 'C'],
    });
    const credits = strategies.filter((s) => s.kind === 'search' && s.name === 'credits');
    expect(credits).toEqual([{ kind: 'search', name: 'credits', query: { text: 'ME! Taylor Swift A B' } }]);
    // Counter-example: one credited name adds nothing to the title + artist search.
    const single = buildStrategies({ ...base, name: 'ME!', artists: ['Taylor Swift'] });
    expect(single.some((s) => s.kind === 'search' && s.name === 'credits')).toBe(false);
  });

  it('keeps the rescue searches after the others and before the artist list', () => {
    const names = buildStrategies({
      ...base,
      name: 'Home (feat. Guest) - Remastered',
      artists: ['Band'],
    }).flatMap((s) => (s.kind === 'search' ? [s.name] : []));
    expect(names.slice(-3)).toEqual(['written', 'credits', 'artist']);
    expect(names.filter((n) => RESCUE_SEARCHES.has(n))).toEqual(['written', 'credits', 'artist']);
  });

  it('never leaves the title out of a rescue search (property)', () => {
    fc.assert(
      fc.property(
        // Plain words: "ft", "with", "x" and the like credit the name after them (credits.ts), which the
        // 'credits' search moves among the artists, as it should ("A ft B" found in a run of luck).
        fc
          .stringMatching(/^[A-Za-z][A-Za-z ]{1,20}[A-Za-z]$/)
          .filter((title) => !/(?:^|\s)(?:feat|ft|featuring|with|vs|versus|x)(?=\s|$)/i.test(title)),
        fc.array(fc.stringMatching(/^[A-Z][a-z]{2,10}$/), { minLength: 1, maxLength: 4 }),
        fc.constantFrom('', ' (feat. Guest)', ' - Live', ' (prod. by Someone)', ' - Remastered 2011'),
        (title, artists, segment) => {
          const strategies = buildStrategies({ ...base, name: `${title}${segment}`, artists });
          for (const s of strategies) {
            if (s.kind !== 'search' || (s.name !== 'written' && s.name !== 'credits')) continue;
            expect(s.query.text?.toLowerCase()).toContain(title.trim().replace(/\s+/g, ' ').toLowerCase());
          }
        },
      ),
    );
  });
});
