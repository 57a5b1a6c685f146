import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'wouter';
import { Page } from '../components/layout/page';
import { Alert } from '../components/ui/alert';
import { Card, CardContent } from '../components/ui/card';
import { Spinner } from '../components/ui/spinner';
import { MergeActions } from '../features/friend-merge/merge-actions';
import { mergedPlaylistQuery } from '../features/friend-merge/merge-api';
import { MergeResultView } from '../features/friend-merge/merge-result';
import { useAuth } from '../hooks/use-auth';
import { paths } from '../lib/paths';

/** Public page of a merged playlist (`/m/:id`): what "Share with Friend" links to; no sign-in needed. */
export default function MergedPlaylistPage() {
  const { id = '' } = useParams<{ id: string }>();
  const { status } = useAuth();
  const query = useQuery(mergedPlaylistQuery(id));
  const connected = status.spotifyConnected || status.appleConnected;
  const from =
    query.data?.yourPlaylist && query.data.friendPlaylist
      ? `A mix of ${query.data.yourPlaylist.owner}'s "${query.data.yourPlaylist.name}" and ${query.data.friendPlaylist.owner}'s "${query.data.friendPlaylist.name}".`
      : 'A friend merge made with Crossfade.';
  return (
    <Page title={query.data?.name ?? 'Merged playlist'} description={query.data ? from : undefined}>
      {query.isPending ? <Spinner label="Loading the merged playlist" /> : null}
      {query.isError ? (
        <Alert variant="destructive">This merged playlist does not exist (any more).</Alert>
      ) : null}
      {query.data ? (
        <Card>
          <CardContent className="pt-5 sm:pt-6">
            <MergeResultView
              playlistName={query.data.name}
              tracks={query.data.tracks}
              insightSummary={query.data.insightSummary}
              showAll
              actions={
                <>
                  <MergeActions
                    playlistName={query.data.name}
                    tracks={query.data.tracks}
                    newPlaylistId={query.data.id}
                    canSave={connected}
                  />
                  {connected ? null : (
                    <Link
                      href={status.isAuthenticated ? paths.transfer : paths.auth}
                      className="self-center text-sm text-violet-700 underline"
                    >
                      {status.isAuthenticated
                        ? 'Connect a service to save it'
                        : 'Sign in to save it to your library'}
                    </Link>
                  )}
                </>
              }
            />
          </CardContent>
        </Card>
      ) : null}
    </Page>
  );
}
