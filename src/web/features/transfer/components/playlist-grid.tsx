import { Check, Disc3, Heart, ListMusic } from 'lucide-react';
import type { PlaylistSummary } from '../../../../shared/api/playlists';
import { sameNameDetails } from '../../../components/playlist-twins';
import { cn } from '../../../lib/cn';
import { HighlightedText } from './highlighted-text';

function KindIcon({ kind }: { kind: PlaylistSummary['kind'] }) {
  if (kind === 'liked') return <Heart aria-hidden="true" className="h-7 w-7 text-violet-700" />;
  if (kind === 'album') return <Disc3 aria-hidden="true" className="h-7 w-7 text-slate-600" />;
  return <ListMusic aria-hidden="true" className="h-7 w-7 text-slate-500" />;
}

/** Liked Songs / favourites and saved albums (issue 14), listed by the service above its playlists. */
export const isLibraryCollection = (playlist: Pick<PlaylistSummary, 'kind'>) =>
  playlist.kind === 'liked' || playlist.kind === 'album';

const trackCountLabel = (count: number) => `${count} ${count === 1 ? 'track' : 'tracks'}`;

/**
 * Spec section 2 step 2: cover (or an icon), name and track count; the chosen card is pressed. A playlist
 * this app cannot read says why on its card and cannot be picked, so nobody meets the refusal in step 3.
 */
export function PlaylistGrid({
  playlists,
  query,
  selectedId,
  onSelect,
  label = 'Your playlists',
}: {
  playlists: PlaylistSummary[];
  query: string;
  selectedId: string | null;
  onSelect: (playlist: PlaylistSummary) => void;
  /** The list's accessible name ("Your library" for Liked Songs and saved albums). */
  label?: string;
}) {
  // Same-named playlists say what tells them apart (issue 23).
  const twins = sameNameDetails(playlists);
  return (
    <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label={label}>
      {playlists.map((playlist) => {
        const selected = playlist.id === selectedId;
        const twin = twins.get(playlist.id);
        const unreadable = playlist.unreadableReason;
        const reasonId = `unreadable-${playlist.id}`;
        return (
          <li key={playlist.id}>
            <button
              type="button"
              aria-pressed={selected}
              disabled={unreadable !== undefined}
              aria-describedby={unreadable ? reasonId : undefined}
              onClick={() => onSelect(playlist)}
              className={cn(
                'flex w-full items-center gap-3 rounded-xl border-2 bg-white p-3 text-left transition-colors',
                'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-violet-600 focus-visible:ring-offset-2',
                unreadable
                  ? 'cursor-not-allowed border-dashed border-slate-300 bg-slate-50'
                  : selected
                    ? 'border-violet-700 bg-violet-50'
                    : 'border-slate-200 hover:border-slate-300',
              )}
            >
              {playlist.imageUrl ? (
                <img
                  src={playlist.imageUrl}
                  alt=""
                  loading="lazy"
                  className="h-16 w-16 shrink-0 rounded-lg bg-slate-100 object-cover"
                />
              ) : (
                <span
                  className={cn(
                    'flex h-16 w-16 shrink-0 items-center justify-center rounded-lg',
                    playlist.kind === 'liked' ? 'bg-violet-100' : 'bg-slate-100',
                  )}
                >
                  <KindIcon kind={playlist.kind} />
                </span>
              )}
              <span className="grid min-w-0 flex-1 gap-1">
                <span className="truncate font-medium text-slate-900">
                  <HighlightedText text={playlist.name} query={query} />
                </span>
                <span className="text-sm text-slate-600">
                  {playlist.kind === 'album' ? 'Album · ' : playlist.kind === 'liked' ? 'Liked songs · ' : ''}
                  {playlist.trackCountUnknown
                    ? `${playlist.trackCount}+ tracks (Apple Music did not say how many)`
                    : trackCountLabel(playlist.trackCount)}
                </span>
                {twin ? (
                  <span className="text-xs text-slate-700" data-testid="same-name-details">
                    {twin}
                  </span>
                ) : null}
                {unreadable ? (
                  <span id={reasonId} className="text-sm text-amber-800">
                    Can’t be read: {unreadable}
                  </span>
                ) : null}
              </span>
              {selected ? <Check aria-hidden="true" className="h-5 w-5 shrink-0 text-violet-700" /> : null}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
