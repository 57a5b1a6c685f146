import { StateFile } from '../state-file';

/**
 * What the payments emulator keeps: Stripe's objects as records (seconds since the epoch, amounts in the
 * currency's minor unit, as on the wire), plus the webhook deliveries still to make and the idempotency
 * keys seen. Written to `<dataDir>/sandbox/stripe.json` after every change, like the music emulators.
 */
export type Interval = 'day' | 'week' | 'month' | 'year';

export interface TestClockRecord {
  id: string;
  name: string | null;
  created: number;
  frozenTime: number;
  status: 'ready' | 'advancing';
}

export interface CustomerRecord {
  id: string;
  created: number;
  email: string | null;
  name: string | null;
  description: string | null;
  metadata: Record<string, string>;
  testClock: string | null;
  defaultPaymentMethod: string | null;
  /** Negative: credit (a downgrade's unused time) taken off the next invoice. */
  balance: number;
  invoicePrefix: string;
  nextInvoiceSequence: number;
}

/** How a test card behaves: Stripe's test numbers decide it. */
export type CardBehaviour = 'succeeds' | 'charges_fail';

export interface PaymentMethodRecord {
  id: string;
  created: number;
  customer: string | null;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  funding: 'credit' | 'debit' | 'prepaid';
  country: string;
  name: string | null;
  email: string | null;
  postalCode: string | null;
  behaviour: CardBehaviour;
}

export interface ProductRecord {
  id: string;
  created: number;
  updated: number;
  name: string;
  description: string | null;
  active: boolean;
  metadata: Record<string, string>;
}

export interface PriceRecord {
  id: string;
  created: number;
  product: string;
  unitAmount: number;
  currency: string;
  interval: Interval;
  intervalCount: number;
  lookupKey: string | null;
  nickname: string | null;
  active: boolean;
  metadata: Record<string, string>;
}

export interface CheckoutSessionRecord {
  /** Also the hosted page's address: 58 random characters, as unguessable as Stripe's. */
  id: string;
  created: number;
  expiresAt: number;
  customer: string | null;
  customerEmail: string | null;
  clientReferenceId: string | null;
  lineItems: { price: string; quantity: number }[];
  successUrl: string;
  cancelUrl: string | null;
  metadata: Record<string, string>;
  subscriptionMetadata: Record<string, string>;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'unpaid' | 'paid';
  subscription: string | null;
  invoice: string | null;
  /** What the page showed last: a declined card's message. */
  lastError: string | null;
}

export interface SubscriptionRecord {
  id: string;
  created: number;
  customer: string;
  status: 'incomplete' | 'active' | 'past_due' | 'canceled' | 'unpaid';
  item: {
    id: string;
    created: number;
    price: string;
    quantity: number;
    currentPeriodStart: number;
    currentPeriodEnd: number;
  };
  billingCycleAnchor: number;
  startDate: number;
  cancelAtPeriodEnd: boolean;
  cancelAt: number | null;
  canceledAt: number | null;
  endedAt: number | null;
  cancellationReason: 'cancellation_requested' | 'payment_failed' | null;
  latestInvoice: string | null;
  defaultPaymentMethod: string | null;
  metadata: Record<string, string>;
  testClock: string | null;
}

export interface InvoiceLineRecord {
  id: string;
  amount: number;
  description: string;
  price: string;
  quantity: number;
  periodStart: number;
  periodEnd: number;
  proration: boolean;
}

export interface InvoiceRecord {
  id: string;
  number: string;
  created: number;
  customer: string;
  subscription: string | null;
  billingReason: 'subscription_create' | 'subscription_cycle' | 'subscription_update';
  currency: string;
  lines: InvoiceLineRecord[];
  total: number;
  /** The customer's balance applied (credit is negative): amount due is total + startingBalance, at least 0. */
  startingBalance: number;
  amountPaid: number;
  status: 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';
  attemptCount: number;
  /** When the first attempt failed: the retry schedule counts from it. */
  firstFailedAt: number | null;
  nextPaymentAttempt: number | null;
  finalizedAt: number | null;
  paidAt: number | null;
  /** The hosted invoice page's address carries this. */
  token: string;
  testClock: string | null;
  periodStart: number;
  periodEnd: number;
}

export interface PortalConfigurationRecord {
  id: string;
  created: number;
  isDefault: boolean;
  headline: string | null;
  defaultReturnUrl: string | null;
  cancel: { enabled: boolean; mode: 'at_period_end' | 'immediately' };
  update: {
    enabled: boolean;
    products: { product: string; prices: string[] }[];
    prorationBehavior: 'always_invoice' | 'create_prorations' | 'none';
  };
  paymentMethodUpdate: boolean;
  invoiceHistory: boolean;
  metadata: Record<string, string>;
}

export interface PortalFlow {
  type: 'subscription_update_confirm' | 'subscription_cancel' | 'payment_method_update';
  subscription: string | null;
  /** subscription_update_confirm: the price the person is asked to confirm. */
  price: string | null;
  afterCompletionUrl: string | null;
}

export interface PortalSessionRecord {
  id: string;
  token: string;
  created: number;
  expiresAt: number;
  customer: string;
  configuration: string;
  returnUrl: string | null;
  flow: PortalFlow | null;
  /** A line the page shows once after an action ("The clock moved to …"). */
  notice: string | null;
}

export interface EventRecord {
  id: string;
  type: string;
  created: number;
  object: Record<string, unknown>;
  previousAttributes: Record<string, unknown> | null;
  requestId: string | null;
  idempotencyKey: string | null;
  pendingWebhooks: number;
}

export interface WebhookEndpointRecord {
  id: string;
  created: number;
  url: string;
  secret: string;
  enabledEvents: string[];
  description: string | null;
  metadata: Record<string, string>;
  status: 'enabled' | 'disabled';
}

export interface DeliveryRecord {
  eventId: string;
  endpointId: string;
  attempts: number;
  /** Milliseconds since the epoch (real time: deliveries do not follow test clocks). */
  nextAttemptAt: number;
}

export interface IdempotencyRecord {
  method: string;
  path: string;
  params: string;
  status: number;
  body: string;
  createdMs: number;
}

export interface StripeState {
  testClocks: Record<string, TestClockRecord>;
  customers: Record<string, CustomerRecord>;
  paymentMethods: Record<string, PaymentMethodRecord>;
  products: Record<string, ProductRecord>;
  prices: Record<string, PriceRecord>;
  checkoutSessions: Record<string, CheckoutSessionRecord>;
  subscriptions: Record<string, SubscriptionRecord>;
  invoices: Record<string, InvoiceRecord>;
  portalConfigurations: Record<string, PortalConfigurationRecord>;
  portalSessions: Record<string, PortalSessionRecord>;
  /** Newest last; lists answer newest first. */
  events: EventRecord[];
  webhookEndpoints: Record<string, WebhookEndpointRecord>;
  deliveries: DeliveryRecord[];
  idempotency: Record<string, IdempotencyRecord>;
  invoiceCounter: number;
}

export const emptyState = (): StripeState => ({
  testClocks: {},
  customers: {},
  paymentMethods: {},
  products: {},
  prices: {},
  checkoutSessions: {},
  subscriptions: {},
  invoices: {},
  portalConfigurations: {},
  portalSessions: {},
  events: [],
  webhookEndpoints: {},
  deliveries: [],
  idempotency: {},
  invoiceCounter: 0,
});

export type StripeStore = StateFile<StripeState>;

export const openStripeStore = (path: string | undefined): StripeStore => new StateFile(path, emptyState);
