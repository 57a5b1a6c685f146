import { useQuery } from '@tanstack/react-query';
import { Link, Redirect } from 'wouter';
import { SERVICE_LABELS } from '../../shared/services';
import { Page } from '../components/layout/page';
import { Alert } from '../components/ui/alert';
import { Spinner } from '../components/ui/spinner';
import { disappearedQuery, historyPagePath } from '../features/history';
import { useAuth } from '../hooks/use-auth';
import { serverMessage } from '../lib/api-client';
import { paths } from '../lib/paths';

const WHY = { removed: 'removed', unavailable: 'no longer available' } as const;
const BY = {
  transfer: 'by a transfer',
  sync: 'by a sync',
  restore: 'by a restore',
  backup: '',
  outside: 'in the service itself',
} as const;

/** /history/disappeared — what vanished from the person's playlists, when and why (issue 21). */
export default function DisappearedPage() {
  const { user, isLoading } = useAuth();
  const items = useQuery({ ...disappearedQuery(), enabled: Boolean(user) });
  if (isLoading) {
    return (
      <Page title="Disappeared">
        <Spinner label="Loading" />
      </Page>
    );
  }
  if (!user) return <Redirect to={paths.auth} replace />;
  return (
    <Page
      title="What disappeared"
      description="Tracks removed from your playlists or no longer offered, newest first."
    >
      {items.isPending ? <Spinner label="Loading" /> : null}
      {items.isError ? <Alert variant="destructive">{serverMessage(items.error)}</Alert> : null}
      {items.data?.items.length === 0 ? (
        <p className="text-sm">Nothing has disappeared from your playlists.</p>
      ) : null}
      <ul className="grid gap-2">
        {items.data?.items.map((item) => (
          <li
            key={`${item.versionId}:${item.how}:${item.track.uri}`}
            className="rounded-md border border-slate-200 p-2 text-sm break-words"
          >
            <strong>{item.track.name}</strong> — {item.track.artists.join(', ')}: {WHY[item.how]}{' '}
            {item.how === 'removed' ? BY[item.cause] : ''} on{' '}
            <time dateTime={item.at}>{new Date(item.at).toLocaleString()}</time>, from{' '}
            <Link href={historyPagePath(item.service, item.playlistId)} className="underline">
              {item.playlistName}
            </Link>{' '}
            ({SERVICE_LABELS[item.service]})
          </li>
        ))}
      </ul>
    </Page>
  );
}
