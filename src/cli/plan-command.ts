import { sql } from 'drizzle-orm';
import type { Database } from '../server/db/client';
import { users } from '../server/db/schema';
import { PLAN_LABELS, type Plan, planSchema } from '../shared/api/auth';

export const PLAN_USAGE = 'plan set <username> free|pro|vault';

export class CommandError extends Error {
  override readonly name = 'CommandError';
}

/** Checks `plan set <username> <plan>` before anything opens the database. */
export function parsePlanArgs(args: string[]): { username: string; plan: Plan } {
  const [action, username, planName, ...extra] = args;
  if (action !== 'set' || !username || !planName || extra.length > 0) {
    throw new CommandError(`Usage: ${PLAN_USAGE}`);
  }
  const plan = planSchema.safeParse(planName.toLowerCase());
  if (!plan.success) throw new CommandError(`Unknown plan "${planName}". Use free, pro or vault.`);
  return { username, plan: plan.data };
}

/** How an operator changes a plan while no payment provider is set up. Answers the line to print. */
export async function setPlan(db: Database, username: string, plan: Plan): Promise<string> {
  const [row] = await db
    .update(users)
    .set({ plan })
    .where(sql`lower(${users.username}) = lower(${username})`)
    .returning({ username: users.username });
  if (!row) throw new CommandError(`No user named "${username}".`);
  return `${row.username} is now on ${PLAN_LABELS[plan]}`;
}
