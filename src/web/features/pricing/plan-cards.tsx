import { useMutation } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { Link } from 'wouter';
import { checkoutResponseSchema, PAYMENTS_NOT_SET_UP, PLAN_OFFERS } from '../../../shared/api/account';
import type { Plan } from '../../../shared/api/auth';
import { Alert } from '../../components/ui/alert';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { errorStatus, request, serverMessage } from '../../lib/api-client';
import { cn } from '../../lib/cn';
import { paths } from '../../lib/paths';
import { trackButtonClick } from '../../lib/track';

type PaidPlan = Exclude<Plan, 'free'>;

/** One card per plan with its call to action; upgrades go through the server's payment provider. */
export function PlanCards({ currentPlan }: { currentPlan: Plan | null }) {
  const checkout = useMutation({
    mutationFn: async (plan: PaidPlan) =>
      request(checkoutResponseSchema, 'POST', '/api/billing/checkout', { plan }),
    onSuccess: ({ url }) => window.location.assign(url),
  });
  const notSetUp = checkout.isError && errorStatus(checkout.error) === 503;
  const operatorHint = notSetUp
    ? (serverMessage(checkout.error) ?? '').replace(PAYMENTS_NOT_SET_UP, '').trim()
    : '';

  return (
    <div className="grid gap-6">
      {checkout.isError ? (
        notSetUp ? (
          <Alert>
            <p className="font-semibold">{PAYMENTS_NOT_SET_UP}</p>
            {operatorHint ? <p className="mt-1 break-words">{operatorHint}</p> : null}
          </Alert>
        ) : (
          <Alert variant="destructive">
            {serverMessage(checkout.error) ?? 'The upgrade could not be started. Please try again.'}
          </Alert>
        )
      ) : null}
      <ul className="grid gap-6 md:grid-cols-3">
        {PLAN_OFFERS.map((offer) => {
          const isCurrent = offer.plan === currentPlan;
          return (
            <li key={offer.plan}>
              <Card className={cn('h-full', isCurrent && 'border-violet-600 ring-2 ring-violet-600')}>
                <CardHeader>
                  <CardTitle>
                    {offer.name}
                    {isCurrent ? (
                      <span className="ml-2 text-sm font-medium text-violet-800">(your plan)</span>
                    ) : null}
                  </CardTitle>
                  <CardDescription>{offer.tagline}</CardDescription>
                </CardHeader>
                <CardContent>
                  {currentPlan === null ? (
                    <Link
                      href={paths.auth}
                      className={buttonClasses(offer.plan === 'free' ? 'outline' : 'primary')}
                    >
                      {offer.plan === 'free' ? 'Get started free' : `Sign up for ${offer.name}`}
                    </Link>
                  ) : isCurrent ? (
                    <p className="text-sm font-medium text-slate-700">This is your current plan.</p>
                  ) : offer.plan === 'free' ? (
                    <p className="text-sm text-slate-600">Everyone can use the Free plan.</p>
                  ) : (
                    <Button
                      disabled={checkout.isPending}
                      onClick={() => {
                        trackButtonClick(`upgrade_${offer.plan}`, 'pricing');
                        checkout.mutate(offer.plan as PaidPlan);
                      }}
                    >
                      {checkout.isPending && checkout.variables === offer.plan ? (
                        <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" />
                      ) : null}
                      {`${currentPlan === 'vault' ? 'Switch' : 'Upgrade'} to ${offer.name}`}
                    </Button>
                  )}
                </CardContent>
              </Card>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
