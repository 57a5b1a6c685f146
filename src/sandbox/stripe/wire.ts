import type {
  CheckoutSessionRecord,
  CustomerRecord,
  EventRecord,
  InvoiceRecord,
  PaymentMethodRecord,
  PortalConfigurationRecord,
  PortalSessionRecord,
  PriceRecord,
  ProductRecord,
  StripeState,
  SubscriptionRecord,
  TestClockRecord,
  WebhookEndpointRecord,
} from './state';

/**
 * Stripe's objects as the API answers them (API version `STRIPE_API_VERSION`), built from the records.
 * Fields of features the emulator does not model (tax, discounts, Connect…) carry Stripe's empty values,
 * so the shapes match what the official client's types describe.
 */
export const STRIPE_API_VERSION = '2026-10-28.endive';

export type Wire = Record<string, unknown>;

/** Where the hosted pages live: `<public origin>/sandbox/stripe`. */
export interface PageUrls {
  checkout(session: CheckoutSessionRecord): string;
  portal(session: PortalSessionRecord): string;
  invoice(invoice: InvoiceRecord): string;
}

export const list = (url: string, data: Wire[], hasMore = false): Wire => ({
  object: 'list',
  data,
  has_more: hasMore,
  url,
});

export function customer(record: CustomerRecord): Wire {
  return {
    id: record.id,
    object: 'customer',
    address: null,
    balance: record.balance,
    created: record.created,
    currency: null,
    default_source: null,
    delinquent: false,
    description: record.description,
    discount: null,
    email: record.email,
    invoice_prefix: record.invoicePrefix,
    invoice_settings: {
      custom_fields: null,
      default_payment_method: record.defaultPaymentMethod,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: record.metadata,
    name: record.name,
    next_invoice_sequence: record.nextInvoiceSequence,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: record.testClock,
  };
}

export function paymentMethod(record: PaymentMethodRecord): Wire {
  return {
    id: record.id,
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: {
      address: {
        city: null,
        country: null,
        line1: null,
        line2: null,
        postal_code: record.postalCode,
        state: null,
      },
      email: record.email,
      name: record.name,
      phone: null,
    },
    card: {
      brand: record.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: record.country,
      display_brand: record.brand,
      exp_month: record.expMonth,
      exp_year: record.expYear,
      funding: record.funding,
      last4: record.last4,
      networks: { available: [record.brand], preferred: null },
      wallet: null,
    },
    created: record.created,
    customer: record.customer,
    livemode: false,
    metadata: {},
    type: 'card',
  };
}

export function product(record: ProductRecord): Wire {
  return {
    id: record.id,
    object: 'product',
    active: record.active,
    created: record.created,
    default_price: null,
    description: record.description,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: record.metadata,
    name: record.name,
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    type: 'service',
    unit_label: null,
    updated: record.updated,
    url: null,
  };
}

export function price(record: PriceRecord): Wire {
  return {
    id: record.id,
    object: 'price',
    active: record.active,
    billing_scheme: 'per_unit',
    created: record.created,
    currency: record.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: record.lookupKey,
    metadata: record.metadata,
    nickname: record.nickname,
    product: record.product,
    recurring: {
      interval: record.interval,
      interval_count: record.intervalCount,
      meter: null,
      usage_type: 'licensed',
    },
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: 'recurring',
    unit_amount: record.unitAmount,
    unit_amount_decimal: String(record.unitAmount),
  };
}

const sessionTotal = (state: StripeState, record: CheckoutSessionRecord) =>
  record.lineItems.reduce(
    (sum, item) => sum + (state.prices[item.price]?.unitAmount ?? 0) * item.quantity,
    0,
  );

export function checkoutSession(state: StripeState, record: CheckoutSessionRecord, urls: PageUrls): Wire {
  const total = sessionTotal(state, record);
  const currency = state.prices[record.lineItems[0]?.price ?? '']?.currency ?? null;
  const customerRecord = record.customer ? state.customers[record.customer] : undefined;
  const complete = record.status === 'complete';
  return {
    id: record.id,
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    amount_subtotal: total,
    amount_total: total,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: record.cancelUrl,
    client_reference_id: record.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: record.created,
    currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: {
      after_submit: null,
      shipping_address: null,
      submit: null,
      terms_of_service_acceptance: null,
    },
    customer: record.customer,
    customer_account: null,
    customer_creation: record.customer ? null : 'always',
    customer_details: complete
      ? {
          address: null,
          email: customerRecord?.email ?? record.customerEmail,
          name: customerRecord?.name ?? null,
          phone: null,
          tax_exempt: 'none',
          tax_ids: [],
        }
      : null,
    customer_email: record.customerEmail,
    discounts: [],
    expires_at: record.expiresAt,
    integration_identifier: null,
    invoice: record.invoice,
    invoice_creation: null,
    livemode: false,
    locale: null,
    metadata: record.metadata,
    mode: 'subscription',
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: 'always',
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    payment_status: record.paymentStatus,
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: record.status,
    submit_type: null,
    subscription: record.subscription,
    success_url: record.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: record.status === 'open' ? urls.checkout(record) : null,
    wallet_options: null,
  };
}

export function subscriptionItem(state: StripeState, record: SubscriptionRecord): Wire {
  const priceRecord = state.prices[record.item.price];
  return {
    id: record.item.id,
    object: 'subscription_item',
    billing_thresholds: null,
    created: record.item.created,
    current_period_end: record.item.currentPeriodEnd,
    current_period_start: record.item.currentPeriodStart,
    discounts: [],
    metadata: {},
    plan: priceRecord ? legacyPlan(priceRecord) : null,
    price: priceRecord ? price(priceRecord) : null,
    quantity: record.item.quantity,
    subscription: record.id,
    tax_rates: [],
  };
}

/** The `plan` object Stripe still answers beside `price` on subscription items. */
function legacyPlan(record: PriceRecord): Wire {
  return {
    id: record.id,
    object: 'plan',
    active: record.active,
    amount: record.unitAmount,
    amount_decimal: String(record.unitAmount),
    billing_scheme: 'per_unit',
    created: record.created,
    currency: record.currency,
    interval: record.interval,
    interval_count: record.intervalCount,
    livemode: false,
    metadata: record.metadata,
    meter: null,
    nickname: record.nickname,
    product: record.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}

export function subscription(state: StripeState, record: SubscriptionRecord): Wire {
  const priceRecord = state.prices[record.item.price];
  return {
    id: record.id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: record.billingCycleAnchor,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic' },
    billing_thresholds: null,
    cancel_at: record.cancelAt,
    cancel_at_period_end: record.cancelAtPeriodEnd,
    canceled_at: record.canceledAt,
    cancellation_details: {
      comment: null,
      feedback: null,
      reason: record.cancellationReason,
    },
    collection_method: 'charge_automatically',
    created: record.created,
    currency: priceRecord?.currency ?? 'usd',
    customer: record.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: record.defaultPaymentMethod,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    ended_at: record.endedAt,
    invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } },
    items: list(`/v1/subscription_items?subscription=${record.id}`, [subscriptionItem(state, record)]),
    latest_invoice: record.latestInvoice,
    livemode: false,
    metadata: record.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: {
      payment_method_options: null,
      payment_method_types: null,
      save_default_payment_method: 'off',
    },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: record.startDate,
    status: record.status,
    test_clock: record.testClock,
    transfer_data: null,
    trial_end: null,
    trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } },
    trial_start: null,
  };
}

