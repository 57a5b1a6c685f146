import { Hono } from 'hono';
import { advanceClock } from './api-billing';
import { changePrice, type Engine, payOpenInvoices, setCancelAtPeriodEnd } from './billing';
import { checkCard } from './cards';
import { DAY, periodEnd, realNow } from './clock';
import { formatDate } from './format';
import {
  attachCard,
  cardFormOf,
  type HostedPagesOptions,
  notFoundPage,
  pageEngine,
  readFields,
  send,
} from './page-kit';
import type { CheckoutFormState } from './pages/checkout-page';
import { emptyCardForm, expiredPortalPage, type PortalView, portalPage } from './pages/portal-page';
import type {
  PortalConfigurationRecord,
  PortalSessionRecord,
  StripeState,
  SubscriptionRecord,
} from './state';

type Subscription = SubscriptionRecord | undefined;

/** One portal action: it changes the state and answers the sentence the page shows next. */
type PortalAction = (
  state: StripeState,
  context: {
    session: PortalSessionRecord;
    sub: Subscription;
    configuration: PortalConfigurationRecord | undefined;
  },
  fields: Record<string, string>,
) => string;

function moveClock(
  state: StripeState,
  engine: Engine,
  customerId: string,
  to: string,
  sub: Subscription,
): string {
  const clockId = state.customers[customerId]?.testClock;
  const clock = clockId ? state.testClocks[clockId] : undefined;
  if (!clock) return 'This customer has no test clock.';
  const now = clock.frozenTime;
  const targets: Record<string, number | undefined> = {
    period_end: sub ? Math.max(now + 1, sub.item.currentPeriodEnd + 60) : undefined,
    day: now + DAY,
    week: now + 7 * DAY,
    month: periodEnd(now, 'month', 1, 1),
  };
  const target = targets[to];
  if (target === undefined) return 'Choose how far to move the clock.';
  advanceClock(state, engine, clock, target);
  return `The clock moved to ${formatDate(target)}.`;
}

function portalActions(engine: Engine): Record<string, PortalAction> {
  return {
    cancel: (state, { sub }) => {
      if (!sub) return 'There is no active subscription to cancel.';
      setCancelAtPeriodEnd(state, engine, sub, true);
      return `Your plan is canceled. You keep it until ${formatDate(sub.item.currentPeriodEnd)}.`;
    },
    renew: (state, { sub }) => {
      if (!sub) return 'There is no subscription to renew.';
      setCancelAtPeriodEnd(state, engine, sub, false);
      return `Your plan renews on ${formatDate(sub.item.currentPeriodEnd)}.`;
    },
    update: (state, { sub, configuration }, fields) => {
      const priceId = fields.price ?? '';
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
    },
    pay: (state, { session }) =>
      payOpenInvoices(state, engine, session.customer)
        ? 'Payment received. Thank you!'
        : 'Your card was declined.',
    clock: (state, { session, sub }, fields) =>
      moveClock(state, engine, session.customer, fields.to ?? '', sub),
  };
}

/** The view a GET asks for, or the step a flow opens on. */
function viewOf(
  session: PortalSessionRecord,
  view: string | undefined,
  price: string | undefined,
): PortalView {
  if (view === 'update') return { kind: 'update' };
  if (view === 'confirm' && price) return { kind: 'confirm', price };
  if (view === 'cancel') return { kind: 'cancel' };
  if (view === 'card') return { kind: 'card', form: emptyCardForm() };
  const flow = session.flow;
  if (flow?.type === 'subscription_update_confirm' && flow.price)
    return { kind: 'confirm', price: flow.price };
  if (flow?.type === 'subscription_cancel') return { kind: 'cancel' };
  if (flow?.type === 'payment_method_update') return { kind: 'card', form: emptyCardForm() };
  return { kind: 'home' };
}

/**
 * The customer portal (`/p/session/test_{token}`): the subscription, plan changes, cancelling at the
 * period end, the card, invoices, and the sandbox's test-clock control. Actions post back here and
 * redirect to the portal again (or to a flow's `after_completion` address).
 */
export function portalPages(options: HostedPagesOptions): Hono {
  const { store } = options;
  const engine = pageEngine(options.urls);
  const actions = portalActions(engine);
  const app = new Hono();

  const findSession = (token: string): PortalSessionRecord | 'expired' | undefined => {
    const session = Object.values(store.value.portalSessions).find(
      (candidate) => `test_${candidate.token}` === token,
    );
    if (!session) return undefined;
    return session.expiresAt <= realNow() ? 'expired' : session;
  };
  const base = (session: PortalSessionRecord) => `${options.basePath}/p/session/test_${session.token}`;
  const render = (session: PortalSessionRecord, view: PortalView) => {
    const state = store.value;
    const configuration = state.portalConfigurations[session.configuration];
    if (!configuration) return notFoundPage();
    const rendered = portalPage(
      { state, session, configuration, base: base(session) },
      view,
      (token) => `${options.basePath}/i/${token}`,
    );
    // A notice is shown once.
    if (session.notice) {
      store.update((current) => {
        const stored = current.portalSessions[session.id];
        if (stored) stored.notice = null;
      });
    }
    return rendered;
  };

  /** Runs an action on the customer's newest live subscription; its sentence becomes the page's notice. */
  const run = (sessionId: string, act: PortalAction, fields: Record<string, string>) =>
    store.update((state) => {
      const session = state.portalSessions[sessionId];
      if (!session) return;
      const sub = Object.values(state.subscriptions)
        .filter((candidate) => candidate.customer === session.customer && candidate.status !== 'canceled')
        .sort((a, b) => b.created - a.created)[0];
      const configuration = state.portalConfigurations[session.configuration];
      session.notice = act(state, { session, sub, configuration }, fields);
    });

  app.get('/p/session/:token', (c) => {
    const session = findSession(c.req.param('token'));
    if (!session) return send(c, notFoundPage());
    if (session === 'expired') return send(c, expiredPortalPage(null));
    return send(c, render(session, viewOf(session, c.req.query('view'), c.req.query('price'))));
  });

  app.post('/p/session/:token/:action', async (c) => {
    const session = findSession(c.req.param('token'));
    if (!session) return send(c, notFoundPage());
    if (session === 'expired') return send(c, expiredPortalPage(null));
    const fields = await readFields(c);
    const name = c.req.param('action');
    if (name === 'card') {
      const form: CheckoutFormState = { values: { ...cardFormOf(fields), email: '' }, error: null };
      const card = checkCard(form.values);
      if (!card.ok) {
        form.error = { field: card.field, message: card.message };
        return send(c, render(session, { kind: 'card', form }));
      }
      run(
        session.id,
        (state, { sub }) => {
          const method = attachCard(
            state,
            session.customer,
            form.values,
            card,
            state.customers[session.customer]?.email ?? null,
          );
          if (sub) sub.defaultPaymentMethod = method.id;
          return `Your ${card.brand} card ending in ${card.last4} is now used for payments.`;
        },
        fields,
      );
    } else {
      const act = actions[name];
      if (!act) return send(c, notFoundPage());
      run(session.id, act, fields);
    }
    options.changed();
    const flowDone =
      session.flow?.afterCompletionUrl && name !== 'clock' ? session.flow.afterCompletionUrl : null;
    return c.redirect(flowDone ?? base(session), 303);
  });
  return app;
}
