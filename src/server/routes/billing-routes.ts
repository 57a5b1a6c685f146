import { Hono } from 'hono';
import { checkoutRequestSchema } from '../../shared/api/billing';
import type { AppDeps, AppEnv } from '../app-context';
import { loadBilling, loadPrices } from '../billing/billing-view';
import { checkoutStatus, openPortal, startCheckout } from '../billing/checkout';
import { receiveWebhook } from '../billing/webhook';
import { requireUser } from '../http/require-user';
import { readJson } from '../http/validation';

/**
 * Billing (/pricing, /account, the checkout return page). `POST /billing/checkout` and `/billing/portal`
 * create a Stripe session and answer where to send the browser; the plan itself changes only when
 * Stripe's webhook says so.
 */
export function billingRoutes(deps: AppDeps) {
  return new Hono<AppEnv>()
    .get('/billing', async (c) => {
      const user = requireUser(c);
      return c.json(await loadBilling(deps, user.id));
    })
    .get('/billing/prices', async (c) => c.json(await loadPrices(deps)))
    .post('/billing/checkout', async (c) => {
      const user = requireUser(c);
      const { plan, interval } = await readJson(c, checkoutRequestSchema);
      return c.json(await startCheckout(deps, user, plan, interval));
    })
    .get('/billing/checkout/:sessionId', async (c) => {
      const user = requireUser(c);
      return c.json(await checkoutStatus(deps, user, c.req.param('sessionId')));
    })
    .post('/billing/portal', async (c) => {
      const user = requireUser(c);
      return c.json(await openPortal(deps, user));
    });
}

/**
 * `POST /billing/webhook`, mounted before sessions and CSRF: Stripe sends no cookie; the signature over
 * the raw body is what authenticates it.
 */
export function billingWebhookRoutes(deps: AppDeps) {
  return new Hono<AppEnv>().post('/', async (c) => {
    const payload = await c.req.text();
    const outcome = await receiveWebhook(deps, payload, c.req.header('stripe-signature'));
    return c.json({ received: true, outcome });
  });
}
