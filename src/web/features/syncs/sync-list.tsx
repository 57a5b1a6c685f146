import { useState } from 'react';
import { type Sync, type SyncRun, type SyncTrack, TWO_WAY_CONFLICT_RULE } from '../../../shared/api/syncs';
import { SERVICE_LABELS } from '../../../shared/services';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../hooks/use-toast';
import { serverMessage } from '../../lib/api-client';
import { HistoryLink, UndoButton } from '../history';
import {
  useConfirmSyncRun,
  useDeleteSync,
  useRebuildSync,
  useRunSync,
  useSetSyncPaused,
  useSyncRuns,
  useSyncs,
} from './syncs-api';

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

/** The toast of a write that failed, with the server's message. */
const failed = (title: string) => ({
  onError: (error: Error) =>
    toast({ title, description: serverMessage(error) ?? 'Please try again.', variant: 'destructive' }),
});

function SyncItem({ sync }: { sync: Sync }) {
  const [showHistory, setShowHistory] = useState(false);
  const runs = useRunSync(sync.id);
  const pause = useSetSyncPaused(sync.id);
  const remove = useDeleteSync(sync.id);
  const twoWay = sync.direction === 'two-way';
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
          {SERVICE_LABELS[sync.sourceService]} {twoWay ? '⇄' : '→'} {SERVICE_LABELS[sync.destinationService]}{' '}
          · {twoWay ? 'Two-way' : 'One-way'} · {SCHEDULE_LABELS[sync.schedule]} · removals{' '}
          {sync.removals ? 'on' : 'off'}
          {sync.paused ? ' · paused' : ''}
        </p>
        {twoWay ? <p className="text-sm text-slate-600">{TWO_WAY_CONFLICT_RULE}</p> : null}
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
        <Button
          size="sm"
          disabled={busy || sync.paused || runs.isPending}
          onClick={() => runs.mutate(false, failed('The sync could not run'))}
        >
          Run now
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={busy || sync.paused || runs.isPending}
          onClick={() => runs.mutate(true, failed('The preview could not start'))}
        >
          Preview
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={pause.isPending}
          onClick={() => pause.mutate(!sync.paused, failed('The sync could not be paused'))}
        >
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
            if (window.confirm('Delete this sync? The destination playlist stays as it is.'))
              remove.mutate(undefined, failed('The sync could not be deleted'));
          }}
        >
          Delete
        </Button>
      </div>
      {twoWay && sync.lastRun ? <AppleRemovals sync={sync} run={sync.lastRun} busy={busy} /> : null}
      {showHistory || sync.lastRun?.status === 'needs_confirmation' ? <SyncHistory sync={sync} /> : null}
    </article>
  );
}

/**
 * Two-way with Apple Music: removals Apple cannot apply, listed, with the offer to rebuild the Apple
 * playlist as a new one holding exactly what the sync holds.
 */
function AppleRemovals({ sync, run, busy }: { sync: Sync; run: SyncRun; busy: boolean }) {
  const rebuild = useRebuildSync(sync.id);
  const hasApple = sync.sourceService === 'apple' || sync.destinationService === 'apple';
  if (!hasApple || run.dryRun || run.listedRemovals.length === 0) return null;
  return (
    <section
      aria-label="Removals Apple Music cannot apply"
      className="grid gap-2 rounded border border-amber-200 bg-amber-50 p-3"
    >
      <p className="text-sm text-slate-800">
        {run.listedRemovals.length} song{run.listedRemovals.length === 1 ? ' was' : 's were'} removed on one
        side but stay{run.listedRemovals.length === 1 ? 's' : ''} in the other playlist: Apple Music playlists
        cannot have songs removed. Rebuild the Apple Music playlist as a new playlist that holds exactly what
        the sync holds; the sync keeps the new one in step, the old one stays as it is.
      </p>
      <TrackList label="Listed removals" tracks={run.listedRemovals} open />
      <div>
        <Button
          size="sm"
          disabled={busy || rebuild.isPending}
          onClick={() => rebuild.mutate(undefined, failed('The Apple Music playlist could not be rebuilt'))}
        >
          Rebuild the Apple Music playlist
        </Button>
      </div>
    </section>
  );
}

function TrackList({ label, tracks, open = false }: { label: string; tracks: SyncTrack[]; open?: boolean }) {
  if (tracks.length === 0) return null;
  return (
    <details className="text-sm" open={open}>
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
          <RunItem sync={sync} run={run} />
        </li>
      ))}
    </ol>
  );
}

function RunItem({ sync, run }: { sync: Sync; run: SyncRun }) {
  const confirm = useConfirmSyncRun(sync.id, run.id);
  const verb = run.dryRun || run.status === 'needs_confirmation' ? 'would be ' : '';
  const twoWay = sync.direction === 'two-way';
  const source = SERVICE_LABELS[sync.sourceService];
  const destination = SERVICE_LABELS[sync.destinationService];
  return (
    <div className="grid gap-1">
      <p className="text-sm font-medium text-slate-900">
        {new Date(run.createdAt).toLocaleString()} · {run.dryRun ? 'Preview' : 'Run'} ·{' '}
        {STATUS_LABELS[run.status]}
      </p>
      <p className="text-sm text-slate-700">
        {twoWay
          ? `${destination}: ${run.added.length} ${verb}added, ${run.removed.length} ${verb}removed · ${source}: ${run.addedToSource.length} ${verb}added, ${run.removedFromSource.length} ${verb}removed · ${run.unchanged} on both`
          : `${run.added.length} ${verb}added, ${run.removed.length} ${verb}removed, ${run.unchanged} already there`}
        {run.verifiedTracks !== null
          ? ` · verified: ${run.verifiedTracks} of ${run.added.length + run.addedToSource.length}`
          : ''}
      </p>
      {run.error ? <p className="text-sm text-red-800">{run.error}</p> : null}
      {!run.dryRun && run.status === 'succeeded' && (run.added.length > 0 || run.removed.length > 0) ? (
        <div>
          <UndoButton writer={{ syncId: sync.id, runId: run.id }} label="Undo this run" />
        </div>
      ) : null}
      {run.status === 'needs_confirmation' ? (
        <div>
          <Button
            size="sm"
            disabled={confirm.isPending}
            onClick={() => confirm.mutate(undefined, failed('The run could not be confirmed'))}
          >
            {twoWay ? 'Confirm and run' : 'Confirm the removals and run'}
          </Button>
        </div>
      ) : null}
      <TrackList
        label={`${run.dryRun ? 'Would add' : 'Added'}${twoWay ? ` to ${destination}` : ''}`}
        tracks={run.added}
      />
      <TrackList
        label={`${run.dryRun ? 'Would remove' : 'Removed'}${twoWay ? ` from ${destination}` : ''}`}
        tracks={run.removed}
      />
      <TrackList label={`${run.dryRun ? 'Would add' : 'Added'} to ${source}`} tracks={run.addedToSource} />
      <TrackList
        label={`${run.dryRun ? 'Would remove' : 'Removed'} from ${source}`}
        tracks={run.removedFromSource}
      />
      <TrackList
        label="Removed on one side, added on the other: kept (the add wins)"
        tracks={run.conflicts}
      />
      <TrackList
        label={
          twoWay ? 'Removed on one side, left in place on the other' : 'Gone from the source, left in place'
        }
        tracks={run.listedRemovals}
      />
      <TrackList label="Not added" tracks={run.notAdded} />
      <TrackList
        label="Still missing after verification"
        tracks={run.verificationMissing.map((item) => ({ ...item, reason: item.reason }))}
      />
    </div>
  );
}
