import { describe, expect, it } from 'vitest';
import { playlistTrackCountText } from './playlists';

describe('playlistTrackCountText', () => {
  it('shows a count the service gave as it is', () => {
    expect(playlistTrackCountText({ trackCount: 1 })).toBe('1 track');
    expect(playlistTrackCountText({ trackCount: 250, trackCountUnknown: false })).toBe('250 tracks');
  });

  it('never shows a lower bound as the count (Apple without meta.total)', () => {
    expect(playlistTrackCountText({ trackCount: 201, trackCountUnknown: true })).toBe('201+ tracks');
  });
});
