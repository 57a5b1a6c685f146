import { describe, expect, it } from 'vitest';
import { splitArtistString, splitArtists } from './credits';

describe('splitArtistString', () => {
  it.each([
    ['Drake', ['Drake']],
    ['Calvin Harris & Dua Lipa', ['Calvin Harris', 'Dua Lipa']],
    [
      'Meet Bros., Yo Yo Honey Singh & Aditi Singh Sharma',
      ['Meet Bros.', 'Yo Yo Honey Singh', 'Aditi Singh Sharma'],
    ],
    ['Lil Nas X & Billy Ray Cyrus', ['Lil Nas X', 'Billy Ray Cyrus']],
    ['Sam Smith x Kim Petras', ['Sam Smith', 'Kim Petras']],
    ['DaBaby feat. Roddy Ricch', ['DaBaby', 'Roddy Ricch']],
    ['大淵 MUTA & Tipsy', ['大淵 MUTA', 'Tipsy']],
  ])('splits %j', (credit, expected) => {
    expect(splitArtistString(credit)).toEqual(expected);
  });

  it('keeps a name that merely contains an x', () => {
    expect(splitArtistString('Xavier Rudd')).toEqual(['Xavier Rudd']);
    expect(splitArtistString('Malcolm X')).toEqual(['Malcolm X']);
  });
});

describe('splitArtists', () => {
  it('merges several credit strings without duplicates', () => {
    expect(splitArtists(['Anitta', 'Cardi B & 24kGoldn', 'cardi b'])).toEqual([
      'Anitta',
      'Cardi B',
      '24kGoldn',
    ]);
  });
});
