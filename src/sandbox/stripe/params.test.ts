import { describe, expect, it } from 'vitest';
import { StripeApiError } from './errors';
import {
  array,
  boolean,
  integer,
  metadata,
  object,
  oneOf,
  optional,
  parseForm,
  readParams,
  string,
} from './params';

const errorOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof StripeApiError) return error.toBody().error;
    throw error;
  }
  throw new Error('no error');
};

describe('parseForm', () => {
  it('reads bracketed keys into objects and arrays, as the stripe client writes them', () => {
    const form = parseForm(
      'line_items[0][price]=price_1&line_items[0][quantity]=1&expand[]=a&expand[]=b&metadata[user]=u%201&mode=subscription',
    );
    expect(form).toEqual({
      line_items: [{ price: 'price_1', quantity: '1' }],
      expand: ['a', 'b'],
      metadata: { user: 'u 1' },
      mode: 'subscription',
    });
  });

  it('refuses a key that is both a value and an object', () => {
    expect(errorOf(() => parseForm('a=1&a[b]=2'))).toMatchObject({ type: 'invalid_request_error' });
  });
});

describe('readParams', () => {
  const shape = {
    mode: oneOf(['payment', 'subscription'] as const),
    quantity: optional(integer(1, 10)),
    live: optional(boolean()),
    metadata: optional(metadata()),
    items: optional(array(object({ price: string() }))),
  };

  it('types what it reads and accepts expand[] everywhere', () => {
    expect(
      readParams(shape, parseForm('mode=subscription&quantity=2&live=false&items[0][price]=p&expand[0]=x')),
    ).toEqual({
      mode: 'subscription',
      quantity: 2,
      live: false,
      items: [{ price: 'p' }],
      expand: ['x'],
    });
  });

  it('names the parameter that is unknown, missing, empty or of the wrong kind', () => {
    expect(errorOf(() => readParams(shape, parseForm('mode=subscription&colour=red')))).toMatchObject({
      code: 'parameter_unknown',
      param: 'colour',
      message: 'Received unknown parameter: colour',
    });
    expect(
      errorOf(() => readParams(shape, parseForm('mode=subscription&items[0][price]=p&items[0][x]=1'))),
    ).toMatchObject({
      code: 'parameter_unknown',
      param: 'items[0][x]',
    });
    expect(errorOf(() => readParams(shape, parseForm('quantity=2')))).toMatchObject({
      code: 'parameter_missing',
      param: 'mode',
    });
    expect(errorOf(() => readParams(shape, parseForm('mode=')))).toMatchObject({
      code: 'parameter_invalid_empty',
    });
    expect(errorOf(() => readParams(shape, parseForm('mode=subscription&quantity=two')))).toMatchObject({
      code: 'parameter_invalid_integer',
      message: 'Invalid integer: two',
    });
    expect(errorOf(() => readParams(shape, parseForm('mode=setup')))).toMatchObject({
      message: 'Invalid mode: must be one of payment, or subscription',
    });
  });
});
