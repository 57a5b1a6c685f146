import { customerOf, mergeMetadata } from './api-customers';
import { endpoint } from './api-router';
import type { Engine } from './billing';
import { DAY, realNow } from './clock';
import { invalidRequest, noSuch } from './errors';
import { recordEvent } from './events';
import { newId, pageToken } from './ids';
import { newestFirst, page, pageParams } from './lists';
import { array, boolean, integer, metadata, object, oneOf, optional, string } from './params';
import type { PortalConfigurationRecord, PortalFlow, StripeState } from './state';
import * as wire from './wire';

/** Checkout Sessions (hosted payment page) and the customer portal: its configurations and sessions. */

const url = () => string(5000);

function checkUrl(value: string, param: string) {
  try {
    const parsed = new URL(value);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return value;
  } catch {
    // refused below
  }
  throw invalidRequest(`Not a valid URL`, 'url_invalid', param);
}

export const checkoutEndpoints = [
  endpoint({
    method: 'POST',
    path: '/checkout/sessions',
    params: {
      mode: oneOf(['payment', 'setup', 'subscription'] as const),
      line_items: optional(array(object({ price: string(255), quantity: integer(1, 1) }), 1)),
      success_url: optional(url()),
      cancel_url: optional(url()),
      customer: optional(string(255)),
      customer_email: optional(string(800)),
      client_reference_id: optional(string(200)),
      metadata: optional(metadata()),
      subscription_data: optional(
        object({ metadata: optional(metadata()), description: optional(string(500)) }),
      ),
      allow_promotion_codes: optional(boolean()),
      billing_address_collection: optional(oneOf(['auto', 'required'] as const)),
      expires_at: optional(integer()),
    },
    run: ({ params, state, engine }) => {
      if (params.mode !== 'subscription') {
        throw invalidRequest(
          `The Crossfade sandbox emulates Checkout in subscription mode only; mode=${params.mode} is not available here.`,
          undefined,
          'mode',
        );
      }
      if (!params.line_items?.length)
        throw invalidRequest('Missing required param: line_items.', 'parameter_missing', 'line_items');
      if (!params.success_url) {
        throw invalidRequest('Missing required param: success_url.', 'parameter_missing', 'success_url');
      }
      if (params.customer && params.customer_email) {
        throw invalidRequest('You may only specify one of these parameters: customer, customer_email.');
      }
      if (params.customer) customerOf(state, params.customer, 'customer');
      for (const [index, item] of params.line_items.entries()) {
        const price = state.prices[item.price];
        if (!price) throw noSuch('price', item.price, `line_items[${index}][price]`);
        if (!price.active) {
          throw invalidRequest(
            `The price specified is inactive. This field only accepts active prices.`,
            undefined,
            `line_items[${index}][price]`,
          );
        }
      }
      const created = realNow();
      const expiresAt = params.expires_at ?? created + DAY;
      if (expiresAt < created + 30 * 60 || expiresAt > created + DAY) {
        throw invalidRequest(
          'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
          undefined,
          'expires_at',
        );
      }
      const record = {
        id: newId('checkoutSession'),
        created,
        expiresAt,
        customer: params.customer ?? null,
        customerEmail: params.customer_email ?? null,
        clientReferenceId: params.client_reference_id ?? null,
        lineItems: params.line_items,
        successUrl: checkUrl(params.success_url, 'success_url'),
        cancelUrl: params.cancel_url ? checkUrl(params.cancel_url, 'cancel_url') : null,
        metadata: mergeMetadata({}, params.metadata),
        subscriptionMetadata: mergeMetadata({}, params.subscription_data?.metadata),
        status: 'open' as const,
        paymentStatus: 'unpaid' as const,
        subscription: null,
        invoice: null,
        lastError: null,
      };
      state.checkoutSessions[record.id] = record;
      return wire.checkoutSession(state, record, engine.urls);
    },
  }),
  endpoint({
    method: 'GET',
    path: '/checkout/sessions/:id',
    params: {},
    run: ({ path, state, engine }) => {
      const record = state.checkoutSessions[path.id ?? ''];
      if (!record) throw noSuch('checkout.session', path.id ?? '');
      return wire.checkoutSession(state, record, engine.urls);
    },
  }),
  endpoint({
    method: 'GET',
    path: '/checkout/sessions',
    params: {
      ...pageParams,
      customer: optional(string(255)),
      status: optional(oneOf(['open', 'complete', 'expired'] as const)),
      subscription: optional(string(255)),
    },
    run: ({ params, state, engine }) => {
      const records = newestFirst(Object.values(state.checkoutSessions)).filter(
        (record) =>
          (params.customer === undefined || record.customer === params.customer) &&
          (params.status === undefined || record.status === params.status) &&
          (params.subscription === undefined || record.subscription === params.subscription),
      );
      return page(records, params, '/v1/checkout/sessions', (record) =>
        wire.checkoutSession(state, record, engine.urls),
      );
    },
  }),
  endpoint({
    method: 'POST',
    path: '/checkout/sessions/:id/expire',
    params: {},
    run: ({ path, state, engine }) => {
      const record = state.checkoutSessions[path.id ?? ''];
      if (!record) throw noSuch('checkout.session', path.id ?? '');
      if (record.status !== 'open') {
        throw invalidRequest(
          `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${record.status}".`,
        );
      }
      record.status = 'expired';
      recordEvent(
        state,
        'checkout.session.expired',
        wire.checkoutSession(state, record, engine.urls),
        engine.cause,
      );
      return wire.checkoutSession(state, record, engine.urls);
    },
  }),
];

