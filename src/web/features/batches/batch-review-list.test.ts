import { describe, expect, it } from 'vitest';
import { needsText } from './batch-review-list';

describe('what a batch review says it holds', () => {
  it('names rows in review and rows with no match, for one and for several', () => {
    expect(needsText(2, 12, 'Apple Music')).toBe(
      '2 tracks in review and 12 with no match in Apple Music, across your playlists.',
    );
    expect(needsText(0, 12, 'Apple Music')).toBe(
      '12 tracks with no match in Apple Music, across your playlists.',
    );
    expect(needsText(1, 0, 'Spotify')).toBe('1 track in review, across your playlists.');
    expect(needsText(0, 1, 'Spotify')).toBe('1 track with no match in Spotify, across your playlists.');
  });
});
