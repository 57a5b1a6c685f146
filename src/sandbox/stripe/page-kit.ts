import type { Context } from 'hono';
import type { Engine } from './billing';
import type { CardForm, checkCard } from './cards';
import { nowFor } from './clock';
import { NO_CAUSE, recordEvent } from './events';
import { newId } from './ids';
import { html, page, topBar } from './pages/layout';
import type { PaymentMethodRecord, StripeState, StripeStore } from './state';
import { customer as customerWire, type PageUrls, paymentMethod as paymentMethodWire } from './wire';

/** What the hosted pages (checkout, portal, invoices) share: their options, form reading, cards, answers. */
export interface HostedPagesOptions {
  store: StripeStore;
  urls: PageUrls;
  /** Path of these pages below the origin (`/sandbox/stripe`), for form actions. */
  basePath: string;
  changed(): void;
}

/** Changes made from a page have no API request behind them (`event.request` is null), as on Stripe. */
export const pageEngine = (urls: PageUrls): Engine => ({ urls, cause: NO_CAUSE });

export function send(c: Context, rendered: { html: string; status: number }) {
  c.header('Cache-Control', 'no-store');
  return c.html(rendered.html, rendered.status as 200);
}

export async function readFields(c: Context): Promise<Record<string, string>> {
  const body = await c.req.parseBody();
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    if (typeof value === 'string') out[key] = value.slice(0, 500);
  }
  return out;
}

export const cardFormOf = (fields: Record<string, string>): CardForm => ({
  number: fields.number ?? '',
  expiry: fields.expiry ?? '',
  cvc: fields.cvc ?? '',
  name: fields.name ?? '',
  postalCode: fields.postalCode ?? '',
  country: fields.country ?? 'US',
});

export type AcceptedCard = Extract<ReturnType<typeof checkCard>, { ok: true }>;

/** A card the form accepted becomes the customer's payment method and their default one. */
export function attachCard(
  state: StripeState,
  customerId: string,
  form: CardForm,
  card: AcceptedCard,
  email: string | null,
): PaymentMethodRecord {
  const record: PaymentMethodRecord = {
    id: newId('paymentMethod'),
    created: nowFor(state, customerId),
    customer: customerId,
    brand: card.brand,
    last4: card.last4,
    expMonth: card.expMonth,
    expYear: card.expYear,
    funding: card.funding,
    country: form.country,
    name: form.name.trim(),
    email,
    postalCode: form.postalCode.trim() || null,
    behaviour: card.behaviour,
  };
  state.paymentMethods[record.id] = record;
  const customer = state.customers[customerId];
  if (customer) {
    const previous = { invoice_settings: { default_payment_method: customer.defaultPaymentMethod } };
    customer.defaultPaymentMethod = record.id;
    recordEvent(state, 'payment_method.attached', paymentMethodWire(record), NO_CAUSE);
    recordEvent(state, 'customer.updated', customerWire(customer), NO_CAUSE, previous);
  }
  return record;
}

export function notFoundPage() {
  return page(
    'Not found',
    html`${topBar('Crossfade')}<main><div class="panel"><h1>This page does not exist.</h1></div></main>`,
    { status: 404 },
  );
}
