import { useId, useState } from 'react';
import { DEFAULT_MIX_RATIO, type MergePlaylistsResponse } from '../../../shared/api/merge';
import type { FriendPlaylist } from '../../../shared/api/playlists';
import { SERVICE_LABELS } from '../../../shared/services';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Switch } from '../../components/ui/switch';
import { toast } from '../../hooks/use-toast';
import { failureDescription } from '../../lib/failure-description';
import { track } from '../../lib/track';
import { MergeActions } from './merge-actions';
import { useFetchFriendPlaylist, useMergePlaylists } from './merge-api';
import { announceMerged, MergeResultView } from './merge-result';
import { MixRatioSlider } from './mix-ratio-slider';
import { type ChosenPlaylist, MyPlaylistPicker } from './my-playlist-picker';

type Phase = 'idle' | 'fetching' | 'analyzing';

/** The friend's share URL, its Import / Change button, and the playlist it found. */
function FriendPlaylistField({
  shareUrl,
  onShareUrlChange,
  friend,
  phase,
  onImport,
  onReset,
}: {
  shareUrl: string;
  onShareUrlChange: (url: string) => void;
  friend: FriendPlaylist | null;
  phase: Phase;
  onImport: () => void;
  onReset: () => void;
}) {
  const urlId = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={urlId}>Friend's playlist</Label>
      <div className="flex gap-2">
        <Input
          id={urlId}
          value={shareUrl}
          onChange={(event) => onShareUrlChange(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !friend) onImport();
          }}
          placeholder="Paste a Spotify or Apple Music playlist share URL"
          disabled={friend !== null || phase === 'fetching'}
        />
        {friend ? (
          <Button variant="outline" onClick={onReset}>
            Change
          </Button>
        ) : (
          <Button onClick={onImport} disabled={phase !== 'idle'}>
            {phase === 'fetching' ? 'Importing...' : 'Import'}
          </Button>
        )}
      </div>
      {friend ? (
        <p className="text-sm text-slate-700" data-testid="friend-playlist">
          <span className="font-medium">{friend.name}</span> by {friend.owner} · {friend.trackCount} tracks ·{' '}
          {SERVICE_LABELS[friend.service]}
        </p>
      ) : null}
    </div>
  );
}

/** The /visualizations friend-merge tab (spec section 2): a friend's share URL + one of yours → one mix. */
export function FriendMergePanel() {
  const bridgeId = useId();
  const [shareUrl, setShareUrl] = useState('');
  const [friend, setFriend] = useState<FriendPlaylist | null>(null);
  const [mine, setMine] = useState<ChosenPlaylist | null>(null);
  const [ratio, setRatio] = useState(DEFAULT_MIX_RATIO[0]);
  const [bridges, setBridges] = useState(true);
  const fetching = useFetchFriendPlaylist();
  const merging = useMergePlaylists();
  const phase: Phase = fetching.isPending ? 'fetching' : merging.isPending ? 'analyzing' : 'idle';
  const [result, setResult] = useState<MergePlaylistsResponse | null>(null);

  const importFriend = () => {
    const url = shareUrl.trim();
    if (url === '') {
      toast({
        title: 'Missing information',
        description: 'Please enter a playlist share URL',
        variant: 'destructive',
      });
      return;
    }
    fetching.mutate(url, {
      onSuccess: (found) => {
        setFriend(found);
        toast({
          title: 'Playlist found!',
          description: `${found.name} by ${found.owner} (${found.trackCount} tracks)`,
        });
      },
      onError: (error) =>
        toast({
          title: 'Error',
          description: failureDescription(
            'Could not find or access the playlist. Please check the URL and try again.',
            error,
          ),
          variant: 'destructive',
        }),
    });
  };

  const resetFriend = () => {
    setFriend(null);
    setShareUrl('');
  };

  const merge = () => {
    if (!mine || !friend) {
      toast({
        title: 'Missing information',
        description: "Please select both your playlist and your friend's playlist",
        variant: 'destructive',
      });
      return;
    }
    track('friend_merge_started', {
      friend_count: 1,
      total_tracks: mine.playlist.trackCount + friend.trackCount,
    });
    merging.mutate(
      {
        userPlaylistId: mine.playlist.id,
        userService: mine.service,
        friendPlaylistId: `${friend.service}:${friend.id}`,
        mixRatio: [ratio, 100 - ratio],
        includeBridgeTracks: bridges,
      },
      {
        onSuccess: (merged) => {
          setResult(merged);
          announceMerged(merged);
        },
        onError: (error) =>
          toast({
            title: 'Merge Failed',
            description: failureDescription('Could not create the merged playlist. Please try again.', error),
            variant: 'destructive',
          }),
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Friend Merge</CardTitle>
        <CardDescription>
          Blend your playlist with a friend's into one mix, with tracks that bridge your tastes.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {result ? (
          <div className="grid gap-4">
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
                    {...(mine ? { service: mine.service } : {})}
                  />
                  <Button variant="ghost" onClick={() => setResult(null)}>
                    New Merge
                  </Button>
                </>
              }
            />
          </div>
        ) : (
          <div className="grid gap-6">
            <FriendPlaylistField
              shareUrl={shareUrl}
              onShareUrlChange={setShareUrl}
              friend={friend}
              phase={phase}
              onImport={importFriend}
              onReset={resetFriend}
            />
            <MyPlaylistPicker value={mine} onChange={setMine} />
            <MixRatioSlider value={ratio} onChange={setRatio} />
            <div className="flex items-center gap-3">
              <Switch id={bridgeId} checked={bridges} onCheckedChange={setBridges} />
              <Label htmlFor={bridgeId}>Include bridge tracks</Label>
            </div>
            <Button size="lg" onClick={merge} disabled={!mine || !friend || phase !== 'idle'}>
              {phase === 'analyzing' ? 'Analyzing tastes...' : 'Create Merged Playlist'}
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
