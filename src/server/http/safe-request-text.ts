import type { Context } from 'hono';
import { containsUnsafeText, isSafeText, UNSAFE_TEXT_MESSAGE } from '../../shared/text';
import { badRequest } from '../domain-errors';

/**
 * The text rule for the parts of a request that no body schema sees: the path (ids in it) and the query
 * string. A NUL (`%00`) or a broken escape in either is refused before any route reads it.
 */
export function assertSafeRequestText(c: Context) {
  let path: string;
  try {
    path = decodeURIComponent(c.req.path);
  } catch {
    throw badRequest('The address holds a broken %-escape.');
  }
  if (!isSafeText(path)) throw badRequest(UNSAFE_TEXT_MESSAGE);
  const search = new URL(c.req.url).search;
  if (!search) return;
  try {
    decodeURIComponent(search.replaceAll('+', ' '));
  } catch {
    throw badRequest('The address holds a broken %-escape.');
  }
  if (containsUnsafeText(c.req.queries())) throw badRequest(UNSAFE_TEXT_MESSAGE);
}
