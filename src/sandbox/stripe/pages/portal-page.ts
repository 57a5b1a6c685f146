import { previewChange } from '../billing';
import { formatDate, formatMoney } from '../format';
import type {
  PortalConfigurationRecord,
  PortalSessionRecord,
  StripeState,
  SubscriptionRecord,
} from '../state';
import { type CheckoutFormState, emptyCheckoutForm } from './checkout-page';
import { type Html, html, page, per, topBar } from './layout';

/**
 * The customer portal: the subscription with its renewal or end date, changing plan (with what it costs
 * today), cancelling at the end of the period, the card, invoices, and, because this is a sandbox, the
 * customer's test clock, which can be moved on to try renewals and period ends.
 */
export type PortalView =
  | { kind: 'home' }
  | { kind: 'update' }
  | { kind: 'confirm'; price: string }
  | { kind: 'cancel' }
  | { kind: 'card'; form: CheckoutFormState };

interface PortalContext {
  state: StripeState;
  session: PortalSessionRecord;
  configuration: PortalConfigurationRecord;
  /** The page's own address, without a query. */
  base: string;
}

const liveSubscriptions = (state: StripeState, customerId: string) =>
  Object.values(state.subscriptions)
    .filter((sub) => sub.customer === customerId && sub.status !== 'canceled')
    .sort((a, b) => b.created - a.created);

function priceLine(state: StripeState, priceId: string) {
  const price = state.prices[priceId];
  if (!price) return { name: 'Unknown plan', amount: '' };
  return {
    name: state.products[price.product]?.name ?? 'Subscription',
    amount: `${formatMoney(price.unitAmount, price.currency)} ${per(price.interval, price.intervalCount)}`,
  };
}

function subscriptionPanel(context: PortalContext, sub: SubscriptionRecord): Html {
  const { state, configuration, base } = context;
  const { name, amount } = priceLine(state, sub.item.price);
  const end = formatDate(sub.item.currentPeriodEnd);
  const openInvoice = Object.values(state.invoices).find(
    (invoice) => invoice.subscription === sub.id && invoice.status === 'open',
  );
  const status = sub.cancelAtPeriodEnd
    ? html`<p><strong>Cancels on ${end}.</strong> You keep it until then; it will not renew.</p>`
    : sub.status === 'past_due'
      ? html`<p class="alert"><strong>Payment failed.</strong> ${openInvoice?.nextPaymentAttempt ? `It is tried again on ${formatDate(openInvoice.nextPaymentAttempt)}.` : ''} Update your card or pay now to keep your plan.</p>`
      : html`<p>Renews on <strong>${end}</strong>.</p>`;
  const actions: Html[] = [];
  if (configuration.update.enabled && !sub.cancelAtPeriodEnd)
    actions.push(html`<a class="button" href="${base}?view=update">Update plan</a>`);
  if (configuration.cancel.enabled && !sub.cancelAtPeriodEnd)
    actions.push(html`<a class="button secondary" href="${base}?view=cancel">Cancel plan</a>`);
  if (sub.cancelAtPeriodEnd) {
    actions.push(
      html`<form method="post" action="${base}/renew"><button type="submit">Renew plan</button></form>`,
    );
  }
  if (openInvoice) {
    actions.push(
      html`<form method="post" action="${base}/pay"><button type="submit">Pay ${formatMoney(Math.max(0, openInvoice.total + openInvoice.startingBalance), openInvoice.currency)} now</button></form>`,
    );
  }
  return html`<section class="panel" aria-labelledby="plan-title">
  <h2 id="plan-title">Current plan</h2>
  <p><strong>${name}</strong> · ${amount}</p>
  ${status}
  <div class="actions">${actions}</div>
</section>`;
}

function cardPanel(context: PortalContext): Html {
  const { state, session, base, configuration } = context;
  const customer = state.customers[session.customer];
  const card = customer?.defaultPaymentMethod
    ? state.paymentMethods[customer.defaultPaymentMethod]
    : undefined;
  return html`<section class="panel" aria-labelledby="card-title">
  <h2 id="card-title">Payment method</h2>
  <p>${card ? `${card.brand[0]?.toUpperCase()}${card.brand.slice(1)} •••• ${card.last4} · Expires ${String(card.expMonth).padStart(2, '0')}/${card.expYear}` : 'No card on file.'}</p>
  ${configuration.paymentMethodUpdate ? html`<div class="actions"><a class="button secondary" href="${base}?view=card">Update payment method</a></div>` : ''}
</section>`;
}

