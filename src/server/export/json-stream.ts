/**
 * A JSON document written piece by piece, byte for byte what `JSON.stringify` writes for the same values
 * (no spaces; keys in their order; a key whose value is undefined left out, an undefined item as null;
 * dates through their `toJSON`), where arrays that could be long are read a page at a time (decision 0042).
 */

/** An array whose items come a page at a time; items may themselves be lazy. */
export class PagedArray {
  constructor(readonly pages: AsyncIterable<readonly unknown[]>) {}
}

/** An object whose values may be lazy (`PagedArray`, `LazyObject`); its keys in the given order. */
export class LazyObject {
  constructor(readonly entries: readonly (readonly [string, unknown])[]) {}
}

/** An object of the given entries; any plain value is written as `JSON.stringify` writes it. */
export const lazyObject = (value: Record<string, unknown>) => new LazyObject(Object.entries(value));

/** The pieces of the document: a page of items is one piece. */
export async function* jsonPieces(value: unknown): AsyncGenerator<string> {
  if (value instanceof PagedArray) {
    yield '[';
    let first = true;
    for await (const page of value.pages) {
      let text = '';
      for (const item of page) {
        if (!first) text += ',';
        first = false;
        if (isLazy(item)) {
          if (text) yield text;
          text = '';
          yield* jsonPieces(item);
        } else text += JSON.stringify(item) ?? 'null';
      }
      if (text) yield text;
    }
    yield ']';
    return;
  }
  if (value instanceof LazyObject) {
    yield '{';
    let first = true;
    for (const [key, item] of value.entries) {
      const plain = isLazy(item) ? undefined : JSON.stringify(item);
      if (!isLazy(item) && plain === undefined) continue;
      yield `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      if (plain === undefined) yield* jsonPieces(item);
      else yield plain;
    }
    yield '}';
    return;
  }
  yield JSON.stringify(value) ?? 'null';
}

const isLazy = (value: unknown) => value instanceof PagedArray || value instanceof LazyObject;
