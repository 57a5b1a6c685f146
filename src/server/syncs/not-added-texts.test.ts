import { describe, expect, it } from 'vitest';
import { NOT_PLAYABLE_HERE_REASON } from '../../shared/api/transfer';
import { notAddedReason } from './sync-run-job';
import { notCopiedReason } from './two-way-match';

/** The sync pages' words for a song left out: "not found" only for a song the service does not list. */
describe('why a sync left a song out', () => {
  const unmatched = { status: 'unmatched', decidedBy: 'engine' } as const;

  it('says a song the service lists only where the person cannot play it is there, but not playable', () => {
    const locked = { ...unmatched, reasons: [NOT_PLAYABLE_HERE_REASON, 'no confident match'] };
    expect(notCopiedReason(locked, 'apple')).toBe('On Apple Music, but not playable in your country');
    expect(notAddedReason(locked)).toBe('Not playable in your country');
  });

  it('says not found for a song the service does not list, and keeps the other reasons', () => {
    const absent = { ...unmatched, reasons: ['no candidates found'] };
    expect(notCopiedReason(absent, 'spotify')).toBe('Not found on Spotify');
    expect(notAddedReason(absent)).toBe('Not found');
    const ruled = { status: 'skipped', decidedBy: 'person' } as const;
    expect(notCopiedReason({ ...ruled, reasons: [] }, 'apple')).toBe('Your rule: not on Apple Music');
    expect(notAddedReason({ ...ruled, reasons: [] })).toBe('Your rule: not on this service');
  });
});
