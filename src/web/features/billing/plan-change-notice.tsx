import { PLAN_LABELS } from '../../../shared/api/auth';
import type { Billing, PlanChangeReason } from '../../../shared/api/billing';
import { formatDay } from './billing-api';

const REASONS: Record<PlanChangeReason, string> = {
  checkout: 'you subscribed',
  plan_changed: 'you changed your plan',
  subscription_ended: 'your subscription ended',
  grace_ended: 'your renewal payment did not go through within the 7-day grace period',
  payment_recovered: 'your payment went through',
  operator: 'an operator changed it',
};

/**
 * The latest change of plan and what it did, told on /account (as in the e-mail): paused syncs, the date
 * backups are kept until.
 */
export function PlanChangeNotice({ billing }: { billing: Billing }) {
  const change = billing.lastChange;
  if (!change) return null;
  const down = change.to === 'free' || (change.from === 'vault' && change.to === 'pro');
  const paused = billing.pausedSyncs;
  return (
    <section
      aria-label="Latest plan change"
      className={
        down
          ? 'rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950'
          : 'rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-950'
      }
    >
      <p>
        Your plan changed from {PLAN_LABELS[change.from]} to {PLAN_LABELS[change.to]} on{' '}
        {formatDay(change.effectiveAt)}: {REASONS[change.reason]}.
      </p>
      <ul className="mt-1 list-disc pl-5">
        {paused > 0 ? (
          <li>
            {paused === 1 ? 'Your sync is paused' : `Your ${paused} syncs are paused`} (kept, not deleted):
            they start again when you are on Pro or Vault+.
          </li>
        ) : null}
        {change.to === 'free' && change.from !== 'free' ? (
          <li>Batches and restores that were running finish.</li>
        ) : null}
        {billing.backupsKeptUntil ? (
          <li>
            Your backups stay readable and downloadable on /vault until {formatDay(billing.backupsKeptUntil)},
            then they are deleted.
          </li>
        ) : null}
        {change.syncsResumed > 0 ? <li>Your paused syncs run again.</li> : null}
      </ul>
    </section>
  );
}
