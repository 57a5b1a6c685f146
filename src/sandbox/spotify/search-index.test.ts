import { describe, expect, it } from 'vitest';
import { normalizeText, parseSearchQuery, type SearchableTrack, TrackSearchIndex } from './search-index';

const tracks: SearchableTrack[] = [
  {
    title: 'Heaven - Acoustic',
    artists: ['Aurora Vale'],
    album: 'Heaven (Acoustic)',
    isrc: 'USAV12200001',
    year: 2022,
  },
  { title: 'Heaven', artists: ['Aurora Vale'], album: 'Northern Lights', isrc: 'USAV12100001', year: 2021 },
  { title: 'Heaven', artists: ['Other Band'], album: 'Clouds', isrc: 'GBOB10000001', year: 1999 },
  { title: 'Déjà Vu', artists: ['Élodie Marchand'], album: 'Mémoires', isrc: 'FREM11600002', year: 2016 },
  {
    title: 'Golden Hour',
    artists: ['Milo Reyes', 'Aurora Vale'],
    album: 'Sunset Sessions',
    isrc: 'usmr11900004',
    year: 2019,
  },
  { title: 'Rock & Roll', artists: ['The Ampersands'], album: 'Symbols', isrc: 'USAM10000001', year: 2001 },
];
const index = new TrackSearchIndex(tracks);
const names = (q: string, accept: (i: number) => boolean = () => true) =>
  index.search(parseSearchQuery(q), accept).map((i) => `${tracks[i]?.title} / ${tracks[i]?.artists[0]}`);

describe('parseSearchQuery', () => {
  it('reads quoted and bare field filters and free text', () => {
    expect(parseSearchQuery('remaster track:Doxy artist:"Miles Davis" year:1955-1960')).toMatchObject({
      free: ['remaster'],
      track: ['doxy'],
      artist: ['miles', 'davis'],
      year: { from: 1955, to: 1960 },
    });
    expect(parseSearchQuery('isrc:usav12100001').isrc).toBe('USAV12100001');
  });
  it('is as strict as Spotify about apostrophes in field filters: nothing found, though free text works', () => {
    expect(parseSearchQuery('track:"What\'s Going On" artist:Marvin').unmatchable).toBe(true);
    expect(parseSearchQuery('artist:K\u2019s').unmatchable).toBe(true);
    expect(parseSearchQuery("What's Going On artist:Marvin").unmatchable).toBeUndefined();
    // A word is indexed joined across its apostrophe, as Spotify finds "Carissas" for "Carissa's".
    expect(normalizeText("Carissa's Wierd")).toBe('carissas wierd');
  });
  it('folds accents, case, punctuation and "&"', () => {
    expect(normalizeText('Déjà  Vu!')).toBe('deja vu');
    expect(normalizeText('Rock & Roll')).toBe('rock and roll');
  });
});

describe('TrackSearchIndex', () => {
  it('ranks the exact title by the exact artist first, versions after', () => {
    expect(names('track:"Heaven" artist:"Aurora Vale"')).toEqual([
      'Heaven / Aurora Vale',
      'Heaven - Acoustic / Aurora Vale',
    ]);
  });
  it('requires every word of a field filter in that field', () => {
    expect(names('track:"Heaven" artist:"Other Band"')).toEqual(['Heaven / Other Band']);
    expect(names('album:"Northern Lights"')).toEqual(['Heaven / Aurora Vale']);
  });
  it('finds tracks by a featured artist too', () => {
    expect(names('artist:"Aurora Vale"')).toContain('Golden Hour / Milo Reyes');
  });
  it('matches without accents and with "and" for "&"', () => {
    expect(names('deja vu elodie')).toEqual(['Déjà Vu / Élodie Marchand']);
    expect(names('track:"Rock and Roll"')).toEqual(['Rock & Roll / The Ampersands']);
  });
  it('finds by ISRC in any case, combined with other filters', () => {
    expect(names('isrc:USMR11900004')).toEqual(['Golden Hour / Milo Reyes']);
    expect(names('isrc:USMR11900004 artist:nobody')).toEqual([]);
  });
  it('falls back to most words when one stray word matches nothing', () => {
    expect(names('track:"Deja Vu (Remastered)" artist:"Elodie Marchand"')).toEqual([
      'Déjà Vu / Élodie Marchand',
    ]);
    expect(names('completely unrelated words')).toEqual([]);
  });
  it('applies year filters and the caller’s market filter', () => {
    expect(names('heaven year:1999')).toEqual(['Heaven / Other Band']);
    expect(names('heaven', (i) => i !== 1)).not.toContain('Heaven / Aurora Vale');
  });

  it('indexes a 100,000-track catalog and still finds one song exactly', () => {
    const words = ['love', 'night', 'fire', 'rain', 'heart', 'gold', 'river', 'star', 'dream', 'light'];
    const big: SearchableTrack[] = Array.from({ length: 100_000 }, (_, n) => ({
      title: `${words[n % 10]} ${words[Math.floor(n / 10) % 10]} ${n}`,
      artists: [`Artist ${n % 997}`],
      album: `Album ${n % 5003}`,
      isrc: `QZ${String(n).padStart(10, '0')}`,
      year: 1990 + (n % 30),
    }));
    const bigIndex = new TrackSearchIndex(big);
    const hit = bigIndex.search(parseSearchQuery('track:"gold heart 12345" artist:"Artist 381"'), () => true);
    expect(hit).toEqual([12_345]);
    expect(bigIndex.search(parseSearchQuery('isrc:QZ0000099999'), () => true)).toEqual([99_999]);
    // "love" is the first or second word of 19,000 titles.
    expect(bigIndex.search(parseSearchQuery('love'), () => true)).toHaveLength(19_000);
  }, 120_000);
});
