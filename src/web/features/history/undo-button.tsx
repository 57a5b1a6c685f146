import { Link } from 'wouter';
import type { ServiceId } from '../../../shared/services';
import { Button } from '../../components/ui/button';
import { serverMessage } from '../../lib/api-client';
import { historyPagePath, useUndo } from './history-api';
import { RestoreProgress } from './history-timeline';

const linkClass =
  'text-violet-700 underline underline-offset-4 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-violet-600 rounded';

/** "Undo": takes back what this transfer or sync run wrote, then shows the restore's verified count. */
export function UndoButton({
  writer,
  label,
}: {
  writer: { transferId: string } | { syncId: string; runId: string };
  label: string;
}) {
  const undo = useUndo();
  return (
    <span className="inline-grid gap-1">
      <Button
        size="sm"
        variant="outline"
        aria-label={label}
        disabled={undo.isPending || undo.isSuccess}
        onClick={() => {
          if (window.confirm('Take back what this wrote? Crossfade reads the playlist back afterwards.'))
            undo.mutate(writer);
        }}
      >
        Undo
      </Button>
      {undo.error ? (
        <span role="alert" className="text-xs text-red-800">
          {serverMessage(undo.error) ?? 'The undo could not start.'}
        </span>
      ) : null}
      {undo.data?.jobId ? <RestoreProgress jobId={undo.data.jobId} /> : null}
      {/* A two-way run wrote both sides: the Apple Music side is undone into a new playlist, said here. */}
      {undo.data?.otherSides.map((side) => (
        <span key={side.jobId ?? side.plan.playlistId} className="grid gap-1 text-xs">
          {side.plan.why ? <span>{side.plan.why}</span> : null}
          {side.jobId ? <RestoreProgress jobId={side.jobId} /> : null}
        </span>
      ))}
    </span>
  );
}

/** A link to a playlist's History page. */
export function HistoryLink({
  service,
  playlistId,
  name,
}: {
  service: ServiceId;
  playlistId: string;
  name: string;
}) {
  return (
    <Link href={historyPagePath(service, playlistId)} className={linkClass} aria-label={`History of ${name}`}>
      History
    </Link>
  );
}