function invoicePanel(context: PortalContext, invoiceUrl: (token: string) => string): Html {
  const { state, session } = context;
  const invoices = Object.values(state.invoices)
    .filter((invoice) => invoice.customer === session.customer)
    .sort((a, b) => b.created - a.created)
    .slice(0, 12);
  if (!context.configuration.invoiceHistory) return html``;
  return html`<section class="panel" aria-labelledby="history-title">
  <h2 id="history-title">Invoice history</h2>
  ${
    invoices.length === 0
      ? html`<p class="muted">No invoices yet.</p>`
      : html`<table><thead><tr><th scope="col">Date</th><th scope="col">Amount</th><th scope="col">Status</th></tr></thead><tbody>
      ${invoices.map(
        (invoice) =>
          html`<tr><td><a href="${invoiceUrl(invoice.token)}">${formatDate(invoice.created)}</a></td><td>${formatMoney(Math.max(0, invoice.total + invoice.startingBalance), invoice.currency)}</td><td>${invoice.status === 'paid' ? 'Paid' : invoice.status === 'open' ? 'Due' : invoice.status}</td></tr>`,
      )}</tbody></table>`
  }
</section>`;
}

function clockPanel(context: PortalContext): Html {
  const { state, session, base } = context;
  const clockId = state.customers[session.customer]?.testClock;
  const clock = clockId ? state.testClocks[clockId] : undefined;
  if (!clock) return html``;
  const sub = liveSubscriptions(state, session.customer)[0];
  const move = (to: string, label: string) =>
    html`<form method="post" action="${base}/clock"><input type="hidden" name="to" value="${to}"><button class="secondary" type="submit">${label}</button></form>`;
  return html`<section class="panel" aria-labelledby="clock-title">
  <h2 id="clock-title">Test clock (sandbox)</h2>
  <p>This customer lives on a test clock, as on Stripe: its time stands at <strong>${formatDate(clock.frozenTime)}</strong>. Move it on to see a renewal, a failed renewal or the end of a period, and the webhooks they send.</p>
  <div class="actions">
    ${sub ? move('period_end', `Move to the end of the period (${formatDate(sub.item.currentPeriodEnd)})`) : ''}
    ${move('day', '+1 day')}
    ${move('week', '+1 week')}
    ${move('month', '+1 month')}
  </div>
</section>`;
}

function homeView(context: PortalContext, invoiceUrl: (token: string) => string): Html {
  const subs = liveSubscriptions(context.state, context.session.customer);
  return html`<div class="stack">
  ${subs.length === 0 ? html`<section class="panel"><h2>Current plan</h2><p>No active subscription.</p></section>` : subs.map((sub) => subscriptionPanel(context, sub))}
  ${cardPanel(context)}
  ${invoicePanel(context, invoiceUrl)}
  ${clockPanel(context)}
</div>`;
}

function updateView(context: PortalContext): Html {
  const { state, configuration, base, session } = context;
  const sub = liveSubscriptions(state, session.customer)[0];
  const options = configuration.update.products
    .flatMap((entry) => entry.prices)
    .filter((priceId) => priceId !== sub?.item.price);
  return html`<section class="panel" aria-labelledby="update-title">
  <h2 id="update-title">Update plan</h2>
  <ul>
    ${options.map((priceId) => {
      const { name, amount } = priceLine(state, priceId);
      return html`<li><form method="get" action="${base}"><input type="hidden" name="view" value="confirm"><input type="hidden" name="price" value="${priceId}"><p><strong>${name}</strong> · ${amount}</p><button type="submit" aria-label="Select ${name}, ${amount}">Select</button></form></li>`;
    })}
  </ul>
  <p><a href="${base}">Back</a></p>
</section>`;
}

function confirmView(context: PortalContext, priceId: string): Html {
  const { state, base, session } = context;
  const sub = liveSubscriptions(state, session.customer)[0];
  if (!sub) return html`<section class="panel"><p>No active subscription to change.</p></section>`;
  const { name, amount } = priceLine(state, priceId);
  const current = priceLine(state, sub.item.price);
  const due = previewChange(state, sub, priceId);
  const currency = state.prices[priceId]?.currency ?? 'usd';
  const today =
    due >= 0
      ? html`<p>Amount due today: <strong>${formatMoney(due, currency)}</strong> (the rest of this period at the new price, less the unused part of your current plan).</p>`
      : html`<p>You get a credit of <strong>${formatMoney(-due, currency)}</strong> for the unused part of your current plan, taken off your next invoices.</p>`;
  return html`<section class="panel" aria-labelledby="confirm-title">
  <h2 id="confirm-title">Confirm your new plan</h2>
  <p>From <strong>${current.name}</strong> (${current.amount}) to <strong>${name}</strong> (${amount}), starting now.</p>
  ${today}
  <form method="post" action="${base}/update"><input type="hidden" name="price" value="${priceId}"><div class="actions"><button type="submit">Confirm</button><a class="button secondary" href="${base}">Cancel</a></div></form>
</section>`;
}

