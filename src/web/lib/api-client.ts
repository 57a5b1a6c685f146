import { z } from 'zod';
import { CSRF_COOKIE, CSRF_HEADER } from '../../shared/api/auth';
import {
  apiErrorSchema,
  type RowProblemDto,
  rowProblemSchema,
  rowProblemsErrorSchema,
} from '../../shared/api/errors';
import { IDEMPOTENCY_KEY_HEADER, isIdempotentCreate } from '../../shared/idempotency';
import { readCookie } from './cookies';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const SAFE_METHODS: ReadonlySet<HttpMethod> = new Set(['GET']);

/**
 * A non-ok answer of the API. Spec section 7: its message reads "{status}: {body}" (the status text when
 * the body is empty); the status and the server's `{message}` are fields, so nothing parses the text back.
 */
export class ApiRequestError extends Error {
  override readonly name = 'ApiRequestError';
  /** The server's `{message}`, for toasts; undefined when the body was not an API error. */
  readonly serverMessage: string | undefined;
  /** The row problems a 400 about a list or file named (`{message, problems}`); others are left out. */
  readonly problems: RowProblemDto[];

  constructor(
    readonly status: number,
    readonly body: string,
    statusText = '',
  ) {
    super(`${status}: ${body === '' ? statusText : body}`);
    this.serverMessage = messageOf(body);
    this.problems = problemsOf(body);
  }
}

/** An ok answer whose body is not what the shared schema says: a bug on one side, never shown as data. */
export class UnexpectedAnswerError extends Error {
  override readonly name = 'UnexpectedAnswerError';
  constructor(
    readonly path: string,
    readonly issues: string,
  ) {
    super(`Unexpected answer from ${path}: ${issues}`);
  }
}

function messageOf(body: string): string | undefined {
  try {
    const parsed = apiErrorSchema.safeParse(JSON.parse(body));
    return parsed.success && parsed.data.message.trim() !== '' ? parsed.data.message : undefined;
  } catch {
    return undefined;
  }
}

function problemsOf(body: string): RowProblemDto[] {
  try {
    const parsed = rowProblemsErrorSchema.safeParse(JSON.parse(body));
    if (!parsed.success) return [];
    return parsed.data.problems.flatMap((problem) => {
      const row = rowProblemSchema.safeParse(problem);
      return row.success ? [row.data] : [];
    });
  } catch {
    return [];
  }
}

/** The HTTP status of a failed API call; undefined when it was no answer of the server (network down). */
export const errorStatus = (error: unknown): number | undefined =>
  error instanceof ApiRequestError ? error.status : undefined;

/** The server's `{message}` of a failed API call, for toasts; undefined when there was none. */
export const serverMessage = (error: unknown): string | undefined =>
  error instanceof ApiRequestError ? error.serverMessage : undefined;

/** The row problems of a failed API call about a list or file; empty when there were none. */
export const rowProblems = (error: unknown): RowProblemDto[] =>
  error instanceof ApiRequestError ? error.problems : [];

/** Throws an `ApiRequestError` for a non-ok answer. */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  throw new ApiRequestError(res.status, await res.text(), res.statusText);
}

/** The server hands out the CSRF cookie on any API call; a mutation sent before the first one would be refused. */
async function ensureCsrfCookie(): Promise<void> {
  if (readCookie(document.cookie, CSRF_COOKIE) !== undefined) return;
  await fetch('/api/auth/status', { credentials: 'include', headers: { accept: 'application/json' } }).catch(
    () => undefined,
  );
}

async function csrfHeaders(method: HttpMethod): Promise<Record<string, string>> {
  if (SAFE_METHODS.has(method) || typeof document === 'undefined') return {};
  await ensureCsrfCookie();
  const token = readCookie(document.cookie, CSRF_COOKIE);
  return token === undefined ? {} : { [CSRF_HEADER]: token };
}

type RequestOptions = Pick<RequestInit, 'keepalive' | 'signal'>;

/**
 * Calls the API with the session cookie and returns the raw answer (for downloads); a non-ok answer
 * throws an `ApiRequestError`. A `Blob` body (a file upload) goes as it is, with its own type; any other
 * body as JSON. Mutating methods echo the `cf_csrf` cookie in `x-csrf-token` (double-submit), which is
 * what the server checks before it accepts the request. A create (`isIdempotentCreate`) goes once per
 * call, however often its answer is lost: see `sendCreate`.
 */
