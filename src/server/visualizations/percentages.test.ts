import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { largestRemainderPercentages } from './percentages';

describe('largestRemainderPercentages', () => {
  it('rounds thirds so they still add up to 100', () => {
    expect(largestRemainderPercentages([1, 1, 1])).toEqual([34, 33, 33]);
    expect(largestRemainderPercentages([2, 1])).toEqual([67, 33]);
  });

  it('gives zeros when there is nothing to share', () => {
    expect(largestRemainderPercentages([0, 0])).toEqual([0, 0]);
  });

  it('always sums to exactly 100 and never moves a share by a whole point', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1000, noNaN: true }), { minLength: 1, maxLength: 12 }),
        (weights) => {
          const sum = weights.reduce((a, b) => a + b, 0);
          fc.pre(sum > 1e-9);
          const result = largestRemainderPercentages(weights);
          expect(result.reduce((a, b) => a + b, 0)).toBe(100);
          result.forEach((value, index) => {
            expect(Math.abs(value - ((weights[index] ?? 0) / sum) * 100)).toBeLessThan(1);
          });
        },
      ),
    );
  });
});
