import { z } from 'zod';
import { PLAN_LABELS, type Plan } from '../../shared/api/auth';
import { BACKUP_KEEP_DAYS, type PlanChangeReason } from '../../shared/api/billing';
import type { AppDeps } from '../app-context';
import type { Database } from '../db/client';
import { defineJob, enqueue } from '../jobs/define-job';
import { PermanentJobError } from '../jobs/job-runner';
import { createMailer } from '../mail/mailer';
import { findUserById, setUserPlan } from '../plans/plan-store';
import { pauseSyncsForPlan, resumeSyncsPausedByPlan } from '../syncs/sync-store';
import {
  findPlanChange,
  insertPlanChange,
  type PlanChangeRecord,
  saveBackupsKeptUntil,
} from './billing-store';

/**
 * What a change of plan does, in the transaction that changes it: the plan on the person's row; leaving
 * the plans with sync pauses their syncs (kept, marked paused by plan) and coming back resumes those;
 * leaving Vault+ keeps backups readable and downloadable for 30 days (then the billing schedule deletes
 * them); batches and restores already running are left to finish. The change is recorded and the person
 * is told by e-mail, from a durable job queued in the same transaction.
 */
const DAY_MS = 24 * 60 * 60_000;

export interface PlanChangeInput {
  userId: string;
  from: Plan;
  to: Plan;
  reason: PlanChangeReason;
  /** When it takes effect in the customer's time (a test clock's in the sandbox). */
  effectiveAt: Date;
}

export async function changePlan(tx: Database, input: PlanChangeInput): Promise<PlanChangeRecord> {
  const { userId, from, to } = input;
  await setUserPlan(tx, userId, to);
  const syncsPaused = from !== 'free' && to === 'free' ? await pauseSyncsForPlan(tx, userId) : 0;
  const syncsResumed = from === 'free' && to !== 'free' ? await resumeSyncsPausedByPlan(tx, userId) : 0;
  let backupsKeptUntil: Date | null = null;
  if (from === 'vault' && to !== 'vault') {
    backupsKeptUntil = new Date(input.effectiveAt.getTime() + BACKUP_KEEP_DAYS * DAY_MS);
    await saveBackupsKeptUntil(tx, userId, backupsKeptUntil);
  } else if (to === 'vault') {
    await saveBackupsKeptUntil(tx, userId, null);
  }
  const record = await insertPlanChange(tx, {
    userId,
    fromPlan: from,
    toPlan: to,
    reason: input.reason,
    syncsPaused,
    syncsResumed,
    backupsKeptUntil,
    effectiveAt: input.effectiveAt,
  });
  await enqueue(tx, planChangeMailJob, {
    userId,
    payload: { planChangeId: record.id },
    dedupeKey: `plan-change-mail:${record.id}`,
    maxAttempts: 8,
  });
  return record;
}

const REASONS: Record<PlanChangeReason, string> = {
  checkout: 'thank you for subscribing',
  plan_changed: 'you changed your plan',
  subscription_ended: 'your subscription ended',
  grace_ended: 'the payment for your renewal did not go through and the 7-day grace period is over',
  payment_recovered: 'your payment went through',
  operator: 'an operator of this Crossfade server changed it',
};

const formatDay = (value: Date) =>
  value.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** The e-mail telling a person what changed and what it did. */
export function planChangeMessage(change: PlanChangeRecord, username: string, accountUrl: string) {
  const from = PLAN_LABELS[change.fromPlan];
  const to = PLAN_LABELS[change.toPlan];
  const lines = [
    `Hello ${username},`,
    '',
    `Your Crossfade plan changed from ${from} to ${to} on ${formatDay(change.effectiveAt)}: ${REASONS[change.reason]}.`,
  ];
  const effects: string[] = [];
  if (change.syncsPaused > 0) {
    effects.push(
      `Your ${change.syncsPaused === 1 ? 'sync is' : `${change.syncsPaused} syncs are`} paused. Nothing is deleted: they start again when you are on Pro or Vault+.`,
    );
  }
  if (change.toPlan === 'free' && change.fromPlan !== 'free') {
    effects.push('Batches and restores that were already running finish. Free includes 1 transfer a month.');
  }
  if (change.backupsKeptUntil) {
    effects.push(
      `Daily backups have stopped. Your backups stay readable and downloadable until ${formatDay(change.backupsKeptUntil)}; after that they are deleted.`,
    );
  }
  if (change.syncsResumed > 0) {
    effects.push(
      `Your ${change.syncsResumed === 1 ? 'paused sync runs' : `${change.syncsResumed} paused syncs run`} again.`,
    );
  }
  if (effects.length > 0) lines.push('', ...effects.map((effect) => `- ${effect}`));
  lines.push('', `Your plan and billing: ${accountUrl}`, '', 'Crossfade');
  return { subject: `Your Crossfade plan is now ${to}`, text: lines.join('\n') };
}

export const planChangeMailJob = defineJob({
  kind: 'plan-change-mail',
  payloadSchema: z.object({ planChangeId: z.uuid() }),
  stateSchema: z.never(),
  handler:
    (deps: AppDeps) =>
    async ({ planChangeId }) => {
      const change = await findPlanChange(deps.db, planChangeId);
      if (!change) throw new PermanentJobError('The plan change no longer exists (the account was deleted).');
      const user = await findUserById(deps.db, change.userId);
      if (!user) throw new PermanentJobError('The account no longer exists.');
      const message = planChangeMessage(change, user.username, `${deps.config.publicUrl}/account`);
      await createMailer(deps.config, deps.db).send({ to: user.email, senderId: user.id, ...message });
    },
});
