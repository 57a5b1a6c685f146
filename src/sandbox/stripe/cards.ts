import type { CardBehaviour } from './state';

/**
 * Stripe's test cards, as its test mode reads them: numbers that succeed, numbers declined with a given
 * reason (the messages are Stripe's), 4000 0000 0000 0341 that attaches but whose later charges fail, and
 * any real card number refused because this is test mode.
 */
interface TestCard {
  brand: 'visa' | 'mastercard' | 'amex' | 'discover';
  funding: 'credit' | 'debit';
  outcome:
    | { kind: 'accepted'; behaviour: CardBehaviour }
    | { kind: 'declined'; code: string; message: string };
}

const accepted = (behaviour: CardBehaviour = 'succeeds') => ({ kind: 'accepted' as const, behaviour });
const declined = (code: string, message: string) => ({ kind: 'declined' as const, code, message });

export const DECLINED = 'Your card was declined.';

const TEST_CARDS: Record<string, TestCard> = {
  '4242424242424242': { brand: 'visa', funding: 'credit', outcome: accepted() },
  '4000056655665556': { brand: 'visa', funding: 'debit', outcome: accepted() },
  '4012888888881881': { brand: 'visa', funding: 'credit', outcome: accepted() },
  '5555555555554444': { brand: 'mastercard', funding: 'credit', outcome: accepted() },
  '5200828282828210': { brand: 'mastercard', funding: 'debit', outcome: accepted() },
  '5105105105105100': { brand: 'mastercard', funding: 'credit', outcome: accepted() },
  '378282246310005': { brand: 'amex', funding: 'credit', outcome: accepted() },
  '6011111111111117': { brand: 'discover', funding: 'credit', outcome: accepted() },
  '4000000000000341': { brand: 'visa', funding: 'credit', outcome: accepted('charges_fail') },
  '4000000000000002': { brand: 'visa', funding: 'credit', outcome: declined('generic_decline', DECLINED) },
  '4000000000009995': {
    brand: 'visa',
    funding: 'credit',
    outcome: declined('insufficient_funds', 'Your card has insufficient funds.'),
  },
  '4000000000009987': { brand: 'visa', funding: 'credit', outcome: declined('lost_card', DECLINED) },
  '4000000000009979': { brand: 'visa', funding: 'credit', outcome: declined('stolen_card', DECLINED) },
  '4000000000000069': {
    brand: 'visa',
    funding: 'credit',
    outcome: declined('expired_card', 'Your card has expired.'),
  },
  '4000000000000127': {
    brand: 'visa',
    funding: 'credit',
    outcome: declined('incorrect_cvc', "Your card's security code is incorrect."),
  },
  '4000000000000119': {
    brand: 'visa',
    funding: 'credit',
    outcome: declined(
      'processing_error',
      'An error occurred while processing your card. Try again in a little bit.',
    ),
  },
  '4242424242424241': {
    brand: 'visa',
    funding: 'credit',
    outcome: declined('incorrect_number', 'Your card number is incorrect.'),
  },
};

/** Cards that ask for 3D Secure: a challenge the sandbox does not show. */
const THREE_D_SECURE = new Set([
  '4000002500003155',
  '4000002760003184',
  '4000000000003220',
  '4000008400001629',
]);

export interface CardForm {
  number: string;
  expiry: string;
  cvc: string;
  name: string;
  postalCode: string;
  country: string;
}

export type CardField = 'number' | 'expiry' | 'cvc' | 'name' | 'postalCode';

export type CardCheck =
  | {
      ok: true;
      last4: string;
      brand: TestCard['brand'];
      funding: TestCard['funding'];
      expMonth: number;
      expYear: number;
      behaviour: CardBehaviour;
    }
  | { ok: false; field: CardField; message: string; declineCode?: string };

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function readExpiry(text: string, now: Date): { month: number; year: number } | { message: string } {
  const match = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!match) return { message: "Your card's expiration date is incomplete." };
  const month = Number(match[1]);
  const year = Number(match[2]) < 100 ? 2000 + Number(match[2]) : Number(match[2]);
  if (month < 1 || month > 12) return { message: "Your card's expiration date is invalid." };
  const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
  if (year * 12 + (month - 1) < thisMonth) return { message: "Your card's expiration date is in the past." };
  if (year > now.getUTCFullYear() + 50) return { message: "Your card's expiration year is invalid." };
  return { month, year };
}

/** Checks the card fields in the order Stripe's form does, then what the test number says. */
export function checkCard(form: CardForm, now = new Date()): CardCheck {
  const digits = form.number.replace(/[\s-]/g, '');
  if (!/^\d*$/.test(digits)) return { ok: false, field: 'number', message: 'Your card number is invalid.' };
  if (digits.length < 15) return { ok: false, field: 'number', message: 'Your card number is incomplete.' };
  if (digits.length > 19 || !luhn(digits)) {
    if (digits === '4242424242424241')
      return {
        ok: false,
        field: 'number',
        message: 'Your card number is incorrect.',
        declineCode: 'incorrect_number',
      };
    return { ok: false, field: 'number', message: 'Your card number is invalid.' };
  }
  const expiry = readExpiry(form.expiry, now);
  if ('message' in expiry) return { ok: false, field: 'expiry', message: expiry.message };
  const card = TEST_CARDS[digits];
  const cvcLength = card?.brand === 'amex' ? 4 : 3;
  if (!new RegExp(`^\\d{${cvcLength}}$`).test(form.cvc.trim())) {
    return { ok: false, field: 'cvc', message: "Your card's security code is incomplete." };
  }
  if (form.name.trim() === '') return { ok: false, field: 'name', message: 'Enter the name on your card.' };
  if (form.country === 'US' && !/^\d{5}(-\d{4})?$/.test(form.postalCode.trim())) {
    return { ok: false, field: 'postalCode', message: 'Your ZIP is incomplete.' };
  }
  if (THREE_D_SECURE.has(digits)) {
    return {
      ok: false,
      field: 'number',
      message:
        'This test card asks for 3D Secure authentication, which the Crossfade sandbox does not emulate. Use 4242 4242 4242 4242.',
    };
  }
  if (!card) {
    return {
      ok: false,
      field: 'number',
      message: `${DECLINED} Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.`,
      declineCode: 'live_mode_test_card',
    };
  }
  if (card.outcome.kind === 'declined') {
    return { ok: false, field: 'number', message: card.outcome.message, declineCode: card.outcome.code };
  }
  return {
    ok: true,
    last4: digits.slice(-4),
    brand: card.brand,
    funding: card.funding,
    expMonth: expiry.month,
    expYear: expiry.year,
    behaviour: card.outcome.behaviour,
  };
}
