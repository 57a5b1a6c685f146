import { describe, expect, it } from 'vitest';
import { NOT_PLAYABLE_HERE_REASON } from '../../../../shared/api/transfer';
import { noMatchText } from './match-list';

describe('a match row without a match', () => {
  it('says the song is probably not on the service when the engine found nothing worth proposing', () => {
    expect(noMatchText({ status: 'unmatched', decidedBy: 'engine', reasons: [] }, 'Apple Music')).toBe(
      'Probably not on Apple Music',
    );
  });

  it('says the service has the song but not where the person is, when that is why', () => {
    expect(
      noMatchText(
        { status: 'unmatched', decidedBy: 'engine', reasons: [NOT_PLAYABLE_HERE_REASON] },
        'Apple Music',
      ),
    ).toBe('Not playable in your country on Apple Music');
  });

  it('does not guess for a row the person skipped or a file entry that is no song', () => {
    expect(noMatchText({ status: 'skipped', decidedBy: 'person', reasons: [] }, 'Spotify')).toBe(
      'No match in Spotify',
    );
    expect(
      noMatchText({ status: 'skipped', decidedBy: 'engine', reasons: ['A local file'] }, 'Spotify'),
    ).toBe('No match in Spotify');
  });
});
