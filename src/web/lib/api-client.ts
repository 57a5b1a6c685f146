import { CSRF_COOKIE, CSRF_HEADER } from '../../shared/api/auth';
import { apiErrorSchema } from '../../shared/api/errors';
import { readCookie } from './cookies';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const SAFE_METHODS: ReadonlySet<HttpMethod> = new Set(['GET']);

/** The HTTP status an `apiRequest` failure carried, parsed back out of its "{status}: {body}" text. */
export function errorStatus(error: unknown): number | undefined {
  if (!(error instanceof Error)) return undefined;
  const match = /^(\d{3}): /.exec(error.message);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/**
 * The server's `{message}` out of an `apiRequest` failure, for toasts. Undefined when the failure was
 * not a server answer (network down) or the body was not an API error.
 */
export function serverMessage(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const match = /^\d{3}: ([\s\S]*)$/.exec(error.message);
  if (match?.[1] === undefined) return undefined;
  try {
    const parsed = apiErrorSchema.safeParse(JSON.parse(match[1]));
    return parsed.success && parsed.data.message.trim() !== '' ? parsed.data.message : undefined;
  } catch {
    return undefined;
  }
}

/** Spec section 7: a non-ok response becomes an Error reading "{status}: {body}" (status text if no body). */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const body = await res.text();
  throw new Error(`${res.status}: ${body === '' ? res.statusText : body}`);
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
 * Calls the API with the session cookie. Mutating methods echo the `cf_csrf` cookie in `x-csrf-token`
 * (double-submit), which is what the server checks before it accepts the request.
 */
export async function apiRequest(
  method: HttpMethod,
  path: string,
  body?: unknown,
  init: Pick<RequestInit, 'keepalive' | 'signal'> = {},
): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...(await csrfHeaders(method)) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, {
    ...init,
    method,
    headers,
    credentials: 'include',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await throwIfResNotOk(res);
  return res;
}

/** `apiRequest` and its JSON answer; a 204 yields undefined. */
export async function apiJson<T>(method: HttpMethod, path: string, body?: unknown): Promise<T> {
  const res = await apiRequest(method, path, body);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}
