import { CreditCard, Loader2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { PLAN_LABELS } from '../../../shared/api/auth';
import { type Billing, downgradeEffects } from '../../../shared/api/billing';
import { Alert } from '../../components/ui/alert';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { serverMessage } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { formatDay, formatPrice, useBilling, useManageBilling } from './billing-api';
import { PlanChangeNotice } from './plan-change-notice';

/** After coming back from Stripe the webhook may still be on its way: look again for a little while. */
const WATCH_MS = 20_000;

function useWatchAfterReturn(): number | false {
  const [watching, setWatching] = useState(true);
  useEffect(() => {
    const timer = setTimeout(() => setWatching(false), WATCH_MS);
    return () => clearTimeout(timer);
  }, []);
  return watching ? 2_000 : false;
}

const STATUS_LABELS: Record<string, string> = {
  active: 'Active',
  trialing: 'Trial',
  past_due: 'Payment failed',
};

/** /account: the plan, its renewal or end date, the last invoice, and "Manage billing". */
export function BillingCard() {
  const billing = useBilling(true, useWatchAfterReturn());
  return (
    <Card>
      <CardHeader>
        <CardTitle>Billing</CardTitle>
        <CardDescription>Your subscription, paid through Stripe.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {billing.isPending ? (
          <Spinner label="Loading your billing" />
        ) : billing.isError ? (
          <p role="alert" className="text-sm text-red-800">
            Your billing could not be loaded. Please reload the page.
          </p>
        ) : (
          <BillingDetails billing={billing.data} />
        )}
      </CardContent>
    </Card>
  );
}

function BillingDetails({ billing }: { billing: Billing }) {
  const { subscription, lastInvoice } = billing;
  return (
    <>
      <PlanChangeNotice billing={billing} />
      {billing.paymentProblem && subscription ? (
        <Alert variant="destructive">
          Your payment on {formatDay(billing.paymentProblem.failedAt)} did not go through. You keep{' '}
          {PLAN_LABELS[subscription.plan]} until {formatDay(billing.paymentProblem.graceEndsAt)}: update your
          card under Manage billing before then, or you move to Free.
        </Alert>
      ) : null}
      <dl className="grid gap-3 sm:grid-cols-[10rem_1fr]">
        <dt className="text-sm font-medium text-slate-600">Plan</dt>
        <dd className="text-sm text-slate-900">
          {PLAN_LABELS[billing.plan]}
          {subscription?.interval
            ? ` (billed ${subscription.interval === 'year' ? 'yearly' : 'monthly'})`
            : ''}
        </dd>
        {subscription ? (
          <>
            <dt className="text-sm font-medium text-slate-600">Status</dt>
            <dd className="text-sm text-slate-900">
              {subscription.cancelAtPeriodEnd
                ? 'Canceled, ends at the end of the period'
                : (STATUS_LABELS[subscription.status] ?? subscription.status)}
            </dd>
            {subscription.currentPeriodEnd ? (
              <>
                <dt className="text-sm font-medium text-slate-600">
                  {subscription.cancelAtPeriodEnd ? 'Ends on' : 'Renews on'}
                </dt>
                <dd className="text-sm text-slate-900">{formatDay(subscription.currentPeriodEnd)}</dd>
              </>
            ) : null}
          </>
        ) : null}
        {lastInvoice ? (
          <>
            <dt className="text-sm font-medium text-slate-600">Last invoice</dt>
            <dd className="text-sm text-slate-900">
              {formatPrice(lastInvoice.amount, lastInvoice.currency)} ·{' '}
              {lastInvoice.status === 'paid' ? 'Paid' : 'Due'} · {formatDay(lastInvoice.createdAt)}
              {lastInvoice.url ? (
                <>
                  {' · '}
                  <a className="text-violet-700 underline underline-offset-4" href={lastInvoice.url}>
                    View invoice
                  </a>
                </>
              ) : null}
            </dd>
          </>
        ) : null}
      </dl>
      {subscription && !subscription.cancelAtPeriodEnd ? <CancelTerms billing={billing} /> : null}
      <BillingActions billing={billing} />
    </>
  );
}

/** What cancelling does, said before the person goes to Stripe to do it. */
function CancelTerms({ billing }: { billing: Billing }) {
  const { subscription } = billing;
  if (!subscription) return null;
  const effects = downgradeEffects(subscription.plan, 'free');
  return (
    <div className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
      <p>
        If you cancel, you keep {PLAN_LABELS[subscription.plan]}
        {subscription.currentPeriodEnd
          ? ` until ${formatDay(subscription.currentPeriodEnd)}`
          : ' until the end of the period'}
        , and nothing more is charged. Then you are on Free:
      </p>
      <ul className="mt-2 list-disc pl-5">
        {effects.map((effect) => (
          <li key={effect}>{effect}</li>
        ))}
      </ul>
    </div>
  );
}

function BillingActions({ billing }: { billing: Billing }) {
  const portal = useManageBilling();
  const busy = portal.isPending || portal.isSuccess;
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap gap-3">
        {billing.canManage ? (
          <Button variant="outline" size="sm" disabled={busy} onClick={() => portal.mutate()}>
            {busy ? (
              <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" />
            ) : (
              <CreditCard aria-hidden="true" className="h-4 w-4" />
            )}
            Manage billing
          </Button>
        ) : null}
        {billing.plan !== 'vault' ? (
          <Link href={paths.pricing} className={buttonClasses(billing.canManage ? 'ghost' : 'primary', 'sm')}>
            {billing.plan === 'free' ? 'Upgrade' : 'Change plan'}
          </Link>
        ) : null}
      </div>
      {billing.canManage ? (
        <p className="text-xs text-slate-600">
          Manage billing opens Stripe{billing.payments === 'sandbox' ? "'s sandbox" : ''}: change or cancel
          your plan, update your card and see your invoices.
        </p>
      ) : null}
      {portal.isError ? (
        <p role="alert" className="text-sm text-red-800">
          {serverMessage(portal.error) ?? 'Billing could not be opened. Please try again.'}
        </p>
      ) : null}
    </div>
  );
}
