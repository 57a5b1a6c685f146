import type Stripe from 'stripe';
import { BILLING_WEBHOOK_PATH, type BillingInterval, type PaidPlan } from '../../shared/api/billing';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { notConfigured } from '../domain-errors';
import type { Logger } from '../logger';
import type { Encryptor } from '../security/encryption';
import { findWebhookEndpoint, saveWebhookEndpoint } from './billing-store';
import { createStripeClient } from './stripe-client';

/**
 * Payments as this server is configured: real Stripe (`STRIPE_SECRET_KEY` and friends), or the sandbox's
 * Stripe emulator, which the server sets up for itself the first time it needs it (its products and
 * prices, a customer-portal configuration, and a webhook endpoint of its own whose signing secret it
 * keeps, encrypted, in the database). Either way the same official client makes the same calls.
 */
export interface PlanPriceEntry {
  plan: PaidPlan;
  interval: BillingInterval;
  id: string;
  amount: number;
  currency: string;
}

export interface BillingRuntime {
  readonly payments: 'stripe' | 'sandbox';
  stripe(): Stripe;
  /** The prices of the paid plans, read from Stripe (cached for a few minutes). */
  prices(): Promise<PlanPriceEntry[]>;
  /** The plan and interval a Stripe price is for, or undefined for a price Crossfade does not sell. */
  planOfPrice(priceId: string): Promise<PlanPriceEntry | undefined>;
  /** The signing secrets webhooks are verified with. */
  webhookSecrets(): Promise<string[]>;
  /** The customer-portal configuration to open (the account's default one with real Stripe). */
  portalConfiguration(): Promise<string | undefined>;
  /** Sandbox: every customer gets a test clock of their own, so moving time for one moves nobody else's. */
  readonly testClocks: boolean;
}

const PRICE_CACHE_MS = 5 * 60_000;

/** What the sandbox sells: USD, monthly and yearly (two months free). */
export const SANDBOX_PRICES: readonly Omit<PlanPriceEntry, 'id'>[] = [
  { plan: 'pro', interval: 'month', amount: 500, currency: 'usd' },
  { plan: 'pro', interval: 'year', amount: 5000, currency: 'usd' },
  { plan: 'vault', interval: 'month', amount: 1000, currency: 'usd' },
  { plan: 'vault', interval: 'year', amount: 10000, currency: 'usd' },
];

const PRODUCT_NAMES: Record<PaidPlan, string> = { pro: 'Crossfade Pro', vault: 'Crossfade Vault+' };

/** The events Crossfade acts on (the sandbox's endpoint asks for these; set the same ones in Stripe's dashboard). */
export const WEBHOOK_EVENTS = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
  'test_helpers.test_clock.ready',
] as const;

/** Runs `load` once at a time and keeps its answer; a failure is not kept, so the next call tries again. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}

function cached<T>(load: () => Promise<T>, ttlMs: number): () => Promise<T> {
  let value: { at: number; promise: Promise<T> } | undefined;
  return () => {
    if (!value || Date.now() - value.at > ttlMs) {
      const promise = load().catch((error: unknown) => {
        value = undefined;
        throw error;
      });
      value = { at: Date.now(), promise };
    }
    return value.promise;
  };
}

export interface BillingRuntimeOptions {
  config: Config;
  db: Database;
  logger: Logger;
  encryptor: Encryptor;
  /** The sandbox Stripe account's key (sandbox mode). */
  sandboxSecretKey?: string;
  /** Where this process is reached on loopback: the emulator's API and this server's webhook endpoint. */
  internalOrigin: string;
}

export function createBillingRuntime(options: BillingRuntimeOptions): BillingRuntime {
  return options.config.sandbox.stripe ? sandboxBilling(options) : stripeBilling(options);
}

