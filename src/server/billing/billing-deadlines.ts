import type { Plan } from '../../shared/api/auth';
import type { AppDeps } from '../app-context';
import type { Database } from '../db/client';
import { lockUserPlan } from '../plans/plan-store';
import { deleteBackupsOfUser } from '../vault/backup-store';
import {
  accountsWithDeadlines,
  findBillingAccount,
  pruneEventsBefore,
  saveBackupsKeptUntil,
} from './billing-store';
import { changePlan } from './plan-change';
import { planFromSubscription } from './subscription-state';

/**
 * What time alone changes: a grace period that ends (the person moves to Free) and backups kept after
 * leaving Vault+ whose 30 days are up (they are deleted). `now` is the person's time on Stripe when a
 * test clock runs ahead of ours. Runs inside the caller's transaction, with the person's row locked.
 */
export async function settleDeadlines(tx: Database, userId: string, plan: Plan, now: Date): Promise<Plan> {
  const account = await findBillingAccount(tx, userId);
  if (!account) return plan;
  let current = plan;
  if (account.subscriptionStatus === 'past_due' && account.graceEndsAt && account.graceEndsAt <= now) {
    const target = planFromSubscription(account, now);
    if (target && target !== current) {
      await changePlan(tx, {
        userId,
        from: current,
        to: target,
        reason: 'grace_ended',
        effectiveAt: account.graceEndsAt,
      });
      current = target;
    }
  }
  const keptUntil = (await findBillingAccount(tx, userId))?.backupsKeptUntil;
  if (keptUntil && keptUntil <= now && current !== 'vault') {
    await deleteBackupsOfUser(tx, userId);
    await saveBackupsKeptUntil(tx, userId, null);
  }
  return current;
}

/** The person's "now": ours, or their Stripe time when a test clock has moved it further on. */
export const customerNow = (...times: (Date | null | undefined)[]): Date =>
  new Date(Math.max(Date.now(), ...times.map((time) => time?.getTime() ?? 0)));

/** How long processed event ids are kept (Stripe retries a delivery for at most 3 days). */
const EVENT_MEMORY_MS = 30 * 24 * 60 * 60_000;

/**
 * Settles every account with a deadline that has passed, and forgets event ids old enough never to come
 * again; safe from any number of processes at once.
 */
export async function settleDueDeadlines(deps: Pick<AppDeps, 'db'>): Promise<number> {
  await pruneEventsBefore(deps.db, new Date(Date.now() - EVENT_MEMORY_MS));
  const due = await accountsWithDeadlines(deps.db, new Date());
  let settled = 0;
  for (const account of due) {
    await deps.db.transaction(async (tx) => {
      const plan = await lockUserPlan(tx, account.userId);
      if (!plan) return;
      const after = await settleDeadlines(tx, account.userId, plan, customerNow(account.stripeTime));
      if (after !== plan) settled += 1;
    });
  }
  return settled;
}

/** How often deadlines are looked for. */
export const BILLING_SCHEDULE_INTERVAL_MS = 5 * 60_000;

/** Looks for passed deadlines at start and then every few minutes (the backup scheduler's pattern). */
export function startBillingScheduler(deps: Pick<AppDeps, 'db' | 'logger'>): () => void {
  const run = () =>
    settleDueDeadlines(deps)
      .then((settled) => {
        if (settled > 0) deps.logger.info({ settled }, 'billing deadlines settled');
      })
      .catch((error) => deps.logger.error({ err: error }, 'settling billing deadlines failed'));
  void run();
  const timer = setInterval(run, BILLING_SCHEDULE_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
