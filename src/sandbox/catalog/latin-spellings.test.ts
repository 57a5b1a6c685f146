import { describe, expect, it } from 'vitest';
import { AppleCatalogIndex } from '../apple/catalog-index';
import { parseSearchQuery, TrackSearchIndex } from '../spotify/search-index';
import { latinSpellings } from './latin-spellings';
import type { Catalog, CatalogTrack } from './types';

/** Both services find a name written in another script by its Latin spelling, so both emulators do too. */

describe('latinSpellings', () => {
  it('spells names of other scripts in Latin letters, Han and Hangul also syllable by syllable', () => {
    expect(latinSpellings('Москва любит')).toEqual(['Moskva lyubit']);
    expect(latinSpellings('梦蝶')).toEqual(['MengDie', 'Meng Die']);
    expect(latinSpellings('正しくなれない')).toEqual(['Zhengshikunarenai', 'Zheng shikunarenai']);
  });

  it('has nothing to add for a name in Latin letters', () => {
    expect(latinSpellings('Beyoncé')).toEqual([]);
    expect(latinSpellings('Golden Hour')).toEqual([]);
  });
});

const songs: [string, string, string][] = [
  ['Москва любит...', 'Скриптонит', '2004'],
  ['梦蝶', 'Yue Yan Jen', '梦蝶'],
  ['Moscow Calling', 'Gorky Park', 'Moscow Calling'],
];

function catalogTrack(index: number, [title, artist]: [string, string, string]): CatalogTrack {
  return {
    key: `t${index}`,
    isrc: `QZLAT24${String(index).padStart(5, '0')}`,
    title,
    artists: [artist],
    featured: [],
    releaseKey: `r${index}`,
    trackNumber: 1,
    discNumber: 1,
    durationMs: 200_000,
    explicit: false,
    genres: ['pop'],
    spotify: { id: `latinspellingstrack000${index}`, markets: ['US'] },
    apple: { id: String(1_700_000_000 + index), storefronts: ['us'] },
  };
}

describe('the emulators search indexes', () => {
  it('Spotify finds a Cyrillic or Han title by its Latin spelling, and the native one still by itself', () => {
    const index = new TrackSearchIndex(
      songs.map(([title, artist, album]) => ({ title, artists: [artist], album, isrc: 'X', year: 2020 })),
    );
    const titles = (q: string) => index.search(parseSearchQuery(q), () => true).map((i) => songs[i]?.[0]);
    expect(titles('track:"Moskva lyubit" artist:Skriptonit')).toEqual(['Москва любит...']);
    expect(titles('meng die')).toEqual(['梦蝶']);
    expect(titles('mengdie yue yan jen')).toEqual(['梦蝶']);
    expect(titles('track:Москва')).toEqual(['Москва любит...']);
    expect(titles('moscow')).toEqual(['Moscow Calling']);
  });

  it('Apple Music does the same', () => {
    const catalog: Catalog = {
      tracks: songs.map((song, i) => catalogTrack(i, song)),
      releases: new Map(),
      demoLibraries: { spotify: [], apple: [] },
    };
    const index = new AppleCatalogIndex(catalog);
    const titles = (term: string) => index.search(term, 'us').map((record) => record.name);
    expect(titles('Moskva lyubit Skriptonit')).toEqual(['Москва любит...']);
    expect(titles('Meng Die')).toEqual(['梦蝶']);
    expect(titles('Москва')).toEqual(['Москва любит...']);
    expect(titles('moscow calling')).toEqual(['Moscow Calling']);
  });
});
