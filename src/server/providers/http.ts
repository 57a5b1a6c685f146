import type { z } from 'zod';
import type { ServiceId } from '../../shared/services';
import { cleanJsonText, containsUnsafeText } from '../../shared/text';
import { BudgetWaitTooLong, type CallScheduler, type CallSlot, type CallTurn } from './call-turns';
import type { RateLimitListener } from './types';

/**
 * The HTTP layer both service clients share: timeouts, retries with backoff and jitter on 5xx and network
 * errors, exact `Retry-After` waits on 429, one token refresh on 401, and zod parsing of every answer.
 * Service-specific error bodies are turned into `ProviderError`s by the client's `describeError`.
 */

export type ProviderErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_registered'
  | 'reconnect_required'
  | 'not_found'
  | 'rate_limited'
  | 'unavailable'
  | 'malformed';

export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    readonly service: ServiceId,
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
    /** For `rate_limited`: how long the service asked us to wait when that was longer than we wait inline. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

export interface HttpClientOptions {
  service: ServiceId;
  baseUrl: string;
  timeoutMs?: number;
  /** Retries for 5xx, timeouts and network errors. */
  maxRetries?: number;
  /** Retries for 429s. */
  maxRateLimitRetries?: number;
  /** Longest `Retry-After` waited inline; a longer one fails with kind `rate_limited` and `retryAfterMs`. */
  maxRetryAfterMs?: number;
  /** First backoff step for 5xx and for 429s without `Retry-After` (Apple sends none). */
  backoffBaseMs?: number;
  onRateLimit?: RateLimitListener;
  /**
   * The service's quota as this process has learned it, shared by every client of the same app: calls
   * wait for a slot in it rather than run into 429s (see rate-budget.ts).
   */
  rateBudget?: CallScheduler;
  /** Whose call this client makes, and whether a person waits for it: its turn in the budget. */
  turn?: CallTurn;
  /** Turns a non-ok answer into an error a person understands. */
  describeError: (status: number, bodyText: string) => ProviderError;
  fetchImpl?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Absolute URL, or a path joined to `baseUrl` (root-relative paths keep the base's origin only). */
  url: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Headers that carry credentials; called before each attempt so a refreshed token is used. */
  headers?: () => Promise<Record<string, string>> | Record<string, string>;
  /** Called once on a 401; return true when new credentials are ready and the call should be repeated. */
  onUnauthorized?: () => Promise<boolean>;
  /**
   * False for writes that must not happen twice (adding tracks, creating a playlist): after a 5xx or a
   * timeout the service may already have applied them, so the caller (a transfer job that reconciles
   * with the destination) decides instead. A 429 is always retried: it means nothing was done.
   */
  retryServerErrors?: boolean;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class HttpClient {
  private readonly options: Required<
    Omit<
      HttpClientOptions,
      'onRateLimit' | 'rateBudget' | 'turn' | 'fetchImpl' | 'sleep' | 'random' | 'describeError'
    >
  > &
    HttpClientOptions;
  /** Calls made, by "METHOD /path" with ids folded, for benchmarks and job statistics. */
  readonly callCounts = new Map<string, number>();
  /**
   * After a 429 every request of this client holds back until the service's `Retry-After` has passed,
   * not only the one that was refused: otherwise parallel requests keep running into the limit and each
   * refused call spends quota of its own.
   */
  private blockedUntil = 0;

  constructor(options: HttpClientOptions) {
    this.options = {
      timeoutMs: 15_000,
      maxRetries: 4,
      maxRateLimitRetries: 8,
      maxRetryAfterMs: 60_000,
      backoffBaseMs: 500,
      ...options,
    };
  }

  set onRateLimit(listener: RateLimitListener | undefined) {
    if (listener) this.options.onRateLimit = listener;
    else delete this.options.onRateLimit;
  }

  resolveUrl(url: string, query?: RequestOptions['query']): URL {
    const base = this.options.baseUrl.endsWith('/') ? this.options.baseUrl : `${this.options.baseUrl}/`;
    let resolved: URL;
    if (/^https?:\/\//.test(url)) resolved = new URL(url);
    else if (url.startsWith('/')) {
      // Root-relative (Apple's `next`): keep the base's origin and any path prefix before the API version.
      const baseUrl = new URL(base);
      const prefix = baseUrl.pathname.replace(/\/v1\/?$/, '').replace(/\/$/, '');
      resolved = new URL(`${prefix}${url}`, baseUrl.origin);
    } else resolved = new URL(url, base);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) resolved.searchParams.set(key, String(value));
    }
    return resolved;
  }

  /** Sends a request and parses the JSON answer with `schema`; `null` schema means the body is ignored. */
  async request<T>(schema: z.ZodType<T>, request: RequestOptions): Promise<T>;
  async request(schema: null, request: RequestOptions): Promise<undefined>;
  async request<T>(schema: z.ZodType<T> | null, request: RequestOptions): Promise<T | undefined> {
    const { service } = this.options;
    const url = this.resolveUrl(request.url, request.query);
    const method = request.method ?? 'GET';
    let serverErrors = 0;
    let rateLimits = 0;
    let refreshed = false;
    /** True right after this request slept out its own 429, so it does not wait at the gate again. */
    let waitedOut = false;

    for (;;) {
      const held = this.blockedUntil - Date.now();
      if (held > 0 && !waitedOut) await (this.options.sleep ?? defaultSleep)(held);
      waitedOut = false;
      const budget = this.options.rateBudget;
      const slot = budget ? await this.fitBudget(budget) : undefined;
      let response: Response;
      this.countCall(method, url); // every attempt counts: benchmarks compare real calls with the minimum
      try {
        response = await this.send(method, url, request);
        // A refusal for the rate limit is not counted by the service, and tells us its budget.
        if (budget && slot) budget.release(slot, response.status !== 429);
      } catch (error) {
        if (budget && slot) budget.release(slot, true); // it may have reached the service and been counted
        if (request.retryServerErrors === false || serverErrors >= this.options.maxRetries) {
          throw new ProviderError(
            service,
            'unavailable',
            `${label(service)} did not answer (${describeFailure(error)}).`,
          );
        }
        await this.backoff(serverErrors++);
        continue;
      }

      if (response.ok) {
        if (schema === null) {
          await response.arrayBuffer();
          return undefined;
        }
        return this.parse(schema, response, url);
      }

      const bodyText = await response.text().catch(() => '');
      if (response.status === 401 && request.onUnauthorized && !refreshed) {
        refreshed = true;
        if (await request.onUnauthorized()) continue;
      }
      if (response.status === 429) {
        if (budget && slot) await budget.learn(slot);
        if (rateLimits >= this.options.maxRateLimitRetries) throw this.options.describeError(429, bodyText);
        const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
        const waitMs = retryAfterMs ?? this.backoffDelay(rateLimits);
        if (waitMs > this.options.maxRetryAfterMs) {
          throw new ProviderError(
            service,
            'rate_limited',
            `${label(service)} asked us to wait ${Math.ceil(waitMs / 1000)} s before the next request.`,
            429,
            waitMs,
          );
        }
        rateLimits++;
        this.blockedUntil = Math.max(this.blockedUntil, Date.now() + waitMs);
        this.options.onRateLimit?.({ service, waitMs, attempt: rateLimits });
        await (this.options.sleep ?? defaultSleep)(waitMs);
        waitedOut = true;
        continue;
      }
      if (
        response.status >= 500 &&
        request.retryServerErrors !== false &&
        serverErrors < this.options.maxRetries
      ) {
        await this.backoff(serverErrors++);
        continue;
      }
      throw this.options.describeError(response.status, bodyText);
    }
  }

  /**
   * Waits for this call's turn and a slot in the learned budget (see call-turns.ts). A wait longer than we
   * wait inline fails as a 429 would (kind `rate_limited` with how long), so a job requeues rather than
   * holds its worker.
   */
  private async fitBudget(budget: CallScheduler): Promise<CallSlot> {
    try {
      return await budget.acquire(this.options.turn ?? { interactive: true }, this.options.maxRetryAfterMs);
    } catch (error) {
      if (!(error instanceof BudgetWaitTooLong)) throw error;
      const { service } = this.options;
      throw new ProviderError(
        service,
        'rate_limited',
        `${label(service)} asked us to wait ${Math.ceil(error.waitMs / 1000)} s before the next request.`,
        429,
        error.waitMs,
      );
    }
  }

  private async send(method: string, url: URL, request: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', ...(await request.headers?.()) };
    let body: string | undefined;
    if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.body);
    }
    return (this.options.fetchImpl ?? fetch)(url, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
  }

  private async parse<T>(schema: z.ZodType<T>, response: Response, url: URL): Promise<T> {
    const { service } = this.options;
    const text = await response.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new ProviderError(
        service,
        'malformed',
        `${label(service)} sent an answer that is not JSON.`,
        response.status,
      );
    }
    // The text rule for what services send (issue 10): a NUL or lone surrogate in a title people typed is
    // cleaned here, once, so it can never fail a database write or an encodeURIComponent further on.
    if (containsUnsafeText(json)) json = cleanJsonText(json);
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'unknown shape';
      throw new ProviderError(
        service,
        'malformed',
        `${label(service)} sent an unexpected answer for ${url.pathname} (${where}).`,
        response.status,
      );
    }
    return parsed.data;
  }

  private backoffDelay(attempt: number): number {
    const base = this.options.backoffBaseMs * 2 ** attempt;
    // Full jitter between half and the whole step, so parallel jobs do not retry in lock-step.
    return Math.round(base / 2 + (this.options.random ?? Math.random)() * (base / 2));
  }

  private backoff(attempt: number): Promise<void> {
    return (this.options.sleep ?? defaultSleep)(this.backoffDelay(attempt));
  }

  private countCall(method: string, url: URL) {
    const path = url.pathname.replace(
      /\/(?:[A-Za-z0-9]{22}|[pil]\.[A-Za-z0-9-]+|pl\.[A-Za-z0-9.-]+|\d{5,})(?=\/|$)/g,
      '/{id}',
    );
    const key = `${method} ${path}`;
    this.callCounts.set(key, (this.callCounts.get(key) ?? 0) + 1);
  }
}

/** `Retry-After` in seconds (the form both services use) or as an HTTP date. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

const label = (service: ServiceId) => (service === 'spotify' ? 'Spotify' : 'Apple Music');
const describeFailure = (error: unknown) =>
  error instanceof Error ? (error.name === 'TimeoutError' ? 'timed out' : error.message) : String(error);
