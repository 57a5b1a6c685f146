import { describe, expect, it } from 'vitest';
import type { CatalogTrack } from '../catalog/types';
import {
  appleArtistName,
  appleGenreName,
  appleSongName,
  joinArtists,
  searchTokens,
  stableLibraryId,
} from './apple-style';

const track = (title: string, artists: string[], featured: string[] = []) =>
  ({ title, artists, featured }) as Pick<CatalogTrack, 'title' | 'artists' | 'featured'> as CatalogTrack;

describe('Apple credit style', () => {
  it('joins artists as Apple prints them', () => {
    expect(joinArtists(['A'])).toBe('A');
    expect(joinArtists(['A', 'B'])).toBe('A & B');
    expect(joinArtists(['A', 'B', 'C'])).toBe('A, B & C');
  });

  it('keeps featured artists out of artistName and puts them in the title before a version marker', () => {
    const song = track('Heaven - Acoustic', ['Maya Stone', 'Ana Ruiz', 'Leo Park'], ['Ana Ruiz', 'Leo Park']);
    expect(appleArtistName(song)).toBe('Maya Stone');
    expect(appleSongName(song)).toBe('Heaven (feat. Ana Ruiz & Leo Park) - Acoustic');
    expect(appleSongName(track('Plain', ['X']))).toBe('Plain');
  });

  it('names genres the Apple way', () => {
    expect(appleGenreName('hip-hop')).toBe('Hip-Hop/Rap');
    expect(appleGenreName('r&b')).toBe('R&B/Soul');
    expect(appleGenreName('k-pop')).toBe('K-Pop');
    expect(appleGenreName('bossa nova')).toBe('Bossa Nova');
    expect(appleGenreName('Pop')).toBe('Pop');
  });

  it('tokenises search text without accents or punctuation', () => {
    expect(searchTokens('Beyoncé – Déjà Vu (feat. Jay-Z)')).toEqual([
      'beyonce',
      'deja',
      'vu',
      'feat',
      'jay',
      'z',
    ]);
  });
});

describe('stableLibraryId', () => {
  it('gives every catalog song its own library id (two songs under one id read back as each other)', () => {
    // These two catalog ids shared one library id under the former 32-bit hash.
    expect(stableLibraryId('i', 'song:109243521')).not.toBe(stableLibraryId('i', 'song:735490205'));
    const ids = new Set<string>();
    for (let n = 0; n < 100_000; n++) ids.add(stableLibraryId('i', `song:${100_000_000 + n * 7919}`));
    expect(ids.size).toBe(100_000);
  });

  it('is stable and shaped like Apple’s', () => {
    expect(stableLibraryId('i', 'song:1')).toBe(stableLibraryId('i', 'song:1'));
    expect(stableLibraryId('i', 'song:1')).toMatch(/^i\.[0-9A-Za-z]{14}$/);
    expect(stableLibraryId('pl.u', 'x')).toMatch(/^pl\.u-[0-9A-Za-z]{14}$/);
  });
});
