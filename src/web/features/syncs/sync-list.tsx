import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { Sync, SyncRun, SyncTrack } from '../../../shared/api/syncs';
import { SERVICE_LABELS } from '../../../shared/services';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../hooks/use-toast';
import { serverMessage } from '../../lib/api-client';
import { HistoryLink, UndoButton } from '../history';
import { confirmSyncRun, deleteSync, runSync, setSyncPaused, useSyncRuns, useSyncs } from './syncs-api';

const SCHEDULE_LABELS: Record<Sync['schedule'], string> = {
  manual: 'Only when you run it',
  hourly: 'Every hour',
  daily: 'Every day',
  weekly: 'Every week',
};

const STATUS_LABELS: Record<SyncRun['status'], string> = {
  queued: 'Waiting to start',
  running: 'Running',
  needs_confirmation: 'Waiting for your confirmation',
  succeeded: 'Done',
  failed: 'Failed',
};

const describeTrack = (track: SyncTrack) =>
  track.artists.length > 0 ? `${track.name} — ${track.artists.join(', ')}` : track.name;

/** The person's syncs, each with run now / preview / pause / resume / delete and its history. */
export function SyncList() {
  const syncs = useSyncs();
  if (syncs.isPending) return <Spinner label="Loading your syncs" />;
  if (syncs.isError) {
    return (
      <p role="alert" className="text-sm text-red-800">
        {serverMessage(syncs.error) ?? 'Your syncs could not be loaded. Please reload the page.'}
      </p>
    );
  }
  if (syncs.data.syncs.length === 0) {
    return <p className="text-sm text-slate-600">No syncs yet. Create one above.</p>;
  }
  return (
    <ul className="grid gap-4" aria-label="Your syncs">
      {syncs.data.syncs.map((sync) => (
        <li key={sync.id}>
          <SyncItem sync={sync} />
        </li>
      ))}
    </ul>
  );
}

function useAction(title: string, action: () => Promise<unknown>) {
  return useMutation({
    mutationFn: action,
    onError: (error) =>
      toast({ title, description: serverMessage(error) ?? 'Please try again.', variant: 'destructive' }),
  });
}

function SyncItem({ sync }: { sync: Sync }) {
  const [showHistory, setShowHistory] = useState(false);
  const run = useAction('The sync could not run', () => runSync(sync.id, false));
  const preview = useAction('The preview could not start', () => runSync(sync.id, true));
  const pause = useAction('The sync could not be paused', () => setSyncPaused(sync.id, !sync.paused));
  const remove = useAction('The sync could not be deleted', () => deleteSync(sync.id));
  const busy = ['queued', 'running'].includes(sync.lastRun?.status ?? '');
  const name = sync.sourcePlaylistName ?? sync.sourcePlaylistId;
  return (
    <article
      className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4"
      aria-label={`Sync of ${name}`}
    >
      <div>
        <h2 className="font-medium text-slate-900">{name}</h2>
        <p className="text-sm text-slate-600">
          {SERVICE_LABELS[sync.sourceService]} → {SERVICE_LABELS[sync.destinationService]} ·{' '}
          {SCHEDULE_LABELS[sync.schedule]} · removals {sync.removals ? 'on' : 'off'}
          {sync.paused ? ' · paused' : ''}
        </p>
        {sync.lastRun ? (
          <p className="text-sm text-slate-700">
            Last run: {STATUS_LABELS[sync.lastRun.status]}
            {sync.lastRun.dryRun ? ' (preview)' : ''}
          </p>
        ) : null}
        {sync.destinationPlaylistId ? (
          <HistoryLink
            service={sync.destinationService}
            playlistId={sync.destinationPlaylistId}
            name={name}
          />
        ) : null}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" disabled={busy || sync.paused || run.isPending} onClick={() => run.mutate()}>
          Run now
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={busy || sync.paused || preview.isPending}
          onClick={() => preview.mutate()}
        >
          Preview
        </Button>
        <Button size="sm" variant="outline" disabled={pause.isPending} onClick={() => pause.mutate()}>
          {sync.paused ? 'Resume' : 'Pause'}
        </Button>
        <Button size="sm" variant="outline" onClick={() => setShowHistory((shown) => !shown)}>
          {showHistory ? 'Hide history' : 'History'}
        </Button>
        <Button
          size="sm"
          variant="destructive"
          disabled={remove.isPending}
          onClick={() => {
            if (window.confirm('Delete this sync? The destination playlist stays as it is.')) remove.mutate();
          }}
        >
          Delete
        </Button>
      </div>
      {showHistory || sync.lastRun?.status === 'needs_confirmation' ? <SyncHistory sync={sync} /> : null}
    </article>
  );
}

