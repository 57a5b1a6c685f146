import { Link, Redirect } from 'wouter';
import { Page } from '../components/layout/page';
import { buttonClasses } from '../components/ui/button';
import { Spinner } from '../components/ui/spinner';
import { NewSyncForm, SyncList } from '../features/syncs';
import { useAuth } from '../hooks/use-auth';
import { paths } from '../lib/paths';

const DESCRIPTION =
  'Keep a pair of playlists in sync: each run adds what is new in the source, never a song already there, and reads the destination back. The first run is a preview. Sync is a Pro feature.';

export default function SyncsPage() {
  const { user, isLoading } = useAuth();
  if (isLoading) {
    return (
      <Page title="Syncs">
        <Spinner label="Loading" />
      </Page>
    );
  }
  if (!user) return <Redirect to={paths.auth} replace />;
  if (user.plan === 'free') {
    return (
      <Page title="Syncs" description={DESCRIPTION}>
        <div className="grid gap-4">
          <p className="text-sm text-slate-700">
            Sync is a Pro feature: your playlists stay in step on their own, hourly, daily or weekly.
          </p>
          <div>
            <Link href={paths.pricing} className={buttonClasses('primary')}>
              See plans and pricing
            </Link>
          </div>
        </div>
      </Page>
    );
  }
  return (
    <Page title="Syncs" description={DESCRIPTION}>
      <div className="grid gap-6">
        <NewSyncForm />
        <SyncList />
      </div>
    </Page>
  );
}
