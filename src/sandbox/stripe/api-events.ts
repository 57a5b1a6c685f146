import { mergeMetadata } from './api-customers';
import { endpoint } from './api-router';
import { realNow } from './clock';
import { invalidRequest, noSuch } from './errors';
import { newId } from './ids';
import { newestFirst, page, pageParams } from './lists';
import { array, boolean, metadata, optional, string } from './params';
import type { StripeState } from './state';
import * as wire from './wire';

/** Events and the webhook endpoints they are sent to. */

const endpointOf = (state: StripeState, id: string) => {
  const record = state.webhookEndpoints[id];
  if (!record) throw noSuch('webhook endpoint', id);
  return record;
};

function checkWebhookUrl(value: string) {
  try {
    const parsed = new URL(value);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return value;
  } catch {
    // refused below
  }
  throw invalidRequest('Invalid URL: must be a valid http(s) URL', 'url_invalid', 'url');
}

/** `*` or event type names (`invoice.paid`): Stripe refuses anything else. */
function checkEventTypes(types: string[]) {
  types.forEach((type, index) => {
    if (type !== '*' && !/^[a-z_]+(\.[a-z_]+)+$/.test(type)) {
      throw invalidRequest(
        `Invalid enabled_events[${index}]: not an event type`,
        undefined,
        `enabled_events[${index}]`,
      );
    }
  });
  return types;
}

export const eventEndpoints = [
  endpoint({
    method: 'GET',
    path: '/events/:id',
    params: {},
    run: ({ path, state }) => {
      const record = state.events.find((event) => event.id === path.id);
      if (!record) throw noSuch('event', path.id ?? '');
      return wire.event(record);
    },
  }),
  endpoint({
    method: 'GET',
    path: '/events',
    params: { ...pageParams, type: optional(string(100)), types: optional(array(string(100), 20)) },
    run: ({ params, state }) => {
      const matches = (type: string, pattern: string) =>
        pattern.endsWith('*') ? type.startsWith(pattern.slice(0, -1)) : type === pattern;
      const records = newestFirst(state.events).filter(
        (record) =>
          (params.type === undefined || matches(record.type, params.type)) &&
          (params.types === undefined || params.types.some((pattern) => matches(record.type, pattern))),
      );
      return page(records, params, '/v1/events', wire.event);
    },
  }),
];

export const webhookEndpointEndpoints = [
  endpoint({
    method: 'POST',
    path: '/webhook_endpoints',
    params: {
      url: string(5000),
      enabled_events: array(string(100), 250),
      description: optional(string(5000)),
      metadata: optional(metadata()),
      api_version: optional(string(40)),
    },
    run: ({ params, state }) => {
      if (params.api_version && params.api_version !== wire.STRIPE_API_VERSION) {
        throw invalidRequest(`Invalid API version: ${params.api_version}`, undefined, 'api_version');
      }
      checkEventTypes(params.enabled_events);
      const record = {
        id: newId('webhookEndpoint'),
        created: realNow(),
        url: checkWebhookUrl(params.url),
        // A signing secret of its own, shown once: in this answer and never again.
        secret: newId('webhookSecret'),
        enabledEvents: params.enabled_events,
        description: params.description ?? null,
        metadata: mergeMetadata({}, params.metadata),
        status: 'enabled' as const,
      };
      state.webhookEndpoints[record.id] = record;
      return wire.webhookEndpoint(record, true);
    },
  }),
  endpoint({
    method: 'GET',
    path: '/webhook_endpoints/:id',
    params: {},
    run: ({ path, state }) => wire.webhookEndpoint(endpointOf(state, path.id ?? '')),
  }),
  endpoint({
    method: 'GET',
    path: '/webhook_endpoints',
    params: pageParams,
    run: ({ params, state }) =>
      page(newestFirst(Object.values(state.webhookEndpoints)), params, '/v1/webhook_endpoints', (record) =>
        wire.webhookEndpoint(record),
      ),
  }),
  endpoint({
    method: 'POST',
    path: '/webhook_endpoints/:id',
    params: {
      url: optional(string(5000)),
      enabled_events: optional(array(string(100), 250)),
      disabled: optional(boolean()),
      description: optional(string(5000)),
      metadata: optional(metadata()),
    },
    run: ({ params, path, state }) => {
      const record = endpointOf(state, path.id ?? '');
      if (params.url !== undefined) record.url = checkWebhookUrl(params.url);
      if (params.enabled_events !== undefined) record.enabledEvents = checkEventTypes(params.enabled_events);
      if (params.disabled !== undefined) record.status = params.disabled ? 'disabled' : 'enabled';
      if (params.description !== undefined) record.description = params.description;
      record.metadata = mergeMetadata(record.metadata, params.metadata);
      return wire.webhookEndpoint(record);
    },
  }),
  endpoint({
    method: 'DELETE',
    path: '/webhook_endpoints/:id',
    params: {},
    run: ({ path, state }) => {
      const record = endpointOf(state, path.id ?? '');
      delete state.webhookEndpoints[record.id];
      state.deliveries = state.deliveries.filter((delivery) => delivery.endpointId !== record.id);
      return { id: record.id, object: 'webhook_endpoint', deleted: true };
    },
  }),
];
