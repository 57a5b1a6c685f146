import { Layers } from 'lucide-react';
import { useId, useState } from 'react';
import { useLocation } from 'wouter';
import { MAX_BATCH_PLAYLISTS } from '../../../shared/api/batches';
import { type PlaylistSummary, playlistTrackCountText } from '../../../shared/api/playlists';
import { SERVICE_LABELS, type ServiceId } from '../../../shared/services';
import { sameNameDetails } from '../../components/playlist-twins';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { serverMessage } from '../../lib/api-client';
import { useCreateBatch } from './batches-api';

/**
 * Step 2's "move several at once" (issue 14 item 2, Pro): tick playlists (or all) and move them as one
 * batch with one review. The single-playlist choice above it is unchanged.
 */
export function BatchPicker({
  playlists,
  source,
  destination,
}: {
  playlists: PlaylistSummary[];
  source: ServiceId;
  destination: ServiceId;
}) {
  const [, navigate] = useLocation();
  const headingId = useId();
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState<string[]>([]);
  const create = useCreateBatch();
  const movable = playlists.filter((item) => !item.unreadableReason).slice(0, MAX_BATCH_PLAYLISTS);
  const twins = sameNameDetails(movable);
  const allPicked = movable.length > 0 && movable.every((item) => picked.includes(item.id));

  const toggle = (id: string) =>
    setPicked((current) =>
      current.includes(id) ? current.filter((other) => other !== id) : [...current, id],
    );

  const move = () => {
    const ordered = movable.filter((item) => picked.includes(item.id)).map((item) => item.id);
    create.mutate(
      { sourceService: source, destinationService: destination, playlistIds: ordered },
      { onSuccess: ({ batchId }) => navigate(`/batches/${batchId}`) },
    );
  };

  if (!open) {
    return (
      <div>
        <Button variant="outline" onClick={() => setOpen(true)}>
          <Layers aria-hidden="true" className="h-4 w-4" />
          Move several playlists at once
        </Button>
      </div>
    );
  }
  return (
    <section aria-labelledby={headingId} className="grid gap-3 rounded-xl border border-slate-200 p-4">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Move several playlists to {SERVICE_LABELS[destination]}
      </h2>
      <p className="text-sm text-slate-600">
        Pick the playlists (or all of them). They are matched together, you review once what needs you, then
        they are moved and checked. A Pro feature.
      </p>
      <label className="flex items-center gap-2 text-sm font-medium">
        <input
          type="checkbox"
          checked={allPicked}
          onChange={() => setPicked(allPicked ? [] : movable.map((item) => item.id))}
        />
        All playlists ({movable.length})
      </label>
      <ul className="grid max-h-72 gap-1 overflow-y-auto sm:grid-cols-2">
        {movable.map((item) => (
          <li key={item.id}>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={picked.includes(item.id)} onChange={() => toggle(item.id)} />
              <span>
                {item.name} <span className="text-slate-500">({playlistTrackCountText(item)})</span>
                {twins.has(item.id) ? (
                  <span className="block text-xs text-slate-600">{twins.get(item.id)}</span>
                ) : null}
              </span>
            </label>
          </li>
        ))}
      </ul>
      {create.isError ? (
        <Alert variant="destructive">
          {serverMessage(create.error) ?? 'The batch could not be started. Please try again.'}
        </Alert>
      ) : null}
      <div className="flex gap-3">
        {/* Still disabled once created: the page is on its way to the batch. */}
        <Button onClick={move} disabled={picked.length === 0 || create.isPending || create.isSuccess}>
          Move {picked.length} playlist{picked.length === 1 ? '' : 's'}
        </Button>
        <Button variant="ghost" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </section>
  );
}