function stripeBilling({ config, logger }: BillingRuntimeOptions): BillingRuntime {
  let client: Stripe | undefined;
  const stripe = () => {
    client ??= createStripeClient({
      secretKey: config.STRIPE_SECRET_KEY ?? '',
      apiUrl: config.STRIPE_API_URL,
    });
    return client;
  };
  const configured: { plan: PaidPlan; interval: BillingInterval; id: string | undefined }[] = [
    { plan: 'pro', interval: 'month', id: config.STRIPE_PRICE_PRO },
    { plan: 'pro', interval: 'year', id: config.STRIPE_PRICE_PRO_YEARLY },
    { plan: 'vault', interval: 'month', id: config.STRIPE_PRICE_VAULT },
    { plan: 'vault', interval: 'year', id: config.STRIPE_PRICE_VAULT_YEARLY },
  ];
  const prices = cached(async () => {
    const entries: PlanPriceEntry[] = [];
    for (const entry of configured) {
      if (!entry.id) continue;
      const price = await stripe().prices.retrieve(entry.id);
      if (price.recurring?.interval !== entry.interval || price.unit_amount === null) {
        logger.error(
          { price: entry.id, plan: entry.plan, interval: entry.interval },
          'a configured Stripe price is not a fixed recurring price of its interval; it is not offered',
        );
        continue;
      }
      entries.push({ ...entry, id: price.id, amount: price.unit_amount, currency: price.currency });
    }
    return entries;
  }, PRICE_CACHE_MS);
  return {
    payments: 'stripe',
    stripe,
    prices,
    async planOfPrice(priceId) {
      return (await prices()).find((entry) => entry.id === priceId);
    },
    async webhookSecrets() {
      return config.STRIPE_WEBHOOK_SECRET ? [config.STRIPE_WEBHOOK_SECRET] : [];
    },
    async portalConfiguration() {
      return undefined;
    },
    testClocks: false,
  };
}

function sandboxBilling(options: BillingRuntimeOptions): BillingRuntime {
  const { config, db, encryptor, internalOrigin } = options;
  const apiUrl = `${config.SANDBOX_URL?.replace(/\/$/, '') ?? internalOrigin}/sandbox/stripe`;
  let client: Stripe | undefined;
  const stripe = () => {
    if (!options.sandboxSecretKey)
      throw notConfigured('The payments sandbox has no key: restart the server.');
    client ??= createStripeClient({ secretKey: options.sandboxSecretKey, apiUrl });
    return client;
  };
  const webhookUrl = `${internalOrigin}${BILLING_WEBHOOK_PATH}`;
  const secret = once(async () => {
    const stored = await findWebhookEndpoint(db, webhookUrl);
    if (stored && (await endpointStillThere(stripe(), stored.endpointId))) {
      return encryptor.decrypt(stored.secretEncrypted);
    }
    const created = await createSandboxWebhookEndpoint(stripe(), webhookUrl);
    await saveWebhookEndpoint(db, {
      url: webhookUrl,
      endpointId: created.id,
      secretEncrypted: encryptor.encrypt(created.secret),
    });
    return created.secret;
  });
  // The webhook endpoint is made before anything a person buys can send an event.
  const prices = once(async () => {
    await secret();
    return ensureSandboxPrices(stripe());
  });
  const portal = once(async () => ensureSandboxPortal(stripe(), await prices()));
  return {
    payments: 'sandbox',
    stripe,
    prices,
    async planOfPrice(priceId) {
      return (await prices()).find((entry) => entry.id === priceId);
    },
    async webhookSecrets() {
      return [await secret()];
    },
    portalConfiguration: portal,
    testClocks: true,
  };
}

