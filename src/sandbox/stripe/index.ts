import { Hono } from 'hono';
import { invoiceEndpoints, subscriptionEndpoints, testClockEndpoints } from './api-billing';
import { checkoutEndpoints, expireIfDue, portalEndpoints } from './api-checkout';
import { customerEndpoints, priceEndpoints, productEndpoints } from './api-customers';
import { eventEndpoints, webhookEndpointEndpoints } from './api-events';
import { createApiRouter } from './api-router';
import { type Engine, runDue } from './billing';
import { realNow } from './clock';
import { NO_CAUSE } from './events';
import { createHostedPages } from './hosted-pages';
import { html, page, topBar } from './pages/layout';
import { openStripeStore, type StripeState } from './state';
import { WebhookDeliverer } from './webhook-delivery';
import { type PageUrls, STRIPE_API_VERSION } from './wire';

/** Where the sandbox mounts the emulator; hosted pages post their forms below it. */
export const SANDBOX_STRIPE_PATH = '/sandbox/stripe';

export interface StripeEmulatorOptions {
  /** The sandbox account's secret key (`sk_test_…`): every API call must bear it. */
  secretKey: string;
  /**
   * The origin browsers reach the sandbox at (the pages are below it at `/sandbox/stripe`); a function
   * when the port is known only once the server listens.
   */
  publicOrigin: string | (() => string);
  /** Durable state (`<dataDir>/sandbox/stripe.json`); in memory without it. */
  stateFile?: string;
  /** Delays between webhook delivery attempts (tests shorten them). */
  webhookRetryDelaysMs?: readonly number[];
}

export interface StripeEmulator {
  app: Hono;
  /** Stops the timers (renewals on real time, webhook retries). */
  close(): void;
}

/** How often subscriptions on real time (no test clock) are looked at for renewals, and sessions for expiry. */
const TICK_MS = 30_000;

/**
 * The payments emulator: Stripe's API for what Crossfade uses (customers, products, prices, Checkout
 * Sessions, customer portal configurations and sessions, subscriptions, invoices, events, webhook
 * endpoints and test clocks) under `/v1`, as strict as Stripe about keys, parameters and idempotency, so
 * the official `stripe` client runs against it unchanged; its hosted Checkout, portal and invoice pages;
 * and webhooks signed as Stripe signs them, retried with backoff.
 */
export function createStripeEmulator(options: StripeEmulatorOptions): StripeEmulator {
  const store = openStripeStore(options.stateFile);
  const deliverer = new WebhookDeliverer(
    store,
    options.webhookRetryDelaysMs ? { retryDelaysMs: options.webhookRetryDelaysMs } : {},
  );
  const origin = () =>
    (typeof options.publicOrigin === 'string' ? options.publicOrigin : options.publicOrigin()).replace(
      /\/$/,
      '',
    );
  const publicUrl = () => `${origin()}${SANDBOX_STRIPE_PATH}`;
  const basePath = SANDBOX_STRIPE_PATH;
  const urls: PageUrls = {
    checkout: (session) => `${publicUrl()}/c/pay/${session.id}`,
    portal: (session) => `${publicUrl()}/p/session/test_${session.token}`,
    invoice: (invoice) => `${publicUrl()}/i/${invoice.token}`,
  };
  const changed = () => deliverer.kick();
  const api = createApiRouter(
    [
      ...customerEndpoints,
      ...productEndpoints,
      ...priceEndpoints,
      ...checkoutEndpoints,
      ...portalEndpoints,
      ...subscriptionEndpoints,
      ...invoiceEndpoints,
      ...testClockEndpoints,
      ...eventEndpoints,
      ...webhookEndpointEndpoints,
    ],
    { store, secretKey: options.secretKey, urls, changed },
  );

  const app = new Hono();
  app.route('/v1', api);
  app.route('/', createHostedPages({ store, urls, basePath, changed }));
  app.get('/', (c) => c.html(indexPage(basePath).html));

  // Customers without a test clock live on real time: their renewals come due as days pass.
  const engine: Engine = { urls, cause: NO_CAUSE };
  const onRealTime = (state: StripeState, customerId: string) => !state.customers[customerId]?.testClock;
  const anythingDue = (state: StripeState, now: number) =>
    Object.values(state.checkoutSessions).some(
      (session) => session.status === 'open' && session.expiresAt <= now,
    ) ||
    Object.values(state.subscriptions).some(
      (sub) =>
        (sub.status === 'active' || sub.status === 'past_due') &&
        sub.item.currentPeriodEnd <= now &&
        onRealTime(state, sub.customer),
    ) ||
    Object.values(state.invoices).some(
      (invoice) =>
        invoice.status === 'open' &&
        invoice.nextPaymentAttempt !== null &&
        invoice.nextPaymentAttempt <= now &&
        onRealTime(state, invoice.customer),
    );
  const tick = () => {
    if (!anythingDue(store.value, realNow())) return;
    store.update((state) => {
      const now = realNow();
      runDue(state, engine, (customerId) => onRealTime(state, customerId), now);
      for (const session of Object.values(state.checkoutSessions)) expireIfDue(state, session.id, engine);
    });
    deliverer.kick();
  };
  const timer = setInterval(tick, TICK_MS);
  timer.unref();
  // Deliveries left over from before a restart go out now.
  deliverer.kick();
  return {
    app,
    close() {
      clearInterval(timer);
      deliverer.close();
    },
  };
}

function indexPage(basePath: string) {
  return page(
    'Payments sandbox',
    html`${topBar('Crossfade sandbox')}
<main class="stack">
  <h1>Payments (Stripe) sandbox</h1>
  <p>An offline stand-in for Stripe, answering API version <code>${STRIPE_API_VERSION}</code> at <code>${basePath}/v1</code> with the sandbox's own secret key. Crossfade's checkout, customer portal and webhooks run through it when no <code>STRIPE_SECRET_KEY</code> is set.</p>
  <section class="panel"><h2>Test cards</h2>
  <ul>
    <li><strong>4242 4242 4242 4242</strong>: succeeds.</li>
    <li><strong>4000 0000 0000 0002</strong>: declined ("Your card was declined.").</li>
    <li><strong>4000 0000 0000 0341</strong>: accepted at checkout; renewals are declined.</li>
    <li>Any future expiry date and any CVC.</li>
  </ul></section>
  <p>Each Crossfade customer has a test clock of their own: the customer portal moves it on, to try a renewal, a failed renewal or the end of a period.</p>
</main>`,
  );
}