export function invoice(state: StripeState, record: InvoiceRecord, urls: PageUrls): Wire {
  const customerRecord = state.customers[record.customer];
  const subscriptionRecord = record.subscription ? state.subscriptions[record.subscription] : undefined;
  const amountDue = Math.max(0, record.total + record.startingBalance);
  const remaining = record.status === 'paid' || record.status === 'void' ? 0 : amountDue;
  return {
    id: record.id,
    object: 'invoice',
    account_country: 'US',
    account_name: 'Crossfade sandbox',
    account_tax_ids: null,
    amount_due: amountDue,
    amount_overpaid: 0,
    amount_paid: record.amountPaid,
    amount_remaining: remaining,
    amount_shipping: 0,
    application: null,
    attempt_count: record.attemptCount,
    attempted: record.attemptCount > 0,
    auto_advance: record.status === 'open',
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: record.billingReason,
    collection_method: 'charge_automatically',
    created: record.created,
    currency: record.currency,
    custom_fields: null,
    customer: record.customer,
    customer_account: null,
    customer_address: null,
    customer_email: customerRecord?.email ?? null,
    customer_name: customerRecord?.name ?? null,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: record.finalizedAt,
    ending_balance: record.finalizedAt ? Math.min(0, record.total + record.startingBalance) : null,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: record.finalizedAt ? urls.invoice(record) : null,
    invoice_pdf: null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: list(
      `/v1/invoices/${record.id}/lines`,
      record.lines.map((line) => invoiceLine(state, record, line, subscriptionRecord)),
    ),
    livemode: false,
    metadata: {},
    next_payment_attempt: record.nextPaymentAttempt,
    number: record.number,
    on_behalf_of: null,
    parent: subscriptionRecord
      ? {
          quote_details: null,
          subscription_details: {
            metadata: subscriptionRecord.metadata,
            subscription: subscriptionRecord.id,
          },
          type: 'subscription_details',
        }
      : null,
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: record.periodEnd,
    period_start: record.periodStart,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: record.startingBalance,
    statement_descriptor: null,
    status: record.status,
    status_transitions: {
      finalized_at: record.finalizedAt,
      marked_uncollectible_at: null,
      paid_at: record.paidAt,
      voided_at: null,
    },
    subtotal: record.total,
    subtotal_excluding_tax: record.total,
    test_clock: record.testClock,
    total: record.total,
    total_discount_amounts: [],
    total_excluding_tax: record.total,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: record.created,
  };
}

