import type { MergedTrack } from '../../../shared/api/merge';
import type { ServiceId } from '../../../shared/services';
import { Button } from '../../components/ui/button';
import { toast } from '../../hooks/use-toast';
import { failureDescription } from '../../lib/failure-description';
import { copyText } from './copy-text';
import { mergedPlaylistUrl, useSaveMergedPlaylist } from './merge-api';

/** "Save to My Library" and "Share with Friend" with the spec's toasts (sections 2 and 8). */
export function MergeActions({
  playlistName,
  tracks,
  newPlaylistId,
  service,
  canSave = true,
}: {
  playlistName: string;
  tracks: MergedTrack[];
  newPlaylistId: string;
  service?: ServiceId;
  canSave?: boolean;
}) {
  const saveMerged = useSaveMergedPlaylist();
  const saving = saveMerged.isPending;
  const save = () =>
    saveMerged.mutate(
      {
        playlistName,
        tracks: tracks.map((track) => track.id),
        newPlaylistId,
        ...(service ? { service } : {}),
      },
      {
        onSuccess: (saved) =>
          toast({
            title: 'Playlist saved!',
            description: `${saved.saved} tracks added to "${playlistName}".`,
          }),
        onError: (error) =>
          toast({
            title: 'Save Failed',
            description: failureDescription(
              'Could not save the playlist to your library. Please try again.',
              error,
            ),
            variant: 'destructive',
          }),
      },
    );
  const share = async () => {
    try {
      await copyText(mergedPlaylistUrl(newPlaylistId));
      toast({ title: 'Link copied!', description: mergedPlaylistUrl(newPlaylistId) });
    } catch {
      toast({
        title: 'Share Failed',
        description: 'Could not generate a shareable link. Please try again.',
        variant: 'destructive',
      });
    }
  };
  return (
    <>
      {canSave ? (
        <Button onClick={save} disabled={saving}>
          {saving ? 'Saving...' : 'Save to My Library'}
        </Button>
      ) : null}
      <Button variant="outline" onClick={share}>
        Share with Friend
      </Button>
    </>
  );
}
