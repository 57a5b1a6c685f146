import { type Context, Hono } from 'hono';
import { advanceClock } from './api-billing';
import {
  changePrice,
  type Engine,
  payOpenInvoices,
  setCancelAtPeriodEnd,
  startSubscription,
} from './billing';
import { type CardForm, checkCard } from './cards';
import { DAY, nowFor, periodEnd, realNow } from './clock';
import { NO_CAUSE, recordEvent } from './events';
import { formatDate, formatMoney } from './format';
import { newId } from './ids';
import {
  type CheckoutFormState,
  checkoutPage,
  closedCheckoutPage,
  emptyCheckoutForm,
} from './pages/checkout-page';
import { html, page, topBar } from './pages/layout';
import { emptyCardForm, expiredPortalPage, type PortalView, portalPage } from './pages/portal-page';
import type {
  CustomerRecord,
  PaymentMethodRecord,
  PortalSessionRecord,
  StripeState,
  StripeStore,
} from './state';
import { customer as customerWire, type PageUrls, paymentMethod as paymentMethodWire } from './wire';

/**
 * The pages a person sees: Checkout (`/c/pay/{session id}`), the customer portal (`/p/session/{token}`)
 * and hosted invoices (`/i/{token}`). Plain forms posted back here; every change goes through the same
 * billing engine as the API and sends the same webhooks.
 */
export interface HostedPagesOptions {
  store: StripeStore;
  urls: PageUrls;
  /** Path of these pages below the origin (`/sandbox/stripe`), for form actions. */
  basePath: string;
  changed(): void;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

async function readFields(c: Context): Promise<Record<string, string>> {
  const body = await c.req.parseBody();
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(body))
    if (typeof value === 'string') out[key] = value.slice(0, 500);
  return out;
}

const cardFormOf = (fields: Record<string, string>): CardForm => ({
  number: fields.number ?? '',
  expiry: fields.expiry ?? '',
  cvc: fields.cvc ?? '',
  name: fields.name ?? '',
  postalCode: fields.postalCode ?? '',
  country: fields.country ?? 'US',
});

