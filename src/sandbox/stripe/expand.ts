import { invalidRequest } from './errors';
import type { StripeState } from './state';
import type { PageUrls, Wire } from './wire';
import * as wire from './wire';

/** Fields that hold an expandable id (or null) on the objects the emulator answers. */
const EXPANDABLE = new Set([
  'customer',
  'subscription',
  'invoice',
  'latest_invoice',
  'product',
  'default_payment_method',
  'test_clock',
  'configuration',
  'default_price',
]);

/** The objects an id can be expanded into, by the id's prefix. */
function lookup(state: StripeState, urls: PageUrls, id: string): Wire | undefined {
  const [prefix] = id.split('_', 1);
  switch (prefix) {
    case 'cus': {
      const record = state.customers[id];
      return record && wire.customer(record);
    }
    case 'sub': {
      const record = state.subscriptions[id];
      return record && wire.subscription(state, record);
    }
    case 'in': {
      const record = state.invoices[id];
      return record && wire.invoice(state, record, urls);
    }
    case 'price': {
      const record = state.prices[id];
      return record && wire.price(record);
    }
    case 'prod': {
      const record = state.products[id];
      return record && wire.product(record);
    }
    case 'pm': {
      const record = state.paymentMethods[id];
      return record && wire.paymentMethod(record);
    }
    case 'clock': {
      const record = state.testClocks[id];
      return record && wire.testClock(record);
    }
    case 'bpc': {
      const record = state.portalConfigurations[id];
      return record && wire.portalConfiguration(record);
    }
    default:
      return undefined;
  }
}

/**
 * `expand[]`: replaces ids on the answer with the objects they name (`customer`, `data.product`,
 * `items.data.price.product`…), at most four levels deep, as Stripe does. A path that names no
 * expandable id is refused with Stripe's message.
 */
export function expandAnswer(
  answer: Wire,
  paths: readonly string[],
  state: StripeState,
  urls: PageUrls,
): Wire {
  for (const path of paths) {
    const segments = path.split('.');
    const depth = segments.filter((segment) => segment !== 'data').length;
    if (depth > 4) {
      throw invalidRequest(
        `You cannot expand more than 4 levels of a property. Property: ${path}`,
        undefined,
        'expand',
      );
    }
    expandAt(answer, segments, path, state, urls);
  }
  return answer;
}

function expandAt(node: Wire, segments: string[], path: string, state: StripeState, urls: PageUrls): void {
  const [head, ...rest] = segments;
  if (head === undefined) return;
  const cannot = () => invalidRequest(`This property cannot be expanded (${path}).`, undefined, 'expand');
  if (!(head in node)) throw cannot();
  const value = node[head];
  if ((value === null || typeof value === 'string') && !EXPANDABLE.has(head)) throw cannot();
  if (value === null) return;
  if (Array.isArray(value)) {
    if (rest.length === 0) throw cannot();
    for (const item of value)
      if (item && typeof item === 'object') expandAt(item as Wire, rest, path, state, urls);
    return;
  }
  if (typeof value === 'string') {
    const object = lookup(state, urls, value);
    if (!object) throw cannot();
    node[head] = object;
    expandAt(object, rest, path, state, urls);
    return;
  }
  if (typeof value === 'object' && rest.length > 0) {
    expandAt(value as Wire, rest, path, state, urls);
    return;
  }
  throw cannot();
}