/** The sandbox's products and prices, found by lookup key or created (idempotently) when missing. */
async function ensureSandboxPrices(stripe: Stripe): Promise<PlanPriceEntry[]> {
  const lookupKey = (entry: Omit<PlanPriceEntry, 'id'>) => `crossfade_${entry.plan}_${entry.interval}`;
  const found = await stripe.prices.list({
    lookup_keys: SANDBOX_PRICES.map(lookupKey),
    active: true,
    limit: 10,
  });
  const products = new Map<PaidPlan, string>();
  for (const price of found.data) {
    const plan = price.lookup_key?.split('_')[1];
    if ((plan === 'pro' || plan === 'vault') && typeof price.product === 'string')
      products.set(plan, price.product);
  }
  const entries: PlanPriceEntry[] = [];
  for (const entry of SANDBOX_PRICES) {
    const existing = found.data.find((price) => price.lookup_key === lookupKey(entry));
    if (existing) {
      entries.push({ ...entry, id: existing.id });
      continue;
    }
    let product = products.get(entry.plan);
    if (!product) {
      const created = await stripe.products.create(
        { name: PRODUCT_NAMES[entry.plan], metadata: { crossfade_plan: entry.plan } },
        { idempotencyKey: `crossfade-sandbox-product-${entry.plan}` },
      );
      product = created.id;
      products.set(entry.plan, product);
    }
    const price = await stripe.prices.create(
      {
        product,
        currency: entry.currency,
        unit_amount: entry.amount,
        recurring: { interval: entry.interval },
        lookup_key: lookupKey(entry),
        metadata: { crossfade_plan: entry.plan },
      },
      { idempotencyKey: `crossfade-sandbox-price-${lookupKey(entry)}` },
    );
    entries.push({ ...entry, id: price.id });
  }
  return entries;
}

const PORTAL_MARK = 'crossfade-sandbox-v1';

/** The portal configuration Crossfade's sandbox uses: change between its prices, cancel at period end. */
async function ensureSandboxPortal(stripe: Stripe, prices: PlanPriceEntry[]): Promise<string> {
  const existing = await stripe.billingPortal.configurations.list({ limit: 100 });
  const ours = existing.data.find((configuration) => configuration.metadata?.crossfade === PORTAL_MARK);
  if (ours) return ours.id;
  const byProduct = new Map<string, string[]>();
  for (const entry of prices) {
    const price = await stripe.prices.retrieve(entry.id);
    const product = typeof price.product === 'string' ? price.product : price.product.id;
    byProduct.set(product, [...(byProduct.get(product) ?? []), entry.id]);
  }
  const created = await stripe.billingPortal.configurations.create(
    {
      business_profile: { headline: 'Crossfade: manage your plan' },
      features: {
        invoice_history: { enabled: true },
        payment_method_update: { enabled: true },
        subscription_cancel: { enabled: true, mode: 'at_period_end' },
        subscription_update: {
          enabled: true,
          default_allowed_updates: ['price'],
          products: [...byProduct].map(([product, ids]) => ({ product, prices: ids })),
          proration_behavior: 'always_invoice',
        },
      },
      metadata: { crossfade: PORTAL_MARK },
    },
    { idempotencyKey: `crossfade-sandbox-portal-${PORTAL_MARK}` },
  );
  return created.id;
}

/** Whether the emulator still has an endpoint (its state may have been reset); unreachable counts as there. */
async function endpointStillThere(stripe: Stripe, id: string): Promise<boolean> {
  try {
    await stripe.webhookEndpoints.retrieve(id);
    return true;
  } catch (error) {
    return !(error instanceof Error && 'statusCode' in error && error.statusCode === 404);
  }
}

/**
 * A webhook endpoint for this server's own address. Endpoints left for the same address by an earlier
 * database are removed first: their secrets are unknown here, so their deliveries could only fail.
 */
async function createSandboxWebhookEndpoint(
  stripe: Stripe,
  url: string,
): Promise<{ id: string; secret: string }> {
  const existing = await stripe.webhookEndpoints.list({ limit: 100 });
  for (const endpoint of existing.data)
    if (endpoint.url === url) await stripe.webhookEndpoints.del(endpoint.id);
  const created = await stripe.webhookEndpoints.create({
    url,
    enabled_events: [...WEBHOOK_EVENTS],
    description: 'Crossfade (sandbox)',
  });
  if (!created.secret) throw new Error('the payments sandbox created a webhook endpoint without a secret');
  return { id: created.id, secret: created.secret };
}
