import type { CardField, CardForm } from '../cards';
import { formatMoney } from '../format';
import type { CheckoutSessionRecord, StripeState } from '../state';
import { type Html, html, page, per, topBar } from './layout';

/**
 * Stripe Checkout's hosted page for a subscription: what is bought and for how much on one side, the
 * e-mail and card form on the other. A refused card comes back on the same page with Stripe's message,
 * announced to screen readers and linked to its field.
 */
export interface CheckoutFormState {
  values: CardForm & { email: string };
  error: { field: CardField | 'email' | null; message: string } | null;
}

const COUNTRIES: [string, string][] = [
  ['US', 'United States'],
  ['DE', 'Germany'],
  ['JP', 'Japan'],
  ['GB', 'United Kingdom'],
  ['FR', 'France'],
  ['CA', 'Canada'],
  ['AU', 'Australia'],
];

export function emptyCheckoutForm(email: string): CheckoutFormState {
  return {
    values: { email, number: '', expiry: '', cvc: '', name: '', postalCode: '', country: 'US' },
    error: null,
  };
}

function field(
  form: CheckoutFormState,
  name: CardField | 'email',
  label: string,
  input: {
    type?: string;
    autocomplete: string;
    inputmode?: string;
    placeholder?: string;
    value: string;
    required?: boolean;
  },
): Html {
  const invalid = form.error?.field === name;
  const id = `field-${name}`;
  return html`<label for="${id}">${label}</label>
<input id="${id}" name="${name}" type="${input.type ?? 'text'}" autocomplete="${input.autocomplete}"${input.inputmode ? html` inputmode="${input.inputmode}"` : ''}${input.placeholder ? html` placeholder="${input.placeholder}"` : ''} value="${input.value}"${input.required === false ? '' : ' required'}${invalid ? html` aria-invalid="true" aria-describedby="checkout-error" autofocus` : ''}>`;
}

export function checkoutPage(
  state: StripeState,
  session: CheckoutSessionRecord,
  form: CheckoutFormState,
  action: string,
) {
  const item = session.lineItems[0];
  const price = item ? state.prices[item.price] : undefined;
  const product = price ? state.products[price.product] : undefined;
  if (!price || !product)
    return page(
      'Checkout unavailable',
      html`<main><p>This Checkout Session has nothing to pay for.</p></main>`,
      { status: 404 },
    );
  const amount = formatMoney(price.unitAmount, price.currency);
  const back = session.cancelUrl
    ? html`<a href="${session.cancelUrl}">← Back</a>`
    : html`<span>Crossfade</span>`;
  const { values } = form;
  const error = form.error
    ? html`<div id="checkout-error" class="alert" role="alert">${form.error.message}</div>`
    : '';
  const body = html`${topBar(back)}
<main>
  <div class="columns">
    <section class="panel" aria-labelledby="summary-title">
      <p class="muted" id="summary-title">Subscribe to ${product.name}</p>
      <p class="amount">${amount} <span class="muted">${per(price.interval, price.intervalCount)}</span></p>
      ${product.description ? html`<p class="muted">${product.description}</p>` : ''}
      <table aria-label="Order summary">
        <tr><th scope="row">${product.name}</th><td>${amount}</td></tr>
        <tr><th scope="row">Total due today</th><td><strong>${amount}</strong></td></tr>
      </table>
      <p class="hint">Sandbox: no money moves. Pay with <strong>4242 4242 4242 4242</strong> and any future date and CVC.
      4000 0000 0000 0002 is declined; 4000 0000 0000 0341 is accepted now and declined at renewal.</p>
    </section>
    <section class="panel" aria-labelledby="pay-title">
      <h1 id="pay-title">Pay with card</h1>
      <form method="post" action="${action}" novalidate>
        ${field(form, 'email', 'Email', { type: 'email', autocomplete: 'email', value: values.email })}
        <fieldset>
          <legend>Card information</legend>
          ${field(form, 'number', 'Card number', { autocomplete: 'cc-number', inputmode: 'numeric', placeholder: '1234 1234 1234 1234', value: values.number })}
          <div class="row">
            <div>${field(form, 'expiry', 'Expiration (MM / YY)', { autocomplete: 'cc-exp', inputmode: 'numeric', placeholder: 'MM / YY', value: values.expiry })}</div>
            <div>${field(form, 'cvc', 'CVC', { autocomplete: 'cc-csc', inputmode: 'numeric', placeholder: 'CVC', value: values.cvc })}</div>
          </div>
        </fieldset>
        ${field(form, 'name', 'Cardholder name', { autocomplete: 'cc-name', placeholder: 'Full name on card', value: values.name })}
        <label for="field-country">Country or region</label>
        <select id="field-country" name="country" autocomplete="country">
          ${COUNTRIES.map(([code, name]) => html`<option value="${code}"${code === values.country ? ' selected' : ''}>${name}</option>`)}
        </select>
        ${field(form, 'postalCode', 'ZIP (United States only)', { autocomplete: 'postal-code', inputmode: 'numeric', value: values.postalCode, required: false })}
        ${error}
        <button class="wide" type="submit">Subscribe</button>
        <p class="muted">By subscribing you allow Crossfade to charge your card for this payment and future payments.</p>
      </form>
    </section>
  </div>
</main>`;
  return page(`Subscribe to ${product.name}`, body, { status: form.error ? 402 : 200 });
}

export function closedCheckoutPage(session: CheckoutSessionRecord) {
  const message =
    session.status === 'complete'
      ? 'This payment is already complete.'
      : 'This Checkout Session has expired.';
  const link =
    session.status === 'complete'
      ? session.successUrl.replace('{CHECKOUT_SESSION_ID}', session.id)
      : session.cancelUrl;
  return page(
    'Checkout',
    html`${topBar('Crossfade')}<main><div class="panel"><h1>${message}</h1>${link ? html`<p><a class="button" href="${link}">Return to Crossfade</a></p>` : ''}</div></main>`,
    { status: session.status === 'complete' ? 200 : 410 },
  );
}
