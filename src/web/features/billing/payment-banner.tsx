import { PLAN_LABELS } from '../../../shared/api/auth';
import { Button } from '../../components/ui/button';
import { useAuth } from '../../hooks/use-auth';
import { formatDay, useBilling, useManageBilling } from './billing-api';

/** On every page while a renewal has failed: the grace period's end and the way to fix it. */
export function PaymentBanner() {
  const { user } = useAuth();
  const billing = useBilling(user !== null);
  const portal = useManageBilling();
  const problem = billing.data?.paymentProblem;
  const plan = billing.data?.subscription?.plan;
  if (!user || !problem || !plan) return null;
  return (
    <section aria-label="Payment problem" className="border-b border-red-200 bg-red-50">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm text-red-950 sm:px-6">
        <p>
          Your last payment did not go through. You keep {PLAN_LABELS[plan]} until{' '}
          {formatDay(problem.graceEndsAt)}; update your card to keep it after that.
        </p>
        <Button
          size="sm"
          variant="destructive"
          disabled={portal.isPending || portal.isSuccess}
          onClick={() => portal.mutate()}
        >
          Update card
        </Button>
      </div>
    </section>
  );
}
