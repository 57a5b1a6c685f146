import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { levenshtein, similarity } from './similarity';

describe('levenshtein', () => {
  it.each([
    ['kitten', 'sitting', 3],
    ['', 'abc', 3],
    ['same', 'same', 0],
    ['夜に駆ける', '夜に駆けろ', 1],
  ])('%j → %j is %i edits', (a, b, expected) => {
    expect(levenshtein(a, b)).toBe(expected);
  });

  it('stops at the limit with the same answer in both directions', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.string({ maxLength: 30 }), fc.nat(10), (a, b, limit) => {
        const full = levenshtein(a, b);
        expect(levenshtein(a, b, limit)).toBe(Math.min(full, limit + 1));
        expect(levenshtein(b, a, limit)).toBe(levenshtein(a, b, limit));
      }),
    );
  });
});

describe('similarity', () => {
  it('rates a title inside a longer one above its edit distance', () => {
    expect(similarity('song', 'song pt 2')).toBeGreaterThan(1 - levenshtein('song', 'song pt 2') / 9);
    expect(similarity('one', 'someone')).toBeLessThan(0.6);
  });

  it('is 1 only for equal non-empty strings and 0 against nothing', () => {
    expect(similarity('yellow', 'yellow')).toBe(1);
    expect(similarity('yellow', 'yelow')).toBeLessThan(1);
    expect(similarity('', '')).toBe(0);
    expect(similarity('yellow', '')).toBe(0);
  });
});