/** An open session past its `expires_at` is expired (the emulator's timer looks every minute). */
export function expireIfDue(state: StripeState, id: string, engine: Engine) {
  const record = state.checkoutSessions[id];
  if (record?.status === 'open' && record.expiresAt <= realNow()) {
    record.status = 'expired';
    recordEvent(
      state,
      'checkout.session.expired',
      wire.checkoutSession(state, record, engine.urls),
      engine.cause,
    );
  }
}

const featureParams = {
  invoice_history: optional(object({ enabled: boolean() })),
  payment_method_update: optional(object({ enabled: boolean() })),
  customer_update: optional(
    object({
      enabled: boolean(),
      allowed_updates: optional(
        array(oneOf(['email', 'name', 'address', 'phone', 'shipping', 'tax_id'] as const), 6),
      ),
    }),
  ),
  subscription_cancel: optional(
    object({
      enabled: boolean(),
      mode: optional(oneOf(['at_period_end', 'immediately'] as const)),
      proration_behavior: optional(oneOf(['always_invoice', 'create_prorations', 'none'] as const)),
    }),
  ),
  subscription_update: optional(
    object({
      enabled: boolean(),
      default_allowed_updates: optional(array(oneOf(['price', 'quantity', 'promotion_code'] as const), 3)),
      products: optional(array(object({ product: string(255), prices: array(string(255), 10) }), 10)),
      proration_behavior: optional(oneOf(['always_invoice', 'create_prorations', 'none'] as const)),
    }),
  ),
};

export const portalEndpoints = [
  endpoint({
    method: 'POST',
    path: '/billing_portal/configurations',
    params: {
      business_profile: optional(
        object({
          headline: optional(string(60)),
          privacy_policy_url: optional(url()),
          terms_of_service_url: optional(url()),
        }),
      ),
      default_return_url: optional(url()),
      features: object(featureParams),
      metadata: optional(metadata()),
    },
    run: ({ params, state }) => {
      const update = params.features.subscription_update;
      for (const entry of update?.products ?? []) {
        if (!state.products[entry.product])
          throw noSuch('product', entry.product, 'features[subscription_update][products]');
        for (const priceId of entry.prices) {
          if (state.prices[priceId]?.product !== entry.product) {
            throw invalidRequest(
              `The price ${priceId} does not belong to the product ${entry.product}.`,
              undefined,
              'features[subscription_update][products]',
            );
          }
        }
      }
      if (update?.enabled && !update.products?.length) {
        throw invalidRequest(
          'To enable subscription updates, provide at least one product.',
          undefined,
          'features[subscription_update][products]',
        );
      }
      const isDefault = !Object.values(state.portalConfigurations).some(
        (configuration) => configuration.isDefault,
      );
      const record: PortalConfigurationRecord = {
        id: newId('portalConfiguration'),
        created: realNow(),
        isDefault,
        headline: params.business_profile?.headline ?? null,
        defaultReturnUrl: params.default_return_url ?? null,
        cancel: {
          enabled: params.features.subscription_cancel?.enabled ?? false,
          mode: params.features.subscription_cancel?.mode ?? 'at_period_end',
        },
        update: {
          enabled: update?.enabled ?? false,
          products: update?.products ?? [],
          prorationBehavior: update?.proration_behavior ?? 'create_prorations',
        },
        paymentMethodUpdate: params.features.payment_method_update?.enabled ?? false,
        invoiceHistory: params.features.invoice_history?.enabled ?? false,
        metadata: mergeMetadata({}, params.metadata),
      };
      state.portalConfigurations[record.id] = record;
      return wire.portalConfiguration(record);
    },
  }),
  endpoint({
    method: 'GET',
    path: '/billing_portal/configurations',
    params: { ...pageParams, is_default: optional(boolean()), active: optional(boolean()) },
    run: ({ params, state }) => {
      const records = newestFirst(Object.values(state.portalConfigurations)).filter(
        (record) => params.is_default === undefined || record.isDefault === params.is_default,
      );
      return page(records, params, '/v1/billing_portal/configurations', wire.portalConfiguration);
    },
  }),
  endpoint({
    method: 'GET',
    path: '/billing_portal/configurations/:id',
    params: {},
    run: ({ path, state }) => {
      const record = state.portalConfigurations[path.id ?? ''];
      if (!record) throw noSuch('billing_portal.configuration', path.id ?? '');
      return wire.portalConfiguration(record);
    },
  }),
  endpoint({
    method: 'POST',
    path: '/billing_portal/sessions',
    params: {
      customer: string(255),
      return_url: optional(url()),
      configuration: optional(string(255)),
      locale: optional(string(10)),
      flow_data: optional(
        object({
          type: oneOf([
            'subscription_update_confirm',
            'subscription_cancel',
            'payment_method_update',
            'subscription_update',
          ] as const),
          subscription_update_confirm: optional(
            object({
              subscription: string(255),
              items: array(
                object({ id: string(255), price: optional(string(255)), quantity: optional(integer(1, 1)) }),
                1,
              ),
            }),
          ),
          subscription_cancel: optional(object({ subscription: string(255) })),
          after_completion: optional(
            object({
              type: oneOf(['redirect', 'portal_homepage', 'hosted_confirmation'] as const),
              redirect: optional(object({ return_url: url() })),
            }),
          ),
        }),
      ),
    },
    run: ({ params, state, engine }) => {
      const customer = customerOf(state, params.customer, 'customer');
      const configuration = params.configuration
        ? state.portalConfigurations[params.configuration]
        : Object.values(state.portalConfigurations).find((candidate) => candidate.isDefault);
      if (params.configuration && !configuration) {
        throw noSuch('billing_portal.configuration', params.configuration, 'configuration');
      }
      if (!configuration) {
        throw invalidRequest(
          "You can't create a portal session in test mode until you save your customer portal settings in test mode at https://dashboard.stripe.com/test/settings/billing/portal.",
        );
      }
      const returnUrl = params.return_url ?? configuration.defaultReturnUrl;
      const record = {
        id: newId('portalSession'),
        token: pageToken(),
        created: realNow(),
        // The page stays usable for an hour; Stripe's sessions are short-lived the same way.
        expiresAt: realNow() + 60 * 60,
        customer: customer.id,
        configuration: configuration.id,
        returnUrl: returnUrl ? checkUrl(returnUrl, 'return_url') : null,
        flow: readFlow(state, params.flow_data, customer.id, configuration),
        notice: null,
      };
      state.portalSessions[record.id] = record;
      return wire.portalSession(record, engine.urls);
    },
  }),
];

