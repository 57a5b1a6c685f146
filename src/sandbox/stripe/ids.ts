import { randomBytes } from 'node:crypto';

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function randomAlphanumeric(length: number): string {
  let out = '';
  while (out.length < length) {
    // 248 is the largest multiple of 62 below 256: dropping higher bytes keeps every character equally likely.
    for (const byte of randomBytes(length))
      if (byte < 248 && out.length < length) out += ALPHANUMERIC[byte % 62];
  }
  return out;
}

/**
 * Ids with Stripe's prefixes and lengths, so code that checks a prefix (`cus_`, `sub_`…) or stores ids in
 * columns sized for Stripe's sees the same shapes. Checkout Session ids carry test mode's `cs_test_`.
 */
const PREFIXES = {
  customer: ['cus_', 14],
  product: ['prod_', 14],
  price: ['price_', 24],
  checkoutSession: ['cs_test_', 58],
  portalSession: ['bps_', 24],
  portalConfiguration: ['bpc_', 24],
  subscription: ['sub_', 24],
  subscriptionItem: ['si_', 14],
  invoice: ['in_', 24],
  invoiceLine: ['il_', 24],
  paymentMethod: ['pm_', 24],
  event: ['evt_', 24],
  webhookEndpoint: ['we_', 24],
  webhookSecret: ['whsec_', 32],
  testClock: ['clock_', 24],
  request: ['req_', 14],
  secretKey: ['sk_test_', 99],
} as const satisfies Record<string, readonly [string, number]>;

export type IdKind = keyof typeof PREFIXES;

export function newId(kind: IdKind): string {
  const [prefix, length] = PREFIXES[kind];
  return `${prefix}${randomAlphanumeric(length)}`;
}

/** The secret part of a hosted page's address (checkout, portal): unguessable, like Stripe's. */
export function pageToken(): string {
  return randomBytes(24).toString('base64url');
}
