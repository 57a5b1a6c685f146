import { Redirect, useSearch } from 'wouter';
import { Page } from '../components/layout/page';
import { Spinner } from '../components/ui/spinner';
import { CheckoutReturn } from '../features/billing';
import { useAuth } from '../hooks/use-auth';
import { paths } from '../lib/paths';

/** Where Stripe Checkout sends the person back: `/billing/return?session_id=cs_…`. */
export default function BillingReturnPage() {
  const { user, isLoading } = useAuth();
  const sessionId = new URLSearchParams(useSearch()).get('session_id') ?? '';
  if (isLoading) {
    return (
      <Page title="Finishing your upgrade">
        <Spinner label="Loading" />
      </Page>
    );
  }
  if (!user)
    return (
      <Redirect
        to={`${paths.auth}?next=${encodeURIComponent(`${paths.billingReturn}?session_id=${sessionId}`)}`}
        replace
      />
    );
  return (
    <Page
      title="Finishing your upgrade"
      description="Thank you! Your plan changes as soon as Stripe confirms your payment."
    >
      {sessionId ? (
        <CheckoutReturn sessionId={sessionId} />
      ) : (
        <p className="text-sm text-slate-700">No checkout to finish here.</p>
      )}
    </Page>
  );
}
