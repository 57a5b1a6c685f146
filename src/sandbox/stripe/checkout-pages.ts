import { Hono } from 'hono';
import { startSubscription } from './billing';
import { checkCard } from './cards';
import { realNow } from './clock';
import { NO_CAUSE, recordEvent } from './events';
import { newId } from './ids';
import {
  attachCard,
  cardFormOf,
  type HostedPagesOptions,
  notFoundPage,
  pageEngine,
  readFields,
  send,
} from './page-kit';
import {
  type CheckoutFormState,
  checkoutPage,
  closedCheckoutPage,
  emptyCheckoutForm,
} from './pages/checkout-page';
import type { CustomerRecord, StripeState } from './state';
import { customer as customerWire } from './wire';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A session made with `customer_email` gets its customer when it is paid, as Checkout does. */
function newCustomer(state: StripeState, email: string, name: string): string {
  const id = newId('customer');
  const created: CustomerRecord = {
    id,
    created: realNow(),
    email,
    name: name.trim() || null,
    description: null,
    metadata: {},
    testClock: null,
    defaultPaymentMethod: null,
    balance: 0,
    invoicePrefix: id.slice(4, 12).toUpperCase(),
    nextInvoiceSequence: 1,
  };
  state.customers[id] = created;
  recordEvent(state, 'customer.created', customerWire(created), NO_CAUSE);
  return id;
}

/**
 * Stripe Checkout's page (`/c/pay/{session id}`): the form posts back here; a refused card comes back on
 * the page with Stripe's message, an accepted one starts the subscription and sends the browser to
 * `success_url`.
 */
export function checkoutPages(options: HostedPagesOptions): Hono {
  const { store } = options;
  const engine = pageEngine(options.urls);
  const action = (id: string) => `${options.basePath}/c/pay/${id}`;
  const app = new Hono();

  app.get('/c/pay/:id', (c) => {
    const state = store.value;
    const session = state.checkoutSessions[c.req.param('id')];
    if (!session) return send(c, notFoundPage());
    if (session.status !== 'open' || session.expiresAt <= realNow())
      return send(c, closedCheckoutPage(session));
    const email =
      (session.customer ? state.customers[session.customer]?.email : null) ?? session.customerEmail ?? '';
    return send(c, checkoutPage(state, session, emptyCheckoutForm(email), action(session.id)));
  });

  app.post('/c/pay/:id', async (c) => {
    const id = c.req.param('id');
    const session = store.value.checkoutSessions[id];
    if (!session) return send(c, notFoundPage());
    if (session.status !== 'open' || session.expiresAt <= realNow())
      return send(c, closedCheckoutPage(session));
    const fields = await readFields(c);
    const form: CheckoutFormState = {
      values: { ...cardFormOf(fields), email: (fields.email ?? '').trim() },
      error: null,
    };
    if (!EMAIL.test(form.values.email)) {
      const message = form.values.email
        ? 'Your email address is invalid.'
        : 'Your email address is incomplete.';
      form.error = { field: 'email', message };
      return send(c, checkoutPage(store.value, session, form, action(id)));
    }
    const card = checkCard(form.values);
    if (!card.ok) {
      form.error = { field: card.field, message: card.message };
      return send(c, checkoutPage(store.value, session, form, action(id)));
    }
    store.update((state) => {
      const open = state.checkoutSessions[id];
      if (open?.status !== 'open') return;
      const customerId = open.customer ?? newCustomer(state, form.values.email, form.values.name);
      const method = attachCard(state, customerId, form.values, card, form.values.email);
      startSubscription(state, engine, open, customerId, method);
    });
    options.changed();
    return c.redirect(session.successUrl.replace('{CHECKOUT_SESSION_ID}', id), 303);
  });
  return app;
}