/** One line of an invoice: a period of a subscription item, or a proration. */
function invoiceLine(
  state: StripeState,
  record: InvoiceRecord,
  line: InvoiceRecord['lines'][number],
  subscriptionRecord: SubscriptionRecord | undefined,
): Wire {
  return {
    id: line.id,
    object: 'line_item',
    amount: line.amount,
    currency: record.currency,
    description: line.description,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: record.id,
    livemode: false,
    metadata: {},
    parent: subscriptionRecord
      ? {
          invoice_item_details: null,
          subscription_item_details: {
            invoice_item: null,
            proration: line.proration,
            proration_details: { credited_items: null },
            subscription: subscriptionRecord.id,
            subscription_item: subscriptionRecord.item.id,
          },
          type: 'subscription_item_details',
        }
      : null,
    period: { end: line.periodEnd, start: line.periodStart },
    pretax_credit_amounts: [],
    pricing: {
      price_details: { price: line.price, product: state.prices[line.price]?.product ?? null },
      type: 'price_details',
      unit_amount_decimal: String(state.prices[line.price]?.unitAmount ?? line.amount),
    },
    quantity: line.quantity,
    subtotal: line.amount,
    taxes: [],
  };
}

export function portalConfiguration(record: PortalConfigurationRecord): Wire {
  return {
    id: record.id,
    object: 'billing_portal.configuration',
    active: true,
    application: null,
    business_profile: { headline: record.headline, privacy_policy_url: null, terms_of_service_url: null },
    created: record.created,
    default_return_url: record.defaultReturnUrl,
    features: {
      customer_update: { allowed_updates: [], enabled: false },
      invoice_history: { enabled: record.invoiceHistory },
      payment_method_update: { enabled: record.paymentMethodUpdate, payment_method_configuration: null },
      subscription_cancel: {
        cancellation_reason: { enabled: false, options: [] },
        enabled: record.cancel.enabled,
        mode: record.cancel.mode,
        proration_behavior: 'none',
      },
      subscription_update: {
        billing_cycle_anchor: null,
        default_allowed_updates: record.update.enabled ? ['price'] : [],
        enabled: record.update.enabled,
        products: record.update.products.map((entry) => ({
          adjustable_quantity: { enabled: false, maximum: null, minimum: 1 },
          prices: entry.prices,
          product: entry.product,
        })),
        proration_behavior: record.update.prorationBehavior,
        schedule_at_period_end: { conditions: [] },
        trial_update_behavior: 'end_trial',
      },
    },
    is_default: record.isDefault,
    livemode: false,
    login_page: { enabled: false, url: null },
    metadata: record.metadata,
    name: null,
    updated: record.created,
  };
}

export function portalSession(record: PortalSessionRecord, urls: PageUrls): Wire {
  const flow = record.flow;
  return {
    id: record.id,
    object: 'billing_portal.session',
    configuration: record.configuration,
    created: record.created,
    customer: record.customer,
    customer_account: null,
    flow: flow
      ? {
          after_completion: flow.afterCompletionUrl
            ? {
                hosted_confirmation: null,
                redirect: { return_url: flow.afterCompletionUrl },
                type: 'redirect',
              }
            : { hosted_confirmation: null, redirect: null, type: 'portal_homepage' },
          subscription_cancel:
            flow.type === 'subscription_cancel' ? { retention: null, subscription: flow.subscription } : null,
          subscription_update: null,
          subscription_update_confirm:
            flow.type === 'subscription_update_confirm'
              ? {
                  discounts: null,
                  items: [{ id: null, price: flow.price, quantity: 1 }],
                  subscription: flow.subscription,
                }
              : null,
          type: flow.type,
        }
      : null,
    livemode: false,
    locale: null,
    on_behalf_of: null,
    return_url: record.returnUrl,
    url: urls.portal(record),
  };
}

export function event(record: EventRecord): Wire {
  return {
    id: record.id,
    object: 'event',
    api_version: STRIPE_API_VERSION,
    created: record.created,
    data: {
      object: record.object,
      ...(record.previousAttributes ? { previous_attributes: record.previousAttributes } : {}),
    },
    livemode: false,
    pending_webhooks: record.pendingWebhooks,
    request: { id: record.requestId, idempotency_key: record.idempotencyKey },
    type: record.type,
  };
}

export function webhookEndpoint(record: WebhookEndpointRecord, withSecret = false): Wire {
  return {
    id: record.id,
    object: 'webhook_endpoint',
    api_version: STRIPE_API_VERSION,
    application: null,
    created: record.created,
    description: record.description,
    enabled_events: record.enabledEvents,
    livemode: false,
    metadata: record.metadata,
    ...(withSecret ? { secret: record.secret } : {}),
    status: record.status,
    url: record.url,
  };
}

export function testClock(record: TestClockRecord): Wire {
  return {
    id: record.id,
    object: 'test_helpers.test_clock',
    created: record.created,
    deletes_after: record.created + 30 * 24 * 60 * 60,
    frozen_time: record.frozenTime,
    livemode: false,
    name: record.name,
    status: record.status,
    status_details:
      record.status === 'advancing' ? { advancing: { target_frozen_time: record.frozenTime } } : {},
  };
}