function cancelView(context: PortalContext): Html {
  const { state, base, session } = context;
  const sub = liveSubscriptions(state, session.customer)[0];
  if (!sub) return html`<section class="panel"><p>No active subscription to cancel.</p></section>`;
  const { name } = priceLine(state, sub.item.price);
  return html`<section class="panel" aria-labelledby="cancel-title">
  <h2 id="cancel-title">Cancel your plan</h2>
  <p>Your ${name} subscription will be canceled, but is still available until the end of your billing period on <strong>${formatDate(sub.item.currentPeriodEnd)}</strong>.</p>
  <form method="post" action="${base}/cancel"><div class="actions"><button class="danger" type="submit">Cancel plan</button><a class="button secondary" href="${base}">Go back</a></div></form>
</section>`;
}

function cardView(context: PortalContext, form: CheckoutFormState): Html {
  const { base } = context;
  const invalid = (name: string) =>
    form.error?.field === name ? html` aria-invalid="true" aria-describedby="card-error" autofocus` : '';
  const { values } = form;
  return html`<section class="panel" aria-labelledby="new-card-title">
  <h2 id="new-card-title">Add a payment method</h2>
  <form method="post" action="${base}/card" novalidate>
    <label for="field-number">Card number</label><input id="field-number" name="number" autocomplete="cc-number" inputmode="numeric" value="${values.number}" required${invalid('number')}>
    <div class="row">
      <div><label for="field-expiry">Expiration (MM / YY)</label><input id="field-expiry" name="expiry" autocomplete="cc-exp" value="${values.expiry}" required${invalid('expiry')}></div>
      <div><label for="field-cvc">CVC</label><input id="field-cvc" name="cvc" autocomplete="cc-csc" inputmode="numeric" value="${values.cvc}" required${invalid('cvc')}></div>
    </div>
    <label for="field-name">Cardholder name</label><input id="field-name" name="name" autocomplete="cc-name" value="${values.name}" required${invalid('name')}>
    <label for="field-postalCode">ZIP</label><input id="field-postalCode" name="postalCode" autocomplete="postal-code" value="${values.postalCode}"${invalid('postalCode')}>
    <input type="hidden" name="country" value="US">
    ${form.error ? html`<div id="card-error" class="alert" role="alert">${form.error.message}</div>` : ''}
    <div class="actions"><button type="submit">Add card</button><a class="button secondary" href="${base}">Cancel</a></div>
  </form>
</section>`;
}

export function portalPage(context: PortalContext, view: PortalView, invoiceUrl: (token: string) => string) {
  const { state, session, configuration } = context;
  const customer = state.customers[session.customer];
  const back = session.returnUrl
    ? html`<a href="${session.returnUrl}">← Return to Crossfade</a>`
    : html`<span>Crossfade</span>`;
  const notice = session.notice ? html`<p class="notice" role="status">${session.notice}</p>` : '';
  const content =
    view.kind === 'update'
      ? updateView(context)
      : view.kind === 'confirm'
        ? confirmView(context, view.price)
        : view.kind === 'cancel'
          ? cancelView(context)
          : view.kind === 'card'
            ? cardView(context, view.form)
            : homeView(context, invoiceUrl);
  const body = html`${topBar(back)}
<main>
  <h1>${configuration.headline ?? 'Manage your subscription'}</h1>
  <p class="muted">Signed in as ${customer?.email ?? customer?.name ?? session.customer}</p>
  ${notice}
  ${content}
</main>`;
  return page('Billing', body, { status: view.kind === 'card' && view.form.error ? 402 : 200 });
}

export const emptyCardForm = () => emptyCheckoutForm('');

export function expiredPortalPage(returnUrl: string | null) {
  return page(
    'Billing',
    html`${topBar('Crossfade')}<main><div class="panel"><h1>This billing session has ended.</h1><p>Open "Manage billing" in Crossfade again to continue.</p>${returnUrl ? html`<p><a class="button" href="${returnUrl}">Return to Crossfade</a></p>` : ''}</div></main>`,
    { status: 410 },
  );
}
