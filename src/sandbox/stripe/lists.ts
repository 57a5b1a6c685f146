import { invalidRequest } from './errors';
import { integer, optional, string } from './params';
import { list, type Wire } from './wire';

/** Stripe's cursor pagination: `limit` (1–100, default 10), `starting_after` / `ending_before` an id. */
export const pageParams = {
  limit: optional(integer(1, 100)),
  starting_after: optional(string(255)),
  ending_before: optional(string(255)),
};

interface PageQuery {
  limit?: number | undefined;
  starting_after?: string | undefined;
  ending_before?: string | undefined;
}

/** One page of `records` (newest first, as Stripe lists), rendered. */
export function page<T extends { id: string }>(
  records: readonly T[],
  query: PageQuery,
  url: string,
  render: (record: T) => Wire,
): Wire {
  const limit = query.limit ?? 10;
  if (query.starting_after && query.ending_before) {
    throw invalidRequest('You may only specify one of these parameters: ending_before, starting_after.');
  }
  let slice: readonly T[] = records;
  let hasMore: boolean;
  if (query.starting_after) {
    const index = records.findIndex((record) => record.id === query.starting_after);
    if (index < 0)
      throw invalidRequest(`No such object: '${query.starting_after}'`, 'resource_missing', 'starting_after');
    slice = records.slice(index + 1, index + 1 + limit);
    hasMore = index + 1 + limit < records.length;
  } else if (query.ending_before) {
    const index = records.findIndex((record) => record.id === query.ending_before);
    if (index < 0)
      throw invalidRequest(`No such object: '${query.ending_before}'`, 'resource_missing', 'ending_before');
    slice = records.slice(Math.max(0, index - limit), index);
    hasMore = index - limit > 0;
  } else {
    slice = records.slice(0, limit);
    hasMore = records.length > limit;
  }
  return list(url, slice.map(render), hasMore);
}

/** Records newest first (by `created`, then by insertion). */
export function newestFirst<T extends { created: number }>(records: Iterable<T>): T[] {
  return [...records]
    .map((record, index) => ({ record, index }))
    .sort((a, b) => b.record.created - a.record.created || b.index - a.index)
    .map(({ record }) => record);
}
