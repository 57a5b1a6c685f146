import { describe, expect, it } from 'vitest';
import { NOT_PLAYABLE_HERE_REASON, notAddedReason } from './transfer';

describe('notAddedReason', () => {
  it('never explains a missing match with the closest candidate’s reasons', () => {
    const unmatched = { status: 'unmatched', decidedBy: 'engine', reasons: ['same title'] } as const;
    expect(notAddedReason({ ...unmatched, closestConfidence: 41.6 })).toBe(
      'No confident match (the closest candidate scored 42%)',
    );
    expect(notAddedReason({ ...unmatched, reasons: [], closestConfidence: null })).toBe(
      'Not found on the destination',
    );
    expect(
      notAddedReason({ ...unmatched, reasons: [NOT_PLAYABLE_HERE_REASON], closestConfidence: null }),
    ).toBe('On the destination, but not playable in your country');
  });

  it('tells a skip by the person from a source item that cannot be transferred', () => {
    expect(
      notAddedReason({
        status: 'skipped',
        decidedBy: 'person',
        reasons: ['same title'],
        closestConfidence: 90,
      }),
    ).toBe('Skipped by you');
    expect(
      notAddedReason({
        status: 'skipped',
        decidedBy: 'engine',
        reasons: ['A local file'],
        closestConfidence: null,
      }),
    ).toBe('A local file');
  });

  it('says a review row waits for the person', () => {
    expect(
      notAddedReason({
        status: 'review',
        decidedBy: 'engine',
        reasons: ['same title'],
        closestConfidence: 74,
      }),
    ).toBe('Waiting for your review: not added until you accept it');
  });
});
