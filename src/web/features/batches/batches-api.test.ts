import { describe, expect, it } from 'vitest';
import { movedSince } from './batches-api';

describe('a batch has finished moving since the last read', () => {
  it('when it was being moved and has stopped', () => {
    expect(movedSince('transferring', 'done')).toBe(true);
    expect(movedSince('transferring', 'failed')).toBe(true);
  });

  it('when it was waiting for review and is already done (moved between two reads)', () => {
    expect(movedSince('review', 'done')).toBe(true);
  });

  it('not while it is matched or moved, not on the first read, not when it was already done', () => {
    expect(movedSince('review', 'transferring')).toBe(false);
    expect(movedSince('matching', 'review')).toBe(false);
    expect(movedSince(undefined, 'done')).toBe(false);
    expect(movedSince('done', 'done')).toBe(false);
  });
});
