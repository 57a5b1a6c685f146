import { and, asc, eq, gt, ne } from 'drizzle-orm';
import type { Plan } from '../../shared/api/auth';
import {
  daysUntilReset,
  FREE_TRANSFERS_PER_PERIOD,
  PLAN_PERIOD_DAYS,
  type Usage,
} from '../../shared/api/plans';
import type { Database } from '../db/client';
import { transfers } from '../db/schema';
import { paymentRequired } from '../http/errors';

const PERIOD_MS = PLAN_PERIOD_DAYS * 24 * 60 * 60_000;

/**
 * Plan rules, enforced on the server. The free plan's month is a rolling window: a transfer counts for
 * 30 days from when it was started, so the limit resets 30 days after the oldest counted transfer.
 * Failed transfers do not count.
 */
export async function transferUsage(
  db: Database,
  userId: string,
  plan: Plan,
  now = new Date(),
): Promise<Usage> {
  const counted = await db
    .select({ createdAt: transfers.createdAt })
    .from(transfers)
    .where(
      and(
        eq(transfers.userId, userId),
        ne(transfers.status, 'failed'),
        gt(transfers.createdAt, new Date(now.getTime() - PERIOD_MS)),
      ),
    )
    .orderBy(asc(transfers.createdAt));
  const oldest = counted[0];
  return {
    plan,
    transfersUsed: counted.length,
    transfersAllowed: plan === 'free' ? FREE_TRANSFERS_PER_PERIOD : null,
    resetsAt: oldest ? new Date(oldest.createdAt.getTime() + PERIOD_MS).toISOString() : null,
  };
}

export async function assertCanTransfer(db: Database, userId: string, plan: Plan) {
  const usage = await transferUsage(db, userId, plan);
  if (usage.transfersAllowed !== null && usage.transfersUsed >= usage.transfersAllowed) {
    const resets = usage.resetsAt ? new Date(usage.resetsAt) : new Date();
    const days = daysUntilReset(resets);
    throw paymentRequired(
      `The Free plan includes ${FREE_TRANSFERS_PER_PERIOD} transfer a month; yours resets in ${days} day${days === 1 ? '' : 's'} ` +
        `(${resets.toISOString().slice(0, 10)}). Upgrade to Pro for unlimited transfers: see /pricing.`,
    );
  }
}

/** Vault+ features (backups, ZIP export, cloud save). */
export function assertVault(plan: Plan, feature: string) {
  if (plan !== 'vault')
    throw paymentRequired(`${feature} is a Vault+ feature. A Vault+ subscription is required: see /pricing.`);
}
