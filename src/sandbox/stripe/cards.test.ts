import { describe, expect, it } from 'vitest';
import { checkCard } from './cards';

const form = (
  number: string,
  extra: Partial<Record<'expiry' | 'cvc' | 'name' | 'postalCode' | 'country', string>> = {},
) => ({
  number,
  expiry: '12 / 34',
  cvc: '123',
  name: 'Test Person',
  postalCode: '94107',
  country: 'US',
  ...extra,
});

const now = new Date('2026-11-27T12:00:00Z');

describe('checkCard', () => {
  it('accepts Stripe’s succeeding test cards, and 0341 as one whose later charges fail', () => {
    expect(checkCard(form('4242 4242 4242 4242'), now)).toMatchObject({
      ok: true,
      brand: 'visa',
      last4: '4242',
      behaviour: 'succeeds',
    });
    expect(checkCard(form('4000 0000 0000 0341'), now)).toMatchObject({
      ok: true,
      behaviour: 'charges_fail',
    });
    expect(checkCard(form('3782 822463 10005', { cvc: '1234' }), now)).toMatchObject({
      ok: true,
      brand: 'amex',
    });
  });

  it('declines with Stripe’s messages', () => {
    expect(checkCard(form('4000 0000 0000 0002'), now)).toMatchObject({
      ok: false,
      message: 'Your card was declined.',
      declineCode: 'generic_decline',
    });
    expect(checkCard(form('4000000000009995'), now)).toMatchObject({
      message: 'Your card has insufficient funds.',
    });
    expect(checkCard(form('4000000000000069'), now)).toMatchObject({ message: 'Your card has expired.' });
    // A real card number in test mode.
    expect(checkCard(form('4111 1111 1111 1111'), now)).toMatchObject({
      ok: false,
      message: expect.stringContaining('Your request was in test mode, but used a non test (live) card.'),
    });
  });

  it('checks the fields in the order the form shows them', () => {
    expect(checkCard(form('4242'), now)).toMatchObject({
      field: 'number',
      message: 'Your card number is incomplete.',
    });
    expect(checkCard(form('4242 4242 4242 4243'), now)).toMatchObject({
      field: 'number',
      message: 'Your card number is invalid.',
    });
    expect(checkCard(form('4242424242424242', { expiry: '10 / 26' }), now)).toMatchObject({
      field: 'expiry',
      message: "Your card's expiration date is in the past.",
    });
    expect(checkCard(form('4242424242424242', { expiry: '13 / 30' }), now)).toMatchObject({
      field: 'expiry',
    });
    expect(checkCard(form('4242424242424242', { cvc: '12' }), now)).toMatchObject({ field: 'cvc' });
    expect(checkCard(form('4242424242424242', { name: ' ' }), now)).toMatchObject({ field: 'name' });
    expect(checkCard(form('4242424242424242', { postalCode: '' }), now)).toMatchObject({
      field: 'postalCode',
    });
    expect(checkCard(form('4242424242424242', { postalCode: '', country: 'DE' }), now)).toMatchObject({
      ok: true,
    });
  });
});