function readFlow(
  state: StripeState,
  flow: unknown,
  customerId: string,
  configuration: PortalConfigurationRecord,
): PortalFlow | null {
  const data = flow as FlowDataShape | undefined;
  if (!data) return null;
  const afterCompletionUrl =
    data.after_completion?.type === 'redirect'
      ? checkUrl(
          data.after_completion.redirect?.return_url ?? '',
          'flow_data[after_completion][redirect][return_url]',
        )
      : null;
  const ownSubscription = (id: string, param: string) => {
    const sub = state.subscriptions[id];
    if (!sub || sub.customer !== customerId) throw noSuch('subscription', id, param);
    if (sub.status === 'canceled') throw invalidRequest('The subscription is canceled.', undefined, param);
    return sub;
  };
  if (data.type === 'subscription_update_confirm') {
    const confirm = data.subscription_update_confirm;
    if (!confirm)
      throw invalidRequest(
        'Missing required param: flow_data[subscription_update_confirm].',
        'parameter_missing',
      );
    const sub = ownSubscription(confirm.subscription, 'flow_data[subscription_update_confirm][subscription]');
    const item = confirm.items[0];
    if (item?.id !== sub.item.id)
      throw noSuch(
        'subscription item',
        item?.id ?? '',
        'flow_data[subscription_update_confirm][items][0][id]',
      );
    const allowed = configuration.update.products.some(
      (entry) => item.price && entry.prices.includes(item.price),
    );
    if (!configuration.update.enabled || !allowed) {
      throw invalidRequest(
        'The price is not one the portal configuration allows switching to.',
        undefined,
        'flow_data[subscription_update_confirm][items][0][price]',
      );
    }
    return { type: data.type, subscription: sub.id, price: item.price ?? null, afterCompletionUrl };
  }
  if (data.type === 'subscription_cancel') {
    const id = data.subscription_cancel?.subscription ?? '';
    const sub = ownSubscription(id, 'flow_data[subscription_cancel][subscription]');
    return { type: data.type, subscription: sub.id, price: null, afterCompletionUrl };
  }
  if (data.type === 'payment_method_update')
    return { type: data.type, subscription: null, price: null, afterCompletionUrl };
  throw invalidRequest(
    `The Crossfade sandbox does not emulate the ${data.type} flow.`,
    undefined,
    'flow_data[type]',
  );
}

interface FlowDataShape {
  type: string;
  subscription_update_confirm?: { subscription: string; items: { id: string; price?: string }[] };
  subscription_cancel?: { subscription: string };
  after_completion?: { type: string; redirect?: { return_url: string } };
}
