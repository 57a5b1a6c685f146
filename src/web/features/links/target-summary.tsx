import { Music } from 'lucide-react';
import type { LinkTarget } from '../../../shared/api/links';

/** Artwork, title and artists of what a link points at. */
export function TargetSummary({ target, size = 'md' }: { target: LinkTarget; size?: 'md' | 'lg' }) {
  const box = size === 'lg' ? 'h-40 w-40' : 'h-14 w-14';
  return (
    <div className="flex items-center gap-4">
      {target.imageUrl ? (
        <img
          src={target.imageUrl}
          alt={`Artwork for ${target.title}`}
          className={`${box} shrink-0 rounded-lg object-cover shadow-sm`}
        />
      ) : (
        <div
          className={`${box} flex shrink-0 items-center justify-center rounded-lg bg-violet-100 text-violet-700`}
        >
          <Music aria-hidden="true" className="h-1/2 w-1/2" />
        </div>
      )}
      <div className="min-w-0">
        <p className="text-xs font-medium uppercase tracking-wide text-slate-500">
          {target.kind === 'track' ? 'Track' : 'Playlist'}
        </p>
        <p
          className={size === 'lg' ? 'text-2xl font-semibold text-slate-900' : 'font-semibold text-slate-900'}
        >
          {target.title}
        </p>
        {target.artists.length > 0 ? (
          <p className="truncate text-sm text-slate-600">{target.artists.join(', ')}</p>
        ) : null}
      </div>
    </div>
  );
}
