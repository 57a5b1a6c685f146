import { Redirect } from 'wouter';
import { Page } from '../components/layout/page';
import { Spinner } from '../components/ui/spinner';
import { ProfileCard } from '../features/account/components/profile-card';
import { SignOutButton } from '../features/account/components/sign-out-button';
import { useAuth } from '../hooks/use-auth';
import { paths } from '../lib/paths';

export default function AccountPage() {
  const { user, isLoading } = useAuth();
  if (isLoading) {
    return (
      <Page title="My Account">
        <Spinner label="Loading your account" />
      </Page>
    );
  }
  if (!user) return <Redirect to={paths.auth} replace />;
  return (
    <Page title="My Account" description="Your profile and plan.">
      <div className="grid gap-6">
        <ProfileCard user={user} />
        <div>
          <SignOutButton />
        </div>
      </div>
    </Page>
  );
}
