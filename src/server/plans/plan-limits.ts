import type { Plan } from '../../shared/api/auth';
import {
  daysUntilReset,
  FREE_TRANSFERS_PER_PERIOD,
  PLAN_PERIOD_DAYS,
  type Usage,
} from '../../shared/api/plans';
import { findBillingAccount } from '../billing/billing-store';
import type { Database } from '../db/client';
import { paymentRequired } from '../domain-errors';
import { countedTransferTimes, exceptTransfer, lockUserPlan } from './plan-store';

const PERIOD_MS = PLAN_PERIOD_DAYS * 24 * 60 * 60_000;

/**
 * Plan rules, enforced on the server. The free plan's month is a rolling window: a transfer counts for
 * 30 days from when it was started, so the limit resets 30 days after the oldest counted transfer.
 * Failed transfers do not count; retrying one makes it count again, so a retry needs a free slot like a
 * new transfer (see `withTransferSlot`). `exceptTransferId` leaves the retried transfer out.
 */
export async function transferUsage(
  db: Database,
  userId: string,
  plan: Plan,
  now = new Date(),
  exceptTransferId?: string,
): Promise<Usage> {
  const counted = await countedTransferTimes(
    db,
    userId,
    new Date(now.getTime() - PERIOD_MS),
    exceptTransferId ? exceptTransfer(exceptTransferId) : undefined,
  );
  const oldest = counted[0];
  return {
    plan,
    transfersUsed: counted.length,
    transfersAllowed: plan === 'free' ? FREE_TRANSFERS_PER_PERIOD : null,
    resetsAt: oldest ? new Date(oldest.createdAt.getTime() + PERIOD_MS).toISOString() : null,
  };
}

export async function assertCanTransfer(db: Database, userId: string, plan: Plan, exceptTransferId?: string) {
  const usage = await transferUsage(db, userId, plan, new Date(), exceptTransferId);
  if (usage.transfersAllowed !== null && usage.transfersUsed >= usage.transfersAllowed) {
    const resets = usage.resetsAt ? new Date(usage.resetsAt) : new Date();
    const days = daysUntilReset(resets);
    throw paymentRequired(
      `The Free plan includes ${FREE_TRANSFERS_PER_PERIOD} transfer a month; yours resets in ${days} day${days === 1 ? '' : 's'} ` +
        `(${resets.toISOString().slice(0, 10)}). Upgrade to Pro for unlimited transfers: see /pricing.`,
    );
  }
}

/**
 * Decides the month's count and the transfer it allows atomically: inside one transaction the user's row
 * is locked, the plan is read from it (not from the session), the count is checked and `use` writes the
 * transfer that takes the slot (a new row, or a failed one set going again). Two requests of one person
 * therefore run one after the other on PostgreSQL; on the embedded database transactions already run one
 * at a time. `retrying` is the failed transfer being retried: it does not count against itself.
 */
export async function withTransferSlot<T>(
  db: Database,
  userId: string,
  use: (tx: Database) => Promise<T>,
  retrying?: string,
): Promise<T> {
  return db.transaction(async (tx) => {
    const plan = await lockUserPlan(tx, userId);
    if (!plan) throw new Error('the signed-in user no longer exists');
    await assertCanTransfer(tx, userId, plan, retrying);
    return use(tx);
  });
}

/** Vault+ features (backups, ZIP export, cloud save). */
export function assertVault(plan: Plan, feature: string) {
  if (plan !== 'vault')
    throw paymentRequired(`${feature} is a Vault+ feature. A Vault+ subscription is required: see /pricing.`);
}

/** Pro features (batches, sync): Pro and Vault+ include them, the free plan does not. */
export function assertPro(plan: Plan, feature: string) {
  if (plan === 'free')
    throw paymentRequired(`${feature} is a Pro feature. Upgrade to Pro or Vault+ to use it: see /pricing.`);
}

/**
 * Reading and downloading backups: Vault+, and for 30 days after leaving it (issue 22), counted in the
 * person's time on Stripe. Making backups and restoring stay Vault+ (`assertVault`).
 */
export async function assertCanReadBackups(db: Database, userId: string, plan: Plan) {
  if (plan === 'vault') return;
  const account = await findBillingAccount(db, userId);
  const now = Math.max(Date.now(), account?.stripeTime?.getTime() ?? 0);
  if (account?.backupsKeptUntil && account.backupsKeptUntil.getTime() > now) return;
  assertVault(plan, 'Backups');
}
