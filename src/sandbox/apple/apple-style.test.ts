import { describe, expect, it } from 'vitest';
import type { CatalogTrack } from '../catalog/types';
import { appleArtistName, appleGenreName, appleSongName, joinArtists, searchTokens } from './apple-style';

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
