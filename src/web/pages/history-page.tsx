import { Redirect, useParams } from 'wouter';
import { serviceIdSchema } from '../../shared/services';
import { Page } from '../components/layout/page';
import { Spinner } from '../components/ui/spinner';
import { HistoryTimeline } from '../features/history';
import { useAuth } from '../hooks/use-auth';
import { paths } from '../lib/paths';

const DESCRIPTION =
  'Every version of this playlist Crossfade has seen: what was added, removed or stopped being available, and who changed it. History is shown for 7 days on every plan and in full with Vault+, which also restores any version.';

/** /history/:service/:playlistId — a playlist's timeline of versions, with restore (issue 21). */
export default function HistoryPage() {
  const params = useParams<{ service: string; playlistId: string }>();
  const { user, isLoading } = useAuth();
  const service = serviceIdSchema.safeParse(params.service);
  if (isLoading) {
    return (
      <Page title="History">
        <Spinner label="Loading" />
      </Page>
    );
  }
  if (!user) return <Redirect to={paths.auth} replace />;
  if (!service.success) return <Redirect to={paths.home} replace />;
  return (
    <Page title="Playlist history" description={DESCRIPTION}>
      <HistoryTimeline
        service={service.data}
        playlistId={params.playlistId ?? ''}
        canRestore={user.plan === 'vault'}
      />
    </Page>
  );
}
