import type { GeoAlternative } from '../../../shared/api/geo-lock';
import { cn } from '../../lib/cn';

const KIND_LABELS: Record<GeoAlternative['kind'], string> = {
  same_recording: 'Same recording',
  same_song: 'Same song, other album',
  other_version: 'Other version',
  none: 'No alternative',
};

function Choice({
  pressed,
  disabled,
  onClick,
  children,
}: {
  pressed: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: string;
}) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      disabled={disabled}
      onClick={onClick}
      className={cn(
        'h-8 rounded-md px-3 text-xs font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-violet-600',
        'disabled:cursor-not-allowed disabled:opacity-50',
        pressed
          ? 'bg-violet-700 text-white'
          : 'bg-white text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50',
      )}
    >
      {children}
    </button>
  );
}

/** One locked track: what it is, what could stand in, and the Keep Original / Use Alternative toggle. */
export function AlternativeRow({
  entry,
  useAlternative,
  onToggle,
}: {
  entry: GeoAlternative;
  useAlternative: boolean;
  onToggle: (useAlternative: boolean) => void;
}) {
  const { original, alternative } = entry;
  return (
    <li className="grid gap-2 border-b border-slate-200 p-3 last:border-b-0" data-testid="geo-alternative">
      <div className="grid gap-1 sm:grid-cols-2 sm:gap-4">
        <div className="min-w-0">
          <p className="text-xs uppercase tracking-wide text-slate-500">Original</p>
          <p className="truncate text-sm font-medium text-slate-900">{original.name}</p>
          <p className="truncate text-xs text-slate-600">
            {original.artists.join(', ')} · {original.album}
          </p>
        </div>
        <div className="min-w-0">
          <p className="text-xs uppercase tracking-wide text-slate-500">
            Alternative · {KIND_LABELS[entry.kind]}
            {alternative ? ` · ${entry.confidence}%` : ''}
          </p>
          {alternative ? (
            <>
              <p className="truncate text-sm font-medium text-slate-900">{alternative.name}</p>
              <p className="truncate text-xs text-slate-600">
                {alternative.artists.join(', ')} · {alternative.album}
              </p>
            </>
          ) : (
            <p className="text-sm text-slate-600">Nothing available in this region.</p>
          )}
        </div>
      </div>
      <p className="text-xs text-slate-700">{entry.explanation}</p>
      <fieldset className="flex gap-2" aria-label={`Choice for ${original.name}`}>
        <Choice pressed={!useAlternative} onClick={() => onToggle(false)}>
          Keep Original
        </Choice>
        <Choice pressed={useAlternative} disabled={!alternative} onClick={() => onToggle(true)}>
          Use Alternative
        </Choice>
      </fieldset>
    </li>
  );
}
