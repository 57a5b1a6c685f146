import { Loader2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { PLAN_OFFERS } from '../../../shared/api/account';
import { PLAN_LABELS, type Plan } from '../../../shared/api/auth';
import {
  type Billing,
  type BillingInterval,
  changeSummary,
  downgradeEffects,
  isUpgrade,
  type PaidPlan,
  type PlanPrice,
} from '../../../shared/api/billing';
import { Alert } from '../../components/ui/alert';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { serverMessage } from '../../lib/api-client';
import { cn } from '../../lib/cn';
import { paths } from '../../lib/paths';
import { trackButtonClick } from '../../lib/track';
import { formatDay, formatPrice, useBilling, useBillingPrices, useCheckout } from '../billing';
import { IntervalChoice } from './interval-choice';

/** `/pricing?checkout=pro&interval=year`: where sign-in sends a person who chose a plan while signed out. */
const checkoutPath = (plan: PaidPlan, interval: BillingInterval) =>
  `${paths.pricing}?${new URLSearchParams({ checkout: plan, interval }).toString()}`;

const signInFor = (path: string) => `${paths.auth}?next=${encodeURIComponent(path)}`;

function readIntent(search: string): { plan: PaidPlan; interval: BillingInterval } | null {
  const query = new URLSearchParams(search);
  const plan = query.get('checkout');
  const interval = query.get('interval') === 'year' ? 'year' : 'month';
  return plan === 'pro' || plan === 'vault' ? { plan, interval } : null;
}

/**
 * One card per plan with its price and call to action, and what choosing it does, said before the person
 * goes to pay. Signed out, a paid plan leads to sign-in and back here, where the checkout starts.
 */
export function PlanCards({ currentPlan }: { currentPlan: Plan | null }) {
  const signedIn = currentPlan !== null;
  const prices = useBillingPrices();
  const billing = useBilling(signedIn);
  const checkout = useCheckout();
  const search = useSearch();
  const [, navigate] = useLocation();
  const [interval, setBillingInterval] = useState<BillingInterval>(readIntent(search)?.interval ?? 'month');
  const canceled = new URLSearchParams(search).get('checkout') === 'canceled';
  const hasYearly = prices.data?.prices.some((price) => price.interval === 'year') ?? false;

  // Back from sign-in with a plan chosen: the checkout starts once, and the address forgets the choice.
  const started = useRef(false);
  useEffect(() => {
    const intent = readIntent(search);
    if (!signedIn || !intent || started.current) return;
    started.current = true;
    navigate(paths.pricing, { replace: true });
    if (intent.plan !== currentPlan) checkout.mutate(intent);
  }, [signedIn, search, currentPlan, checkout, navigate]);

  const busy = checkout.isPending || checkout.isSuccess;
  return (
    <div className="grid gap-6">
      {canceled ? <Alert>Checkout was canceled: nothing was charged.</Alert> : null}
      {checkout.isError ? (
        <Alert variant="destructive">
          {serverMessage(checkout.error) ?? 'The checkout could not be started. Please try again.'}
        </Alert>
      ) : null}
      {prices.isError ? (
        <Alert variant="destructive">{serverMessage(prices.error) ?? 'Prices could not be loaded.'}</Alert>
      ) : null}
      {hasYearly ? <IntervalChoice value={interval} onChange={setBillingInterval} /> : null}
      {prices.data?.payments === 'sandbox' ? (
        <p className="text-sm text-slate-600">
          Payments on this server run in Stripe's sandbox: no money moves. Pay with the test card 4242 4242
          4242 4242.
        </p>
      ) : null}
      <ul className="grid gap-6 md:grid-cols-3">
        {PLAN_OFFERS.map((offer) => (
          <li key={offer.plan}>
            <PlanCard
              plan={offer.plan}
              tagline={offer.tagline}
              currentPlan={currentPlan}
              price={prices.data?.prices.find(
                (price) => price.plan === offer.plan && price.interval === interval,
              )}
              interval={interval}
              billing={billing.data}
              busy={busy}
              pendingPlan={busy ? (checkout.variables?.plan ?? null) : null}
              onChoose={(plan) => {
                trackButtonClick(`upgrade_${plan}`, 'pricing');
                checkout.mutate({ plan, interval });
              }}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}

interface PlanCardProps {
  plan: Plan;
  tagline: string;
  currentPlan: Plan | null;
  price: PlanPrice | undefined;
  interval: BillingInterval;
  billing: Billing | undefined;
  busy: boolean;
  pendingPlan: PaidPlan | null;
  onChoose(plan: PaidPlan): void;
}

function PlanCard(props: PlanCardProps) {
  const { plan, currentPlan, price, interval } = props;
  const isCurrent = plan === currentPlan;
  const name = PLAN_LABELS[plan];
  return (
    <Card className={cn('h-full', isCurrent && 'border-violet-600 ring-2 ring-violet-600')}>
      <CardHeader>
        <CardTitle>
          {name}
          {isCurrent ? <span className="ml-2 text-sm font-medium text-violet-800">(your plan)</span> : null}
        </CardTitle>
        <CardDescription>{props.tagline}</CardDescription>
        <p className="pt-2 text-2xl font-bold text-slate-900">
          {plan === 'free' ? 'Free' : price ? formatPrice(price.amount, price.currency) : '…'}
          {plan !== 'free' && price ? (
            <span className="text-sm font-normal text-slate-600">
              {' '}
              / {interval === 'year' ? 'year' : 'month'}
            </span>
          ) : null}
        </p>
      </CardHeader>
      <CardContent className="grid gap-3">
        <PlanAction {...props} isCurrent={isCurrent} />
      </CardContent>
    </Card>
  );
}

function PlanAction({
  plan,
  currentPlan,
  interval,
  billing,
  busy,
  pendingPlan,
  onChoose,
  isCurrent,
}: PlanCardProps & { isCurrent: boolean }) {
  const name = PLAN_LABELS[plan];
  const subscription = billing?.subscription;
  if (currentPlan === null) {
    return plan === 'free' ? (
      <Link href={paths.auth} className={buttonClasses('outline')}>
        Get started free
      </Link>
    ) : (
      <Link href={signInFor(checkoutPath(plan, interval))} className={buttonClasses('primary')}>
        Sign up for {name}
      </Link>
    );
  }
  if (isCurrent) {
    return (
      <p className="text-sm font-medium text-slate-700">
        This is your current plan.
        {subscription?.cancelAtPeriodEnd && subscription.currentPeriodEnd
          ? ` It ends on ${formatDay(subscription.currentPeriodEnd)}.`
          : ''}
      </p>
    );
  }
  if (plan === 'free') {
    return (
      <div className="grid gap-2 text-sm text-slate-700">
        <p>
          To go back to Free, cancel under Manage billing on{' '}
          <Link href={paths.account} className="text-violet-700 underline underline-offset-4">
            My Account
          </Link>
          : you keep {PLAN_LABELS[currentPlan]}
          {subscription?.currentPeriodEnd
            ? ` until ${formatDay(subscription.currentPeriodEnd)}`
            : ' until the end of the period'}
          .
        </p>
        <Effects from={currentPlan} to="free" />
      </div>
    );
  }
  const upgrade = isUpgrade(currentPlan, plan);
  return (
    <div className="grid gap-2">
      <Button disabled={busy} onClick={() => onChoose(plan)}>
        {pendingPlan === plan ? <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" /> : null}
        {`${upgrade ? 'Upgrade' : 'Switch'} to ${name}`}
      </Button>
      <p className="text-sm text-slate-600">{changeSummary(currentPlan, plan, interval)}</p>
      {upgrade ? null : <Effects from={currentPlan} to={plan} />}
    </div>
  );
}

function Effects({ from, to }: { from: Plan; to: Plan }) {
  const effects = downgradeEffects(from, to);
  if (effects.length === 0) return null;
  return (
    <ul aria-label={`What changes on ${PLAN_LABELS[to]}`} className="list-disc pl-5 text-sm text-slate-600">
      {effects.map((effect) => (
        <li key={effect}>{effect}</li>
      ))}
    </ul>
  );
}
