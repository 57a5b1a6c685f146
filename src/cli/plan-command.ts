import { changePlan } from '../server/billing/plan-change';
import type { Database } from '../server/db/client';
import { findUserByUsername, lockUserPlan } from '../server/plans/plan-store';
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

/**
 * How an operator changes a plan by hand (a complimentary plan, support). It does what any change of
 * plan does (syncs pause or resume, backups are kept 30 days, the person is e-mailed by the server's
 * job runner); a person who pays through Stripe gets the plan of their subscription back at its next event.
 * Answers the line to print.
 */
export async function setPlan(db: Database, username: string, plan: Plan): Promise<string> {
  const user = await findUserByUsername(db, username);
  if (!user) throw new CommandError(`No user named "${username}".`);
  const effects = await db.transaction(async (tx) => {
    const from = await lockUserPlan(tx, user.id);
    if (!from || from === plan) return null;
    return changePlan(tx, { userId: user.id, from, to: plan, reason: 'operator', effectiveAt: new Date() });
  });
  const notes = [
    effects?.syncsPaused ? `${effects.syncsPaused} sync(s) paused` : '',
    effects?.syncsResumed ? `${effects.syncsResumed} sync(s) resumed` : '',
    effects?.backupsKeptUntil
      ? `backups kept until ${effects.backupsKeptUntil.toISOString().slice(0, 10)}`
      : '',
  ].filter(Boolean);
  return `${user.username} is now on ${PLAN_LABELS[plan]}${notes.length ? ` (${notes.join(', ')})` : ''}`;
}
