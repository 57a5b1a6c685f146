import { z } from 'zod';
import { CSRF_COOKIE, CSRF_HEADER } from '../../shared/api/auth';
import {
  apiErrorSchema,
  type RowProblemDto,
  rowProblemSchema,
  rowProblemsErrorSchema,
} from '../../shared/api/errors';
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

/**
 * Calls the API with the session cookie and returns the raw answer (for downloads); a non-ok answer
 * throws an `ApiRequestError`. A `Blob` body (a file upload) goes as it is, with its own type; any other
 * body as JSON. Mutating methods echo the `cf_csrf` cookie in `x-csrf-token` (double-submit), which is
 * what the server checks before it accepts the request.
 */
export async function apiRequest(
  method: HttpMethod,
  path: string,
  body?: unknown,
  init: Pick<RequestInit, 'keepalive' | 'signal'> = {},
): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...(await csrfHeaders(method)) };
  const file = typeof Blob !== 'undefined' && body instanceof Blob ? body : undefined;
  if (body !== undefined)
    headers['content-type'] = file ? file.type || 'application/octet-stream' : 'application/json';
  const res = await fetch(path, {
    ...init,
    method,
    headers,
    credentials: 'include',
    ...(body === undefined ? {} : { body: file ?? JSON.stringify(body) }),
  });
  await throwIfResNotOk(res);
  return res;
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
  init: Pick<RequestInit, 'keepalive' | 'signal'> = {},
): Promise<z.output<Schema>> {
  const res = await apiRequest(method, path, body, init);
  const json: unknown = res.status === 204 ? undefined : await res.json();
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new UnexpectedAnswerError(path.split('?')[0] ?? path, parsed.error.message);
  return parsed.data;
}
