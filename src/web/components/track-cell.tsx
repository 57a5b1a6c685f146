import { Music } from 'lucide-react';
import type { Track } from '../../shared/api/playlists';

/** Artwork, name and artists of one track. */
export function TrackCell({ track, caption }: { track: Track; caption?: string }) {
  return (
    <span className="flex min-w-0 items-center gap-3">
      {track.imageUrl ? (
        <img
          src={track.imageUrl}
          alt=""
          loading="lazy"
          className="h-10 w-10 shrink-0 rounded bg-slate-100 object-cover"
        />
      ) : (
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded bg-slate-100">
          <Music aria-hidden="true" className="h-5 w-5 text-slate-500" />
        </span>
      )}
      <span className="block min-w-0">
        {caption ? <span className="sr-only">{caption}: </span> : null}
        <span className="block truncate text-sm font-medium text-slate-900">{track.name}</span>
        <span className="block truncate text-xs text-slate-600">{track.artists.join(', ')}</span>
      </span>
    </span>
  );
}
