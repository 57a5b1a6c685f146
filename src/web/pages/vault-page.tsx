import { Page } from '../components/layout/page';
import { Alert } from '../components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../components/ui/card';
import { Spinner } from '../components/ui/spinner';
import { formatDay, useBilling } from '../features/billing';
import { BackupList, BackupNow, VaultOffer } from '../features/vault';
import { useAuth } from '../hooks/use-auth';

export default function VaultPage() {
  const { user, isLoading } = useAuth();
  // After leaving Vault+, backups stay readable and downloadable for 30 days (issue 22).
  const keptUntil = useBilling(user !== null && user.plan !== 'vault').data?.backupsKeptUntil;
  if (isLoading) {
    return (
      <Page title="Vault+">
        <Spinner label="Loading" />
      </Page>
    );
  }
  if (user?.plan !== 'vault') {
    return (
      <Page
        title="Vault+"
        description="Vault+ keeps a daily backup of your playlists, so a deleted or lost playlist is never gone for good."
      >
        {keptUntil ? (
          <section aria-labelledby="kept-backups-heading" className="mb-10 grid gap-4">
            <h2 id="kept-backups-heading" className="text-xl font-semibold text-slate-900">
              Your backups
            </h2>
            <Alert>
              You are no longer on Vault+: your backups stay readable and downloadable until{' '}
              {formatDay(keptUntil)}, then they are deleted. Restoring needs Vault+.
            </Alert>
            <BackupList />
          </section>
        ) : null}
        <VaultOffer signedIn={user !== null} />
      </Page>
    );
  }
  return (
    <Page
      title="Vault+"
      description="Crossfade backs up the playlists on your connected services every day. Restore any playlist to Spotify or Apple Music."
    >
      <div className="grid gap-6">
        <Card>
          <CardHeader>
            <CardTitle>Back up now</CardTitle>
            <CardDescription>
              Saves every playlist on each connected service now, in addition to the daily backup.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <BackupNow />
          </CardContent>
        </Card>
        <section aria-labelledby="backups-heading" className="grid gap-4">
          <h2 id="backups-heading" className="text-xl font-semibold text-slate-900">
            Your backups
          </h2>
          <BackupList />
        </section>
      </div>
    </Page>
  );
}
