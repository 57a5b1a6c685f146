import type { Context } from 'hono';
import type { VerifiedDeveloperToken } from './developer-token-check';
import type { AppleLibrary } from './library';
import { type AppleErrorInput, badParameter, errorBody } from './wire';

/** What every route of the Apple emulator sees: the verified developer, and for /v1/me the person's library. */
export type AppleEnv = {
  Variables: { developer: VerifiedDeveloperToken; library: AppleLibrary; storefront: string };
};

export const fail = (c: Context, error: AppleErrorInput) =>
  c.json(errorBody(error), error.status as 400 | 403 | 404 | 405 | 429);

/** Apple's `next` does not carry `limit`: clients send it again with every page. */
export function nextLink(path: string, offset: number, limit: number, total: number) {
  return offset + limit < total ? { next: `${path}?offset=${offset + limit}` } : {};
}

export function readPaging(
  c: Context,
  defaultLimit: number,
  maxLimit: number,
): { offset: number; limit: number } | { error: AppleErrorInput } {
  const limitText = c.req.query('limit');
  const offsetText = c.req.query('offset');
  const limit = limitText === undefined ? defaultLimit : Number(limitText);
  const offset = offsetText === undefined ? 0 : Number(offsetText);
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) {
    return { error: badParameter('limit', `Value must be an integer between 1 and ${maxLimit}.`) };
  }
  if (!Number.isInteger(offset) || offset < 0) {
    return { error: badParameter('offset', 'Value must be a non-negative integer.') };
  }
  return { offset, limit };
}

export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

export async function readJson(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    return undefined;
  }
}
