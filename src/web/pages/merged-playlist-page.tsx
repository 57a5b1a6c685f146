import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link, useParams } from 'wouter';
import { Page } from '../components/layout/page';
import { Alert } from '../components/ui/alert';
import { Card, CardContent } from '../components/ui/card';
import { Label } from '../components/ui/label';
import { Spinner } from '../components/ui/spinner';
import { Switch } from '../components/ui/switch';
import { MergeActions, MergeResultView, mergedPlaylistQuery, useSetMergePublic } from '../features/merge';
import { useAuth } from '../hooks/use-auth';
import { toast } from '../hooks/use-toast';
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
              insightWrittenBy={query.data.insightWrittenBy}
              audience="public"
              showAll
              actions={
                <>
                  <MergeActions
                    playlistName={query.data.name}
                    tracks={query.data.tracks}
                    newPlaylistId={query.data.id}
                    canSave={connected && query.data.canCopy !== false}
                  />
                  {query.data.yours ? (
                    <PublicSwitch id={query.data.id} isPublic={query.data.public === true} />
                  ) : null}
                  {status.isAuthenticated && query.data.canCopy === false ? (
                    <p className="self-center text-sm text-slate-700">
                      Its owner keeps this merge private: you can look through it, not copy it.
                    </p>
                  ) : null}
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

/** The owner's switch: anyone may copy a public merge into their library; a private one only its people. */
function PublicSwitch({ id, isPublic }: { id: string; isPublic: boolean }) {
  const switchId = useId();
  const setPublic = useSetMergePublic(id);
  const saving = setPublic.isPending;
  const change = (next: boolean) =>
    setPublic.mutate(next, {
      onError: () =>
        toast({
          title: 'Not changed',
          description: 'Could not change who may copy this merge. Please try again.',
          variant: 'destructive',
        }),
    });
  return (
    <div className="flex items-center gap-3 self-center">
      <Switch id={switchId} checked={isPublic} disabled={saving} onCheckedChange={change} />
      <Label htmlFor={switchId}>Anyone with the link may copy it</Label>
    </div>
  );
}
