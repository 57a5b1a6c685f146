import { describe, expect, it } from 'vitest';
import { jsonPieces, LazyObject, lazyObject, PagedArray } from './json-stream';

async function* pagesOf<T>(pages: T[][]) {
  for (const page of pages) yield page;
}

async function written(value: unknown) {
  let text = '';
  for await (const piece of jsonPieces(value)) text += piece;
  return text;
}

describe('jsonPieces', () => {
  it('writes what JSON.stringify writes for the same values, with lists a page at a time', async () => {
    const at = new Date(Date.UTC(2026, 10, 27, 12, 0, 0, 5));
    const items = [
      { a: 1, b: undefined, c: at },
      null,
      'x\u2028"y"',
      [undefined, () => 1],
      { nested: { d: -0 } },
    ];
    const plain = {
      first: 'é',
      skipped: undefined,
      list: items,
      empty: [],
      nested: { inner: items.slice(0, 2), n: 1e21, f: () => 1 },
      last: true,
    };
    const lazy = new LazyObject([
      ['first', 'é'],
      ['skipped', undefined],
      ['list', new PagedArray(pagesOf([items.slice(0, 2), [], items.slice(2)]))],
      ['empty', new PagedArray(pagesOf([]))],
      [
        'nested',
        lazyObject({
          inner: new PagedArray(pagesOf([items.slice(0, 1), items.slice(1, 2)])),
          n: 1e21,
          f: () => 1,
        }),
      ],
      ['last', true],
    ]);
    expect(await written(lazy)).toBe(JSON.stringify(plain));
  });

  it('writes lazy items inside a paged list (a sync and its runs)', async () => {
    const runs = [{ id: 'r1' }, { id: 'r2' }];
    const syncs = new PagedArray(
      pagesOf([[lazyObject({ id: 's1', runs: new PagedArray(pagesOf([runs])) }), { id: 's2', runs: [] }]]),
    );
    expect(await written(lazyObject({ syncs }))).toBe(
      JSON.stringify({
        syncs: [
          { id: 's1', runs },
          { id: 's2', runs: [] },
        ],
      }),
    );
  });

  it('yields a page of items as one piece, so a list is written as it is read', async () => {
    const pieces: string[] = [];
    for await (const piece of jsonPieces(new PagedArray(pagesOf([[1, 2], [3]])))) pieces.push(piece);
    expect(pieces).toEqual(['[', '1,2', ',3', ']']);
  });
});
