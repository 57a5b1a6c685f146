import { Button } from '../../components/ui/button';
import { Label } from '../../components/ui/label';
import type { ExportablePlaylist } from './export-api';

/**
 * The export picker: every playlist of the person's, those the app cannot read shown disabled, and below
 * the list why each of those cannot be exported (a disabled option alone says nothing).
 */
export function PlaylistPicker({
  id,
  playlists,
  selected,
  onSelect,
  loading,
  failed,
  onRetry,
  sample,
}: {
  id: string;
  playlists: readonly ExportablePlaylist[];
  selected: ExportablePlaylist | undefined;
  onSelect: (id: string) => void;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  sample: boolean;
}) {
  const unreadable = playlists.filter((playlist) => playlist.unreadableReason);
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>Playlist</Label>
      <select
        id={id}
        value={selected?.id ?? ''}
        disabled={loading || playlists.length === 0}
        aria-describedby={unreadable.length > 0 ? `${id}-unreadable` : undefined}
        onChange={(event) => onSelect(event.target.value)}
        className="h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-violet-600"
      >
        {loading ? <option value="">Loading your playlists…</option> : null}
        {playlists.map((playlist) => (
          <option key={playlist.id} value={playlist.id} disabled={playlist.unreadableReason !== undefined}>
            {playlist.unreadableReason ? `${playlist.label}: cannot be exported` : playlist.label}
          </option>
        ))}
      </select>
      {unreadable.length > 0 ? (
        <div
          id={`${id}-unreadable`}
          className="rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700"
        >
          <p className="font-semibold">Not available for export</p>
          <ul className="mt-1 space-y-1">
            {unreadable.map((playlist) => (
              <li key={playlist.id} data-testid="unreadable-playlist">
                <span className="font-medium">{playlist.name}</span>: {playlist.unreadableReason}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {failed ? (
        <p role="alert" className="text-sm text-red-800">
          Could not load your playlists.{' '}
          <Button variant="link" size="sm" className="h-auto p-0" onClick={onRetry}>
            Try again
          </Button>
        </p>
      ) : null}
      {sample ? (
        <p className="text-xs text-slate-600">
          These are sample playlists; connect a service to export your own.
        </p>
      ) : null}
    </div>
  );
}
