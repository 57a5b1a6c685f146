import type { Context } from 'hono';
import type { z } from 'zod';
import { containsUnsafeText, UNSAFE_TEXT_MESSAGE } from '../../shared/text';
import { badRequest } from '../domain-errors';

/**
 * Reads and validates a JSON body with a shared zod schema. Malformed JSON, a wrong content type and
 * schema violations all become a 400 with the first problem in words a person can act on.
 */
export async function readJson<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw badRequest('The request body must be valid JSON.');
  }
  if (nestingDepth(body) > MAX_JSON_DEPTH) throw badRequest('The request body is nested too deeply.');
  // Before the schema, so a hand-built schema (or a record's keys) cannot let such text reach the database.
  if (containsUnsafeText(body)) throw badRequest(UNSAFE_TEXT_MESSAGE);
  return validate(schema, body);
}

export function validate<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw badRequest(describeIssue(parsed.error));
}

export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The request is not valid.';
  if (issue.code === 'invalid_type' && issue.path.length === 0)
    return 'The request body must be a JSON object.';
  return issue.message;
}

/** No request of ours nests deeper than a few levels; a deeper body is refused before anything walks it. */
const MAX_JSON_DEPTH = 32;

function nestingDepth(value: unknown, depth = 0): number {
  if (depth > MAX_JSON_DEPTH || value === null || typeof value !== 'object') return depth;
  let deepest = depth;
  for (const item of Object.values(value)) {
    deepest = Math.max(deepest, nestingDepth(item, depth + 1));
    if (deepest > MAX_JSON_DEPTH) break;
  }
  return deepest;
}
