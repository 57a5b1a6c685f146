import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasOtherScript, scriptFreeKey, scriptHalves, transliterate } from './scripts';
import { similarity } from './similarity';

describe('hasOtherScript', () => {
  it.each([
    ['Москва', true],
    ['Χριστούγεννα', true],
    ['강남스타일', true],
    ['ハルカ', true],
    ['梦蝶', true],
    ['Beyoncé', false],
    ['Sigur Rós – 1999!', false],
    ['', false],
  ])('%j: %s', (text, expected) => {
    expect(hasOtherScript(text)).toBe(expected);
  });
});

describe('transliterate', () => {
  it.each([
    ['Москва любит...', 'Moskva lyubit...'],
    ['ХОТБОКС', 'KhOTBOKS'],
    ['ギラギラ', 'giragira'],
    ['梦蝶 - Dream to be a butterfly', 'Meng Die - Dream to be a butterfly'],
    ['강남스타일', 'Gang Nam Seu Ta Il'],
    // A word mixing scripts stays one word.
    ['Jессие', 'Jessie'],
    ['McCartney', 'McCartney'],
  ])('%j → %j', (text, expected) => {
    expect(transliterate(text)).toBe(expected);
  });

  it('leaves text in Latin letters as it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii' }), (text) => transliterate(text) === text),
      { seed: 24 },
    );
  });
});

describe('scriptFreeKey', () => {
  // Each pair: a name as one storefront writes it and as another romanizes it, by several conventions.
  it.each([
    ['Нету интереса', 'Netu interesa'],
    ['Неправильно', 'Nepravylno'],
    ['Колхозник', 'Kolhoznik'],
    ['Жизнь', "Zhizn'"],
    ['Голодный пёс', 'Golodnyy Pyos'],
    ['ТЫ ГОРИШЬ КАК ОГОНЬ', 'TY GORISh KAK OGON'],
    ['Венера-Юпитер', 'Venera-Iupiter'],
    ['ひとりじゃない', 'Hitoriziyanai'],
    ['ドライフラワー', 'doraifurawa'],
    ['약속', 'Yaksok'],
    ['약속', 'Yagsog'],
    ['달리', 'Dalri'],
    ['어스름', 'eoseureum'],
    ['梦蝶', 'Meng Die'],
    ['神奇的糊塗魔藥', 'Shen Qi De Hu Tu Mo Yao'],
  ])('%j and %j agree', (native, latin) => {
    expect(scriptFreeKey(native)).toBe(scriptFreeKey(latin));
  });

  it.each([
    ['Москва', 'Moscow Nights'],
    ['Зима', 'Leto'],
    ['ハルカ', 'Hikari'],
    ['사랑', 'Yaksok'],
    ['梦蝶', 'Hua Die'],
  ])('keeps different names apart: %j and %j', (native, latin) => {
    expect(similarity(scriptFreeKey(native), scriptFreeKey(latin))).toBeLessThan(0.8);
  });

  it('makes a Cyrillic name and its own transliteration agree, whatever the letters', () => {
    const cyrillic = fc.stringMatching(/^[А-ЯЁа-яё]{2,12}( [А-ЯЁа-яё]{2,12}){0,3}$/);
    fc.assert(
      fc.property(cyrillic, (name) => scriptFreeKey(name) === scriptFreeKey(transliterate(name))),
      { seed: 24, numRuns: 300 },
    );
  });
});

describe('scriptHalves', () => {
  it('splits a name written in two scripts into its halves', () => {
    expect(scriptHalves('WHAT WE DREW 우리가 그려왔던').map((half) => half.trim())).toEqual([
      'WHAT WE DREW',
      '우리가 그려왔던',
    ]);
    expect(scriptHalves('박혜진 Park Hye Jin').map((half) => half.trim())).toEqual([
      'Park Hye Jin',
      '박혜진',
    ]);
  });

  it('has nothing to split in a name of one script, nor a half of a letter or two', () => {
    expect(scriptHalves('Москва')).toEqual([]);
    expect(scriptHalves('Yellow')).toEqual([]);
    expect(scriptHalves('A 사랑해요').map((half) => half.trim())).toEqual(['사랑해요']);
  });
});
