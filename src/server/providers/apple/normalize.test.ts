import { describe, expect, it } from 'vitest';
import { songToTrack, splitArtistName, splitFeaturedCredit } from './normalize';

describe('Apple credits to an artists list', () => {
  it('splits Apple’s joined artist names', () => {
    expect(splitArtistName('Maya Stone')).toEqual(['Maya Stone']);
    expect(splitArtistName('Maya Stone & Leo Park')).toEqual(['Maya Stone', 'Leo Park']);
    expect(splitArtistName('Ana Ruiz, Leo Park & Maya Stone')).toEqual([
      'Ana Ruiz',
      'Leo Park',
      'Maya Stone',
    ]);
  });

  it('moves a feat. credit out of the title and keeps the rest of the title', () => {
    expect(splitFeaturedCredit('Night Drive (feat. Ana Ruiz)')).toEqual({
      title: 'Night Drive',
      featured: ['Ana Ruiz'],
    });
    expect(splitFeaturedCredit('Heaven (feat. A & B) - Acoustic')).toEqual({
      title: 'Heaven - Acoustic',
      featured: ['A', 'B'],
    });
    expect(splitFeaturedCredit('Run [feat. C, D & E] [Remix]')).toEqual({
      title: 'Run [Remix]',
      featured: ['C', 'D', 'E'],
    });
    expect(splitFeaturedCredit('Feature Presentation (Live)')).toEqual({
      title: 'Feature Presentation (Live)',
      featured: [],
    });
  });

  it('turns a song into a track with featured artists after the main ones and no duplicates', () => {
    const track = songToTrack({
      id: '1',
      type: 'songs',
      attributes: {
        name: 'Together (feat. Leo Park & Ana Ruiz)',
        artistName: 'Maya Stone & Leo Park',
        albumName: 'Together - EP',
        durationInMillis: 1000,
        genreNames: ['Pop', 'Music'],
        contentRating: 'clean',
      },
    });
    expect(track).toMatchObject({
      name: 'Together',
      artists: ['Maya Stone', 'Leo Park', 'Ana Ruiz'],
      album: 'Together',
      albumType: 'single',
      explicit: false,
      genres: ['Pop'],
      availability: { playable: false },
    });
  });
});
