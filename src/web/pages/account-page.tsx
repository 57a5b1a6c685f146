import { Redirect } from 'wouter';
import { Page } from '../components/layout/page';
import { Spinner } from '../components/ui/spinner';
import {
  ConnectionsCard,
  PlanUsageCard,
  ProfileCard,
  PublicProfileCard,
  SavedDataCard,
  SignOutButton,
  TransferHistoryCard,
  useAccountProfile,
  useConnectionAnnouncement,
  YourDataCard,
} from '../features/account';
import { BillingCard } from '../features/billing';
import { MatchRulesCard } from '../features/match-rules';
import { SyncsCard } from '../features/syncs';
import { useAuth } from '../hooks/use-auth';
import { paths } from '../lib/paths';

export default function AccountPage() {
  const { user, isLoading } = useAuth();
  useConnectionAnnouncement();
  if (isLoading) {
    return (
      <Page title="My Account">
        <Spinner label="Loading your account" />
      </Page>
    );
  }
  if (!user) return <Redirect to={paths.auth} replace />;
  return (
    <Page title="My Account" description="Your profile, plan, connections and data.">
      <AccountSections />
    </Page>
  );
}

function AccountSections() {
  const { user } = useAuth();
  const profile = useAccountProfile();
  if (!user) return null;
  return (
    // One column that may shrink below its content, so the history table scrolls inside its card
    // instead of widening the page (no sideways scroll at 360 px).
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <ProfileCard user={profile.data ?? user} />
      {profile.data ? (
        <>
          <PublicProfileCard profile={profile.data} />
          <ConnectionsCard profile={profile.data} />
        </>
      ) : profile.isError ? (
        <p role="alert" className="text-sm text-red-800">
          Your account details could not be loaded. Please reload the page.
        </p>
      ) : (
        <Spinner label="Loading your connections" />
      )}
      <PlanUsageCard />
      <BillingCard />
      <TransferHistoryCard />
      <MatchRulesCard />
      <SyncsCard />
      <SavedDataCard />
      <YourDataCard username={user.username} />
      <div>
        <SignOutButton />
      </div>
    </div>
  );
}
