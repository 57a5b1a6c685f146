import { describe, expect, it } from 'vitest';
import { noMatchText } from './match-list';

describe('a match row without a match', () => {
  it('says the song is probably not on the service when the engine found nothing worth proposing', () => {
    expect(noMatchText({ status: 'unmatched', decidedBy: 'engine' }, 'Apple Music')).toBe(
      'Probably not on Apple Music',
    );
  });

  it('does not guess for a row the person skipped or a file entry that is no song', () => {
    expect(noMatchText({ status: 'skipped', decidedBy: 'person' }, 'Spotify')).toBe('No match in Spotify');
    expect(noMatchText({ status: 'skipped', decidedBy: 'engine' }, 'Spotify')).toBe('No match in Spotify');
  });
});