function attachCard(
  state: StripeState,
  customerId: string,
  form: CardForm,
  card: Extract<ReturnType<typeof checkCard>, { ok: true }>,
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

export function createHostedPages(options: HostedPagesOptions): Hono {
  const { store, urls } = options;
  const app = new Hono();
  const engine: Engine = { urls, cause: NO_CAUSE };
  const send = (c: Context, rendered: { html: string; status: number }) => {
    c.header('Cache-Control', 'no-store');
    return c.html(rendered.html, rendered.status as 200);
  };

  app.get('/c/pay/:id', (c) => {
    const state = store.value;
    const session = state.checkoutSessions[c.req.param('id')];
    if (!session) return send(c, notFound());
    if (session.status !== 'open' || session.expiresAt <= realNow())
      return send(c, closedCheckoutPage(session));
    const email =
      (session.customer ? state.customers[session.customer]?.email : null) ?? session.customerEmail ?? '';
    return send(
      c,
      checkoutPage(state, session, emptyCheckoutForm(email), `${options.basePath}/c/pay/${session.id}`),
    );
  });

  app.post('/c/pay/:id', async (c) => {
    const id = c.req.param('id');
    const session = store.value.checkoutSessions[id];
    if (!session) return send(c, notFound());
    if (session.status !== 'open' || session.expiresAt <= realNow())
      return send(c, closedCheckoutPage(session));
    const fields = await readFields(c);
    const form: CheckoutFormState = {
      values: { ...cardFormOf(fields), email: (fields.email ?? '').trim() },
      error: null,
    };
    const action = `${options.basePath}/c/pay/${id}`;
    if (!EMAIL.test(form.values.email)) {
      form.error = {
        field: 'email',
        message: form.values.email ? 'Your email address is invalid.' : 'Your email address is incomplete.',
      };
      return send(c, checkoutPage(store.value, session, form, action));
    }
    const card = checkCard(form.values);
    if (!card.ok) {
      form.error = { field: card.field, message: card.message };
      return send(c, checkoutPage(store.value, session, form, action));
    }
    store.update((state) => {
      const open = state.checkoutSessions[id];
      if (open?.status !== 'open') return;
      let customerId = open.customer;
      if (!customerId) {
        const created: CustomerRecord = {
          id: newId('customer'),
          created: realNow(),
          email: form.values.email,
          name: form.values.name.trim() || null,
          description: null,
          metadata: {},
          testClock: null,
          defaultPaymentMethod: null,
          balance: 0,
          invoicePrefix: '',
          nextInvoiceSequence: 1,
        };
        created.invoicePrefix = created.id.slice(4, 12).toUpperCase();
        state.customers[created.id] = created;
        customerId = created.id;
        recordEvent(state, 'customer.created', customerWire(created), NO_CAUSE);
      }
      const method = attachCard(state, customerId, form.values, card, form.values.email);
      startSubscription(state, engine, open, customerId, method);
    });
    options.changed();
    return c.redirect(session.successUrl.replace('{CHECKOUT_SESSION_ID}', id), 303);
  });

  const portalSession = (token: string): PortalSessionRecord | 'expired' | undefined => {
    const session = Object.values(store.value.portalSessions).find(
      (candidate) => `test_${candidate.token}` === token,
    );
    if (!session) return undefined;
    return session.expiresAt <= realNow() ? 'expired' : session;
  };
  const portalBase = (session: PortalSessionRecord) => `${options.basePath}/p/session/test_${session.token}`;
  const renderPortal = (session: PortalSessionRecord, view: PortalView) => {
    const state = store.value;
    const configuration = state.portalConfigurations[session.configuration];
    if (!configuration) return notFound();
    const rendered = portalPage(
      { state, session, configuration, base: portalBase(session) },
      view,
      (token) => `${options.basePath}/i/${token}`,
    );
    // A notice is shown once.
    if (session.notice)
      store.update((current) => {
        const stored = current.portalSessions[session.id];
        if (stored) stored.notice = null;
      });
    return rendered;
  };

  app.get('/p/session/:token', (c) => {
    const session = portalSession(c.req.param('token'));
    if (!session) return send(c, notFound());
    if (session === 'expired') return send(c, expiredPortalPage(null));
    const view = c.req.query('view');
    const price = c.req.query('price');
    if (view === 'update') return send(c, renderPortal(session, { kind: 'update' }));
    if (view === 'confirm' && price) return send(c, renderPortal(session, { kind: 'confirm', price }));
    if (view === 'cancel') return send(c, renderPortal(session, { kind: 'cancel' }));
    if (view === 'card') return send(c, renderPortal(session, { kind: 'card', form: emptyCardForm() }));
    // A flow opens on its own step.
    if (session.flow?.type === 'subscription_update_confirm' && session.flow.price) {
      return send(c, renderPortal(session, { kind: 'confirm', price: session.flow.price }));
    }
    if (session.flow?.type === 'subscription_cancel')
      return send(c, renderPortal(session, { kind: 'cancel' }));
    if (session.flow?.type === 'payment_method_update')
      return send(c, renderPortal(session, { kind: 'card', form: emptyCardForm() }));
    return send(c, renderPortal(session, { kind: 'home' }));
  });

  app.post('/p/session/:token/:action', async (c) => {
    const session = portalSession(c.req.param('token'));
    if (!session) return send(c, notFound());
    if (session === 'expired') return send(c, expiredPortalPage(null));
    const fields = await readFields(c);
    const action = c.req.param('action');
    if (action === 'card') {
      const form: CheckoutFormState = { values: { ...cardFormOf(fields), email: '' }, error: null };
      const card = checkCard(form.values);
      if (!card.ok) {
        form.error = { field: card.field, message: card.message };
        return send(c, renderPortal(session, { kind: 'card', form }));
      }
      runPortalAction(session.id, (state, sub) => {
        const method = attachCard(
          state,
          session.customer,
          form.values,
          card,
          state.customers[session.customer]?.email ?? null,
        );
        if (sub) sub.defaultPaymentMethod = method.id;
        return `Your ${card.brand} card ending in ${card.last4} is now used for payments.`;
      });
    } else if (action === 'cancel') {
      runPortalAction(session.id, (state, sub) => {
        if (!sub) return 'There is no active subscription to cancel.';
        setCancelAtPeriodEnd(state, engine, sub, true);
        return `Your plan is canceled. You keep it until ${formatDate(sub.item.currentPeriodEnd)}.`;
      });
    } else if (action === 'renew') {
      runPortalAction(session.id, (state, sub) => {
        if (!sub) return 'There is no subscription to renew.';
        setCancelAtPeriodEnd(state, engine, sub, false);
        return `Your plan renews on ${formatDate(sub.item.currentPeriodEnd)}.`;
      });
    } else if (action === 'update') {
      const priceId = fields.price ?? '';
      runPortalAction(session.id, (state, sub, configuration) => {
        const allowed = configuration?.update.products.some((entry) => entry.prices.includes(priceId));
        if (!sub || !allowed || !state.prices[priceId]) return 'That plan cannot be chosen here.';
        changePrice(
          state,
          engine,
          sub,
          priceId,
          configuration?.update.prorationBehavior ?? 'create_prorations',
        );
        const price = state.prices[priceId];
        return `Your plan is now ${state.products[price?.product ?? '']?.name ?? 'updated'}.`;
      });
    } else if (action === 'pay') {
      runPortalAction(session.id, (state) =>
        payOpenInvoices(state, engine, session.customer)
          ? 'Payment received. Thank you!'
          : 'Your card was declined.',
      );
    } else if (action === 'clock') {
      runPortalAction(session.id, (state, sub) =>
        moveClock(state, engine, session.customer, fields.to ?? '', sub),
      );
    } else {
      return send(c, notFound());
    }
    options.changed();
    const done = store.value.portalSessions[session.id];
    const flowDone = session.flow && action !== 'clock' && session.flow.afterCompletionUrl;
    return c.redirect(
      flowDone ? (session.flow?.afterCompletionUrl ?? portalBase(session)) : portalBase(done ?? session),
      303,
    );
  });

  /** Runs a portal action on the customer's newest live subscription and leaves its sentence as the page's notice. */
  function runPortalAction(
    sessionId: string,
    act: (
      state: StripeState,
      sub: StripeState['subscriptions'][string] | undefined,
      configuration: StripeState['portalConfigurations'][string] | undefined,
    ) => string,
  ) {
    store.update((state) => {
      const session = state.portalSessions[sessionId];
      if (!session) return;
      const sub = Object.values(state.subscriptions)
        .filter((candidate) => candidate.customer === session.customer && candidate.status !== 'canceled')
        .sort((a, b) => b.created - a.created)[0];
      session.notice = act(state, sub, state.portalConfigurations[session.configuration]);
    });
  }

  app.get('/i/:token', (c) => {
    const state = store.value;
    const invoice = Object.values(state.invoices).find(
      (candidate) => candidate.token === c.req.param('token'),
    );
    if (!invoice) return send(c, notFound());
    return send(c, invoicePage(state, invoice));
  });

  return app;
}

function moveClock(
  state: StripeState,
  engine: Engine,
  customerId: string,
  to: string,
  sub: StripeState['subscriptions'][string] | undefined,
): string {
  const clockId = state.customers[customerId]?.testClock;
  const clock = clockId ? state.testClocks[clockId] : undefined;
  if (!clock) return 'This customer has no test clock.';
  const now = clock.frozenTime;
  const target =
    to === 'period_end' && sub
      ? Math.max(now + 1, sub.item.currentPeriodEnd + 60)
      : to === 'day'
        ? now + DAY
        : to === 'week'
          ? now + 7 * DAY
          : to === 'month'
            ? periodEnd(now, 'month', 1, 1)
            : null;
  if (target === null) return 'Choose how far to move the clock.';
  advanceClock(state, engine, clock, target);
  return `The clock moved to ${formatDate(target)}.`;
}

function invoicePage(state: StripeState, invoice: StripeState['invoices'][string]) {
  const money = (amount: number) => formatMoney(amount, invoice.currency);
  const customer = state.customers[invoice.customer];
  const due = Math.max(0, invoice.total + invoice.startingBalance);
  return page(
    `Invoice ${invoice.number}`,
    html`${topBar('Crossfade')}
<main><section class="panel" aria-labelledby="invoice-title">
  <h1 id="invoice-title">Invoice ${invoice.number}</h1>
  <p class="muted">Billed to ${customer?.email ?? invoice.customer} · ${formatDate(invoice.created)} · ${invoice.status === 'paid' ? 'Paid' : 'Due'}</p>
  <table><thead><tr><th scope="col">Description</th><th scope="col">Amount</th></tr></thead><tbody>
  ${invoice.lines.map((line) => html`<tr><td>${line.description}</td><td>${money(line.amount)}</td></tr>`)}
  ${invoice.startingBalance !== 0 ? html`<tr><td>Applied balance</td><td>${money(Math.max(invoice.startingBalance, -invoice.total))}</td></tr>` : ''}
  <tr><th scope="row">Amount ${invoice.status === 'paid' ? 'paid' : 'due'}</th><td><strong>${money(invoice.status === 'paid' ? invoice.amountPaid : due)}</strong></td></tr>
  </tbody></table>
</section></main>`,
  );
}

function notFound() {
  return page(
    'Not found',
    html`${topBar('Crossfade')}<main><div class="panel"><h1>This page does not exist.</h1></div></main>`,
    { status: 404 },
  );
}
