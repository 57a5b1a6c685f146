import { Check, Loader2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { PLAN_LABELS } from '../../../shared/api/auth';
import { type CheckoutStatus, PLAN_GAINS } from '../../../shared/api/billing';
import { Alert } from '../../components/ui/alert';
import { buttonClasses } from '../../components/ui/button';
import { serverMessage } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { planChanged, useCheckoutStatus } from './billing-api';

/** After this long the page says the wait is unusual (and keeps waiting). */
const SLOW_MS = 20_000;

type StepState = 'done' | 'active' | 'waiting';

function Step({ state, children }: { state: StepState; children: string }) {
  return (
    <li className="flex items-center gap-3 text-sm">
      {state === 'done' ? (
        <Check aria-hidden="true" className="h-5 w-5 text-green-700" />
      ) : state === 'active' ? (
        <Loader2 aria-hidden="true" className="h-5 w-5 animate-spin text-violet-700" />
      ) : (
        <span aria-hidden="true" className="h-5 w-5 rounded-full border-2 border-slate-300" />
      )}
      <span className={state === 'waiting' ? 'text-slate-500' : 'text-slate-900'}>
        {children}
        <span className="sr-only">
          {state === 'done' ? ' (done)' : state === 'active' ? ' (in progress)' : ' (next)'}
        </span>
      </span>
    </li>
  );
}

/**
 * The page Stripe sends the person back to: it waits for the webhook that changes the plan (the redirect
 * alone never does), shows where things stand, and then says what the person can do now.
 */
export function CheckoutReturn({ sessionId }: { sessionId: string }) {
  const status = useCheckoutStatus(sessionId);
  const [slow, setSlow] = useState(false);
  const announced = useRef(false);
  useEffect(() => {
    const timer = setTimeout(() => setSlow(true), SLOW_MS);
    return () => clearTimeout(timer);
  }, []);
  const data = status.data;
  useEffect(() => {
    if (data?.status === 'done' && !announced.current) {
      announced.current = true;
      void planChanged();
    }
  }, [data?.status]);

  if (status.isError) {
    return (
      <Alert variant="destructive">
        {serverMessage(status.error) ?? 'This checkout could not be found.'}
      </Alert>
    );
  }
  if (!data) {
    return (
      <p role="status" className="text-sm text-slate-700">
        Checking your payment…
      </p>
    );
  }
  if (data.status === 'expired' || data.status === 'open') {
    return (
      <div className="grid gap-4">
        <Alert>This checkout was not completed, and nothing was charged.</Alert>
        <Link href={paths.pricing} className={buttonClasses('primary')}>
          Back to pricing
        </Link>
      </div>
    );
  }
  return <Progress data={data} slow={slow} />;
}

function Progress({ data, slow }: { data: CheckoutStatus; slow: boolean }) {
  const name = data.purchased ? PLAN_LABELS[data.purchased] : 'Your plan';
  const done = data.status === 'done';
  return (
    <div className="grid gap-6">
      <ol aria-label="Progress" className="grid gap-3">
        <Step state="done">Payment received by Stripe</Step>
        <Step state={done ? 'done' : 'active'}>Crossfade confirms your subscription with Stripe</Step>
        <Step state={done ? 'done' : 'waiting'}>{`${name} is ready`}</Step>
      </ol>
      <div role="status" aria-live="polite" className="grid gap-4">
        {done && data.purchased ? (
          <>
            <h2 className="text-xl font-semibold text-slate-900">You are on {name}</h2>
            <p className="text-sm text-slate-700">Here is what you can do now:</p>
            <ul className="list-disc pl-5 text-sm text-slate-800">
              {PLAN_GAINS[data.purchased].map((gain) => (
                <li key={gain}>{gain}</li>
              ))}
            </ul>
            <div className="flex flex-wrap gap-3">
              <Link href={paths.playlists} className={buttonClasses('primary')}>
                Move several playlists in a batch
              </Link>
              <Link href={paths.syncs} className={buttonClasses('outline')}>
                Keep a playlist in sync
              </Link>
              {data.purchased === 'vault' ? (
                <Link href={paths.vault} className={buttonClasses('outline')}>
                  Open Vault+
                </Link>
              ) : null}
              <Link href={paths.account} className={buttonClasses('ghost')}>
                See your plan
              </Link>
            </div>
          </>
        ) : (
          <p className="text-sm text-slate-700">
            {slow
              ? 'This is taking longer than usual. Your payment is safe: your plan changes as soon as Stripe confirms it. You can leave this page; My Account shows your plan.'
              : 'Waiting for Stripe to confirm your payment…'}
          </p>
        )}
      </div>
    </div>
  );
}