export async function apiRequest(
  method: HttpMethod,
  path: string,
  body?: unknown,
  init: RequestOptions = {},
): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...(await csrfHeaders(method)) };
  const file = typeof Blob !== 'undefined' && body instanceof Blob ? body : undefined;
  if (body !== undefined)
    headers['content-type'] = file ? file.type || 'application/octet-stream' : 'application/json';
  const requestInit: RequestInit = {
    ...init,
    method,
    headers,
    credentials: 'include',
    ...(body === undefined ? {} : { body: file ?? JSON.stringify(body) }),
  };
  const res = isIdempotentCreate(method, pathOf(path))
    ? await sendCreate(path, requestInit, file ? undefined : `${path}\n${requestInit.body ?? ''}`)
    : await fetch(path, requestInit);
  await throwIfResNotOk(res);
  return res;
}

const pathOf = (path: string) => new URL(path, 'http://origin.invalid').pathname;

/** Creates on their way, by path and body: the same create asked for again meanwhile joins the first. */
const createsInFlight = new Map<string, Promise<Response>>();
/** Sends of one create after lost answers (no answer at all: the network, a restart). */
const LOST_ANSWER_TRIES = 3;
/** How long a create waits for its first copy, still running on the server, before giving up. */
const RUNNING_WAIT_MS = 60_000;

/**
 * One user action, one create (decision 0023): the call gets its own `Idempotency-Key`, and every send
 * of it carries that key, so the server runs it once and answers repeats with the first answer. A send
 * whose answer is lost is sent again; a 409 with `Retry-After` (the first copy still running) is asked
 * again after that wait. The same create (path and body) asked for while one is on its way, a double
 * click on a button that stayed enabled, shares its answer instead of going out a second time.
 */
function sendCreate(path: string, init: RequestInit, sameCreate: string | undefined): Promise<Response> {
  const pending = sameCreate === undefined ? undefined : createsInFlight.get(sameCreate);
  if (pending) return pending.then((res) => res.clone());
  const sent = sendWithKey(path, init, newIdempotencyKey());
  if (sameCreate === undefined) return sent;
  createsInFlight.set(sameCreate, sent);
  const forget = () => createsInFlight.delete(sameCreate);
  sent.then(forget, forget);
  // Every caller reads a copy: the one in the map is never read, so a late joiner can still copy it.
  return sent.then((res) => res.clone());
}

async function sendWithKey(path: string, init: RequestInit, key: string): Promise<Response> {
  const headers = { ...(init.headers as Record<string, string>), [IDEMPOTENCY_KEY_HEADER]: key };
  const giveUpAt = Date.now() + RUNNING_WAIT_MS;
  for (let lost = 0; ; ) {
    let res: Response;
    try {
      res = await fetch(path, { ...init, headers });
    } catch (error) {
      // No answer: the server may have created it all the same, which the key makes safe to ask again.
      if ((error as Error).name === 'AbortError' || ++lost >= LOST_ANSWER_TRIES) throw error;
      await pause(500 * lost);
      continue;
    }
    const retryAfter = Number(res.headers.get('retry-after'));
    if (res.status !== 409 || !(retryAfter > 0) || Date.now() + retryAfter * 1000 > giveUpAt) return res;
    await pause(retryAfter * 1000);
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** 128 random bits; `getRandomValues` works on plain-HTTP origins too, unlike `randomUUID`. */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The answer of a call that answers 204 No Content (`request` parses its empty body as `undefined`). */
export const noContentSchema = z.undefined();

/**
 * The one way the web app reads the API: calls it (as `apiRequest`) and parses the answer with the
 * shared zod schema of that endpoint (a 204 is parsed as `undefined`). Throws `ApiRequestError` for a
 * non-ok answer and `UnexpectedAnswerError` for a body the schema refuses.
 */
export async function request<Schema extends z.ZodType>(
  schema: Schema,
  method: HttpMethod,
  path: string,
  body?: unknown,
  init: RequestOptions = {},
): Promise<z.output<Schema>> {
  const res = await apiRequest(method, path, body, init);
  const json: unknown = res.status === 204 ? undefined : await res.json();
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new UnexpectedAnswerError(path.split('?')[0] ?? path, parsed.error.message);
  return parsed.data;
}
