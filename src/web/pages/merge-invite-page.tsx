import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link, useParams } from 'wouter';
import type { MergePlaylistsResponse } from '../../shared/api/merge';
import { Page } from '../components/layout/page';
import { Alert } from '../components/ui/alert';
import { Button } from '../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../components/ui/card';
import { Input } from '../components/ui/input';
import { Label } from '../components/ui/label';
import { Spinner } from '../components/ui/spinner';
import { signInPathFor } from '../features/auth';
import {
  announceMerged,
  type ChosenPlaylist,
  invitationQuery,
  MergeActions,
  MergeResultView,
  MyPlaylistPicker,
  useAcceptInvitation,
} from '../features/merge';
import { useAuth } from '../hooks/use-auth';
import { toast } from '../hooks/use-toast';
import { failureDescription } from '../lib/failure-description';
import { paths } from '../lib/paths';
import { track } from '../lib/track';

/** `/merge/invite/:token`: the friend's side of an e-mailed merge invitation. */
export default function MergeInvitePage() {
  const { token = '' } = useParams<{ token: string }>();
  const linkId = useId();
  const { status } = useAuth();
  const invitation = useQuery(invitationQuery(token));
  const [mine, setMine] = useState<ChosenPlaylist | null>(null);
  const [shareUrl, setShareUrl] = useState('');
  const accept = useAcceptInvitation(token);
  const merging = accept.isPending;
  const [result, setResult] = useState<MergePlaylistsResponse | null>(null);
  const connected = status.spotifyConnected || status.appleConnected;

  const merge = () => {
    const url = shareUrl.trim();
    if (!mine && url === '') {
      toast({
        title: 'Missing information',
        description: "Please select both your playlist and your friend's playlist",
        variant: 'destructive',
      });
      return;
    }
    track('friend_merge_started', {
      friend_count: 1,
      total_tracks: (invitation.data?.trackCount ?? 0) + (mine?.playlist.trackCount ?? 0),
    });
    accept.mutate(mine ? { playlistId: mine.playlist.id, service: mine.service } : { shareUrl: url }, {
      onSuccess: (merged) => {
        setResult(merged);
        announceMerged(merged);
      },
      onError: (error) =>
        toast({
          title: 'Error generating merge',
          description: failureDescription('There was a problem creating your merged playlist', error),
          variant: 'destructive',
        }),
    });
  };

  const view = invitation.data;
  return (
    <Page
      title="Merge Invitation"
      description={view ? `${view.inviterName} invited you to blend playlists.` : undefined}
    >
      {invitation.isPending ? <Spinner label="Loading the invitation" /> : null}
      {invitation.isError ? (
        <Alert variant="destructive">
          This invitation link is not valid. Ask your friend to send a new one.
        </Alert>
      ) : null}
      {view && result ? (
        <Card>
          <CardContent className="pt-5 sm:pt-6">
            <MergeResultView
              playlistName={result.playlistName}
              tracks={result.tracks}
              insightSummary={result.insightSummary}
              insightWrittenBy={result.insightWrittenBy}
              actions={
                <>
                  <MergeActions
                    playlistName={result.playlistName}
                    tracks={result.tracks}
                    newPlaylistId={result.newPlaylistId}
                    canSave={connected}
                  />
                  <Link
                    href={`/m/${result.newPlaylistId}`}
                    className={'self-center text-sm font-medium text-violet-700 underline'}
                  >
                    Open the merged playlist
                  </Link>
                </>
              }
            />
          </CardContent>
        </Card>
      ) : null}
      {view && !result ? (
        <Card>
          <CardHeader>
            <CardTitle>
              Merge with {view.inviterName}'s "{view.playlistName}"
            </CardTitle>
            <CardDescription>
              {view.trackCount} tracks. Add one of your playlists and we'll mix the two.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-6">
            {view.status === 'expired' ? (
              <Alert variant="destructive">
                This invitation has expired. Ask your friend to send a new one.
              </Alert>
            ) : null}
            {view.status === 'merged' && view.mergedPlaylistId ? (
              <Alert>
                This invitation has already been answered.{' '}
                <Link href={`/m/${view.mergedPlaylistId}`} className="font-medium text-violet-700 underline">
                  See the merged playlist
                </Link>
              </Alert>
            ) : null}
            {view.status === 'pending' ? (
              <>
                {connected ? (
                  <MyPlaylistPicker value={mine} onChange={setMine} />
                ) : (
                  <p className="text-sm text-slate-700">
                    <Link
                      href={status.isAuthenticated ? paths.transfer : signInPathFor(`/merge/invite/${token}`)}
                      className="font-medium text-violet-700 underline"
                    >
                      {status.isAuthenticated ? 'Connect Spotify or Apple Music' : 'Sign in'}
                    </Link>{' '}
                    to pick one of your playlists, or paste a share URL below.
                  </p>
                )}
                {mine ? null : (
                  <div className="grid gap-2">
                    <Label htmlFor={linkId}>Or paste a playlist share URL</Label>
                    <Input
                      id={linkId}
                      value={shareUrl}
                      onChange={(event) => setShareUrl(event.target.value)}
                      placeholder="Paste a Spotify or Apple Music playlist share URL"
                    />
                  </div>
                )}
                <Button size="lg" onClick={merge} disabled={merging}>
                  {merging ? 'Analyzing tastes...' : 'Merge Playlists'}
                </Button>
              </>
            ) : null}
          </CardContent>
        </Card>
      ) : null}
    </Page>
  );
}
