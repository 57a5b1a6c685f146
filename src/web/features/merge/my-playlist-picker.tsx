import { Link } from 'wouter';
import { type PlaylistSummary, playlistTrackCountText } from '../../../shared/api/playlists';
import { SERVICE_LABELS, type ServiceId } from '../../../shared/services';
import { sameNameDetails } from '../../components/playlist-twins';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { useAuth } from '../../hooks/use-auth';
import { paths } from '../../lib/paths';
import { usePlaylistsOf } from '../playlists';

export interface ChosenPlaylist {
  service: ServiceId;
  playlist: PlaylistSummary;
}

/**
 * One of the person's own playlists, from every service they connected. Signed-out or unconnected people
 * get a link to do that instead of an empty list.
 */
export function MyPlaylistPicker({
  value,
  onChange,
  label = 'Your playlist',
}: {
  value: ChosenPlaylist | null;
  onChange: (value: ChosenPlaylist | null) => void;
  label?: string;
}) {
  const { status, isLoading } = useAuth();
  const services = (['spotify', 'apple'] as const).filter((service) =>
    service === 'spotify' ? status.spotifyConnected : status.appleConnected,
  );
  const ownLists = usePlaylistsOf(services, services.length > 0);
  const lists = {
    ...ownLists,
    data: ownLists.data?.flatMap(({ service, playlists }) =>
      playlists
        .filter((playlist) => playlist.isOwned !== false && playlist.trackCount > 0)
        .map((playlist) => ({ service, playlist })),
    ),
  };

  // Same-named playlists of one service say what tells them apart (issue 23).
  const twins = new Map(
    (ownLists.data ?? []).flatMap(({ service, playlists }) =>
      [...sameNameDetails(playlists)].map(([id, details]) => [`${service}:${id}`, details] as const),
    ),
  );

  if (value) {
    return (
      <div className="grid gap-2">
        <span className="text-sm font-medium text-slate-900">{label}</span>
        <div className="flex items-center justify-between gap-3 rounded-lg border border-violet-300 bg-violet-50 px-3 py-2">
          <span className="text-sm text-slate-900">
            <span className="font-medium">{value.playlist.name}</span>{' '}
            <span className="text-slate-600">
              · {playlistTrackCountText(value.playlist)} · {SERVICE_LABELS[value.service]}
            </span>
          </span>
          <Button variant="outline" size="sm" onClick={() => onChange(null)}>
            Change
          </Button>
        </div>
      </div>
    );
  }
  if (isLoading) return <Spinner label="Loading your playlists" />;
  if (!status.isAuthenticated || services.length === 0) {
    return (
      <p className="text-sm text-slate-600">
        <Link
          href={status.isAuthenticated ? paths.transfer : paths.auth}
          className="font-medium text-violet-700 underline"
        >
          {status.isAuthenticated ? 'Connect Spotify or Apple Music' : 'Sign in'}
        </Link>{' '}
        to pick one of your playlists.
      </p>
    );
  }
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm font-medium text-slate-900">{label}</legend>
      {lists.isPending ? <Spinner label="Loading your playlists" /> : null}
      {lists.isError ? <p className="text-sm text-red-700">Could not load your playlists.</p> : null}
      <ul className="grid max-h-60 gap-1 overflow-y-auto pr-1">
        {(lists.data ?? []).map((entry) => (
          <li key={`${entry.service}:${entry.playlist.id}`}>
            <button
              type="button"
              className="flex w-full items-center justify-between rounded-lg border border-slate-200 px-3 py-2 text-left text-sm hover:border-violet-400 hover:bg-violet-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-violet-600"
              onClick={() => onChange(entry)}
            >
              <span className="grid">
                <span className="font-medium text-slate-900">{entry.playlist.name}</span>
                {twins.has(`${entry.service}:${entry.playlist.id}`) ? (
                  <span className="text-xs text-slate-600">
                    {twins.get(`${entry.service}:${entry.playlist.id}`)}
                  </span>
                ) : null}
              </span>
              <span className="text-slate-600">
                {playlistTrackCountText(entry.playlist)} · {SERVICE_LABELS[entry.service]}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
