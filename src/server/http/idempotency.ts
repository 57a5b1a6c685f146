import { createHash } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENT_REPLAYED_HEADER,
} from '../../shared/idempotency';
import type { AppEnv } from '../app-context';
import type { Database } from '../db/client';
import type { Logger } from '../logger';
import { ApiError } from './errors';
import {
  claimKey,
  deleteExpiredKeys,
  releaseKey,
  renewLease,
  type StoredAnswer,
  saveAnswer,
} from './idempotency-store';

/**
 * `Idempotency-Key` for the create endpoints (`IDEMPOTENT_CREATES`, mounted by app.ts; decision 0023).
 * The first request with a key claims it in the database, runs, and stores its answer; a repeat with the
 * same key and the same method, path and body gets that answer again (`Idempotent-Replayed: true`) and
 * runs nothing, from any process, for 24 hours. A repeat while the first still runs is answered 409 with
 * `Retry-After`, the same key with another request 422. An answer that refused the request (4xx) is not
 * kept: nothing was created, and the key may be sent again once the cause is fixed, as Stripe does for
 * requests that never began. Signed-out requests and requests without the header pass through.
 */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60_000;
/** A claim lasts this long unless renewed; the running copy renews it every third of it. */
const LEASE_MS = 60_000;
/** Expired rows are removed at most this often per process. */
const SWEEP_EVERY_MS = 10 * 60_000;
/** The answer headers worth keeping: what the body is and where the thing created lives. */
const KEPT_HEADERS = ['content-type', 'content-disposition', 'location', 'cache-control'];

export function idempotency(deps: { db: Database; logger: Logger }): MiddlewareHandler<AppEnv> {
  const { db, logger } = deps;
  let lastSweep = 0;
  return async (c, next) => {
    const key = c.req.header(IDEMPOTENCY_KEY_HEADER);
    const user = c.get('user');
    if (key === undefined || !user) return next();
    if (!IDEMPOTENCY_KEY_PATTERN.test(key))
      throw new ApiError(
        400,
        `The ${IDEMPOTENCY_KEY_HEADER} header must be 1 to 255 visible ASCII characters.`,
      );

    const now = Date.now();
    if (now - lastSweep > SWEEP_EVERY_MS) {
      lastSweep = now;
      await deleteExpiredKeys(db, new Date(now - IDEMPOTENCY_WINDOW_MS));
    }
    const { fingerprint, request } = await describeRequest(c);
    const claim = await claimKey(db, {
      userId: user.id,
      key,
      fingerprint,
      request,
      now: new Date(now),
      leaseMs: LEASE_MS,
      expiredBefore: new Date(now - IDEMPOTENCY_WINDOW_MS),
    });
    if (claim.kind === 'replay') return replay(claim.answer);
    if (claim.kind === 'mismatch')
      throw new ApiError(
        422,
        `This ${IDEMPOTENCY_KEY_HEADER} was already used for a different request (the first was ` +
          `${claim.request}). Send a new key for a new request.`,
      );
    if (claim.kind === 'running')
      throw new ApiError(
        409,
        `A request with this ${IDEMPOTENCY_KEY_HEADER} is still running. Try again in a moment to get its answer.`,
        { 'Retry-After': '1' },
      );

    const renewal = setInterval(() => {
      renewLease(db, user.id, key, new Date(Date.now() + LEASE_MS)).catch(() => undefined);
    }, LEASE_MS / 3);
    renewal.unref();
    try {
      await next();
    } catch (error) {
      await releaseKey(db, user.id, key).catch(() => undefined);
      throw error;
    } finally {
      clearInterval(renewal);
    }
    await keepAnswer(db, user.id, key, c.res).catch((error: unknown) => {
      // The request is done either way; a repeat within the lease is told it is running, after it runs again.
      logger.warn({ err: error }, 'could not store the answer of an idempotent request');
    });
  };
}

/** What identifies the request: its method and path (named in a 422) and a hash of all it says. */
async function describeRequest(c: Context<AppEnv>) {
  const url = new URL(c.req.url);
  // Read through Hono, which keeps the body for the route (and through the body limit already in place).
  const body = new Uint8Array(await c.req.arrayBuffer());
  const fingerprint = createHash('sha256')
    .update(`${c.req.method} ${url.pathname}${url.search}\n`)
    .update(body)
    .digest('base64url');
  return { fingerprint, request: `${c.req.method} ${url.pathname}` };
}

async function keepAnswer(db: Database, userId: string, key: string, response: Response) {
  if (response.status >= 400 && response.status < 500) return releaseKey(db, userId, key);
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const body = new Uint8Array(await response.clone().arrayBuffer());
  return saveAnswer(db, userId, key, { status: response.status, headers, body });
}

function replay(answer: StoredAnswer): Response {
  const headers = new Headers(answer.headers);
  headers.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
  return new Response(answer.status === 204 ? null : answer.body.slice(), { status: answer.status, headers });
}