function TrackList({ label, tracks }: { label: string; tracks: SyncTrack[] }) {
  if (tracks.length === 0) return null;
  return (
    <details className="text-sm">
      <summary>
        {label}: {tracks.length}
      </summary>
      <ul className="ml-4 list-disc">
        {tracks.map((track) => (
          // One recording appears once per list (a run handles each recording once).
          <li key={`${track.name}|${track.artists.join(',')}`}>
            {describeTrack(track)}
            {track.reason ? <span className="text-slate-600"> ({track.reason})</span> : null}
          </li>
        ))}
      </ul>
    </details>
  );
}

function SyncHistory({ sync }: { sync: Sync }) {
  const runs = useSyncRuns(sync.id, true);
  if (runs.isPending) return <Spinner label="Loading the history" />;
  if (runs.isError) {
    return (
      <p role="alert" className="text-sm text-red-800">
        {serverMessage(runs.error) ?? 'The history could not be loaded.'}
      </p>
    );
  }
  return (
    <ol className="grid gap-2" aria-label="Run history">
      {runs.data.runs.map((run) => (
        <li key={run.id} className="rounded border border-slate-100 p-3">
          <RunItem syncId={sync.id} run={run} />
        </li>
      ))}
    </ol>
  );
}

function RunItem({ syncId, run }: { syncId: string; run: SyncRun }) {
  const confirm = useAction('The removals could not be confirmed', () => confirmSyncRun(syncId, run.id));
  const verb = run.dryRun || run.status === 'needs_confirmation' ? 'would be ' : '';
  return (
    <div className="grid gap-1">
      <p className="text-sm font-medium text-slate-900">
        {new Date(run.createdAt).toLocaleString()} · {run.dryRun ? 'Preview' : 'Run'} ·{' '}
        {STATUS_LABELS[run.status]}
      </p>
      <p className="text-sm text-slate-700">
        {run.added.length} {verb}added, {run.removed.length} {verb}removed, {run.unchanged} already there
        {run.verifiedTracks !== null ? ` · verified: ${run.verifiedTracks} of ${run.added.length}` : ''}
      </p>
      {run.error ? <p className="text-sm text-red-800">{run.error}</p> : null}
      {!run.dryRun && run.status === 'succeeded' && (run.added.length > 0 || run.removed.length > 0) ? (
        <div>
          <UndoButton writer={{ syncId, runId: run.id }} label="Undo this run" />
        </div>
      ) : null}
      {run.status === 'needs_confirmation' ? (
        <div>
          <Button size="sm" disabled={confirm.isPending} onClick={() => confirm.mutate()}>
            Confirm the removals and run
          </Button>
        </div>
      ) : null}
      <TrackList label={run.dryRun ? 'Would add' : 'Added'} tracks={run.added} />
      <TrackList label={run.dryRun ? 'Would remove' : 'Removed'} tracks={run.removed} />
      <TrackList label="Gone from the source, left in place" tracks={run.listedRemovals} />
      <TrackList label="Not added" tracks={run.notAdded} />
      <TrackList
        label="Still missing after verification"
        tracks={run.verificationMissing.map((item) => ({ ...item, reason: item.reason }))}
      />
    </div>
  );
}
