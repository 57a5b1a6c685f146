import { createHash, timingSafeEqual } from 'node:crypto';
import { type Context, Hono } from 'hono';
import type { Engine } from './billing';
import { invalidRequest, StripeApiError, unknownRoute } from './errors';
import type { EventCause } from './events';
import { expandAnswer } from './expand';
import { newId } from './ids';
import { type Params, parseForm, readParams } from './params';
import type { StripeState, StripeStore } from './state';
import { type PageUrls, STRIPE_API_VERSION, type Wire } from './wire';

/**
 * The frame around every `/v1` endpoint, doing what Stripe's API does before and after an endpoint runs:
 * secret-key authentication (401 with Stripe's body), the `Stripe-Version` it answers in, parameters read
 * strictly from the form body or the query, `Idempotency-Key` (the first answer replayed for the same
 * parameters, 400 for different ones, kept 24 hours), `expand[]`, and `Request-Id` on every answer.
 */
type Shape = Parameters<typeof readParams>[0];

export interface Call<S extends Shape> {
  params: Params<S>;
  path: Record<string, string>;
  state: StripeState;
  engine: Engine;
}

export interface Endpoint<S extends Shape = Shape> {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  params: S;
  run(call: Call<S>): Wire;
}

/** Declares an endpoint with its parameters (types flow from the shape into `run`). */
export const endpoint = <S extends Shape>(definition: Endpoint<S>): Endpoint =>
  definition as unknown as Endpoint;

export interface RouterOptions {
  store: StripeStore;
  secretKey: string;
  urls: PageUrls;
  /** Called after every change, so queued webhooks go out. */
  changed(): void;
}

const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;

function authenticate(header: string | undefined, secretKey: string) {
  if (!header) {
    throw new StripeApiError(
      401,
      'invalid_request_error',
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
    );
  }
  let key = '';
  if (header.startsWith('Bearer ')) key = header.slice(7).trim();
  else if (header.startsWith('Basic '))
    key = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':')[0] ?? '';
  const given = Buffer.from(key);
  const expected = Buffer.from(secretKey);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    const shown =
      key.length > 8 ? `${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}` : key;
    throw new StripeApiError(401, 'invalid_request_error', `Invalid API Key provided: ${shown}`);
  }
}

async function readForm(c: Context): Promise<ReturnType<typeof parseForm>> {
  if (c.req.method === 'POST') {
    const type = c.req.header('content-type') ?? '';
    const body = await c.req.text();
    if (body !== '' && !type.startsWith('application/x-www-form-urlencoded')) {
      throw invalidRequest(
        'Invalid request: the body must be application/x-www-form-urlencoded, as Stripe reads it.',
      );
    }
    if (new URL(c.req.url).search) {
      throw invalidRequest('Parameters of a POST go in its body, not its query string.');
    }
    return parseForm(body);
  }
  return parseForm(new URL(c.req.url).search.slice(1));
}

export function createApiRouter(endpoints: readonly Endpoint[], options: RouterOptions) {
  const { store } = options;
  const app = new Hono<{ Variables: { requestId: string } }>();

  app.use('*', async (c, next) => {
    c.set('requestId', newId('request'));
    c.header('Request-Id', c.get('requestId'));
    c.header('Stripe-Version', STRIPE_API_VERSION);
    c.header('Cache-Control', 'no-cache, no-store');
    await next();
  });

  const answer = (c: Context, status: number, body: string) =>
    c.body(body, status as 200, { 'Content-Type': 'application/json' });
  const fail = (c: Context, error: StripeApiError) =>
    answer(c, error.status, JSON.stringify(error.toBody(), null, 2));

  for (const definition of endpoints) {
    app.on(definition.method, definition.path, async (c) => {
      try {
        authenticate(c.req.header('authorization'), options.secretKey);
        const version = c.req.header('stripe-version');
        if (version && version !== STRIPE_API_VERSION) {
          throw invalidRequest(
            `Invalid Stripe API version: ${version}. The Crossfade sandbox answers in ${STRIPE_API_VERSION}, the version of the stripe package it ships with.`,
          );
        }
        // Parameters are checked before the endpoint runs: a refused request saves no idempotent answer.
        const params = readParams(definition.params, await readForm(c));
        const key = c.req.method === 'POST' ? c.req.header('idempotency-key') : undefined;
        if (key !== undefined) {
          const replay = replayed(store.value, key, c.req.method, c.req.path, params);
          if (replay) {
            c.header('Idempotent-Replayed', 'true');
            c.header('Idempotency-Key', key);
            return answer(c, replay.status, replay.body);
          }
        }
        const cause: EventCause = { requestId: c.get('requestId'), idempotencyKey: key ?? null };
        const result = execute(definition, params, c.req.param(), cause, options);
        if (key !== undefined) {
          c.header('Idempotency-Key', key);
          store.update((state) => {
            forgetOldKeys(state);
            state.idempotency[key] = {
              method: c.req.method,
              path: c.req.path,
              params: fingerprint(params),
              status: result.status,
              body: result.body,
              createdMs: Date.now(),
            };
          });
        }
        return answer(c, result.status, result.body);
      } catch (error) {
        if (error instanceof StripeApiError) return fail(c, error);
        throw error;
      }
    });
  }
  app.all('*', (c) => fail(c, unknownRoute(c.req.method, c.req.path)));
  return app;
}

/** Runs an endpoint; its own refusals (a missing customer, a card declined) are answers to save too. */
function execute(
  definition: Endpoint,
  params: Params<Shape>,
  path: Record<string, string>,
  cause: EventCause,
  options: RouterOptions,
): { status: number; body: string } {
  const engine: Engine = { urls: options.urls, cause };
  // Answers are copied before expansion, so expanding never touches the stored objects (event snapshots).
  const runIt = (state: StripeState) => {
    const result = structuredClone(definition.run({ params, path, state, engine }));
    return expandAnswer(result, params.expand ?? [], state, options.urls);
  };
  try {
    const wireAnswer =
      definition.method === 'GET'
        ? runIt(options.store.value as StripeState)
        : options.store.update((state) => {
            // A refusal halfway leaves nothing half-done: what the endpoint changed is put back. The logs
            // (events, deliveries) only grow in an endpoint, so a shallow copy of them is enough.
            const { events, deliveries, idempotency, ...objects } = state;
            const saved = {
              ...structuredClone(objects),
              events: [...events],
              deliveries: [...deliveries],
              idempotency,
            };
            try {
              return runIt(state);
            } catch (error) {
              Object.assign(state, saved);
              throw error;
            }
          });
    if (definition.method !== 'GET') options.changed();
    return { status: 200, body: JSON.stringify(wireAnswer, null, 2) };
  } catch (error) {
    if (error instanceof StripeApiError)
      return { status: error.status, body: JSON.stringify(error.toBody(), null, 2) };
    throw error;
  }
}

const fingerprint = (params: unknown) => createHash('sha256').update(JSON.stringify(params)).digest('hex');

function replayed(state: StripeState, key: string, method: string, path: string, params: unknown) {
  const saved = state.idempotency[key];
  if (!saved || Date.now() - saved.createdMs > IDEMPOTENCY_TTL_MS) return undefined;
  if (saved.method !== method || saved.path !== path || saved.params !== fingerprint(params)) {
    throw new StripeApiError(
      400,
      'idempotency_error',
      `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
    );
  }
  return saved;
}

function forgetOldKeys(state: StripeState) {
  const cutoff = Date.now() - IDEMPOTENCY_TTL_MS;
  for (const [key, saved] of Object.entries(state.idempotency))
    if (saved.createdMs < cutoff) delete state.idempotency[key];
}
