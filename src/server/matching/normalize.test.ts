import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldText, unifyText } from './normalize';

describe('foldText', () => {
  it.each([
    ['Beyoncé', 'beyonce'],
    ['BEYONCE', 'beyonce'],
    ['Sigur Rós', 'sigur ros'],
    ['Motörhead', 'motorhead'],
    ['Straße', 'strasse'],
    ['Don’t Stop Me Now', 'dont stop me now'],
    ["Don't Stop Me Now", 'dont stop me now'],
    ['Simon & Garfunkel', 'simon and garfunkel'],
    ['Simon and Garfunkel', 'simon and garfunkel'],
    ['Florence + the Machine', 'florence and the machine'],
    ['Ki &amp; Ka', 'ki and ka'],
    ['  Hello,   World!! ', 'hello world'],
    ['Ｆｕｌｌｗｉｄｔｈ', 'fullwidth'],
  ])('folds %j to %j', (input, expected) => {
    expect(foldText(input)).toBe(expected);
  });

  it.each([
    ['夜に駆ける', '夜に駆ける'],
    ['빨간 맛 (Red Flavor)', '빨간 맛 red flavor'],
    ['Кино — Группа крови', 'кино группа крови'],
    ['ภาษาไทย', 'ภาษาไทย'],
    ['שלום', 'שלום'],
  ])('keeps non-Latin scripts: %j', (input, expected) => {
    expect(foldText(input)).toBe(expected);
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (s) => {
        const once = foldText(s);
        expect(foldText(once)).toBe(once);
      }),
      { numRuns: 500 },
    );
  });

  it('never folds a string with letters to nothing', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }), (s) => {
        // U+02BC is a letter by Unicode but an apostrophe in practice, and apostrophes fold away.
        if (/[\p{L}\p{N}]/u.test(s.replace(/\u02BC/gu, ''))) expect(foldText(s)).not.toBe('');
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('unifyText', () => {
  it('unifies dashes and quotes but keeps case and accents for searches', () => {
    expect(unifyText('Beyoncé – “Halo”')).toBe('Beyoncé - "Halo"');
    expect(unifyText('Rock &amp; Roll')).toBe('Rock & Roll');
  });
});
