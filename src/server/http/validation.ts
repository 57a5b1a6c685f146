import type { Context } from 'hono';
import type { z } from 'zod';
import { badRequest } from './errors';

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
