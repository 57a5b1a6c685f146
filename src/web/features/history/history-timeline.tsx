import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { HistoryTrack, HistoryVersion, RestoreStarted } from '../../../shared/api/history';
import type { ServiceId } from '../../../shared/services';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { serverMessage } from '../../lib/api-client';
import { historyQuery, useRestoreStatus, useRestoreVersion } from './history-api';

const CAUSES: Record<HistoryVersion['cause'], string> = {
  transfer: 'Crossfade (a transfer)',
  sync: 'Crossfade (a sync)',
  restore: 'Crossfade (a restore or undo)',
  backup: 'Crossfade (a backup)',
  outside: 'Changed in the service itself',
};

const trackLabel = (track: HistoryTrack) => `${track.name} — ${track.artists.join(', ')}`;

/** Keys for a list that may hold one track twice: its URI and which occurrence it is. */
function withKeys(tracks: HistoryTrack[]) {
  const seen = new Map<string, number>();
  return tracks.map((track) => {
    const count = seen.get(track.uri) ?? 0;
    seen.set(track.uri, count + 1);
    return { key: `${track.uri}#${count}`, track };
  });
}

function Changes({ label, tracks }: { label: string; tracks: HistoryTrack[] }) {
  if (tracks.length === 0) return null;
  return (
    <div>
      <p className="text-xs font-medium text-slate-600">
        {label} ({tracks.length})
      </p>
      <ul className="ml-4 list-disc text-sm break-words">
        {withKeys(tracks.slice(0, 20)).map(({ key, track }) => (
          <li key={key}>{trackLabel(track)}</li>
        ))}
        {tracks.length > 20 ? <li>… and {tracks.length - 20} more</li> : null}
      </ul>
    </div>
  );
}

/** A restore under way: its progress, then "verified N of N". */
export function RestoreProgress({ jobId }: { jobId: string }) {
  const { job, result } = useRestoreStatus(jobId);
  if (!job) return <Spinner label="Starting the restore" />;
  if (job.status === 'failed') return <Alert variant="destructive">The restore stopped: {job.error}</Alert>;
  if (result)
    return (
      <p role="status" className="text-sm text-emerald-800">
        Restored: verified {result.verified} of {result.total}.
      </p>
    );
  return <Spinner label={job.progress?.message ?? 'Restoring…'} />;
}

function RestoreButton({
  service,
  playlistId,
  version,
}: {
  service: ServiceId;
  playlistId: string;
  version: HistoryVersion;
}) {
  const preview = useRestoreVersion(service, playlistId);
  const restore = useRestoreVersion(service, playlistId);
  const [shown, setShown] = useState<RestoreStarted | null>(null);
  const plan = shown?.plan;
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          size="sm"
          disabled={preview.isPending}
          onClick={() => preview.mutate({ versionId: version.id, dryRun: true }, { onSuccess: setShown })}
        >
          Preview restore
        </Button>
        {plan ? (
          <Button
            size="sm"
            disabled={restore.isPending || restore.isSuccess}
            onClick={() => restore.mutate({ versionId: version.id, dryRun: false })}
          >
            Restore this version
          </Button>
        ) : null}
      </div>
      {preview.error ? <Alert variant="destructive">{serverMessage(preview.error)}</Alert> : null}
      {restore.error ? <Alert variant="destructive">{serverMessage(restore.error)}</Alert> : null}
      {plan ? (
        <div className="grid gap-1 rounded-md bg-slate-50 p-2 text-sm">
          <p>
            Afterwards the playlist holds {plan.trackCount} tracks
            {plan.newPlaylistName ? `, in a new playlist "${plan.newPlaylistName}"` : ''}.
          </p>
          {plan.why ? <p className="text-slate-600">{plan.why}</p> : null}
          <Changes label="Put back" tracks={plan.added} />
          <Changes label="Taken out" tracks={plan.removed} />
        </div>
      ) : null}
      {restore.data?.jobId ? <RestoreProgress jobId={restore.data.jobId} /> : null}
    </div>
  );
}

/** The versions of one playlist, newest first, each with its changes and a restore (Vault+). */
export function HistoryTimeline({
  service,
  playlistId,
  canRestore,
}: {
  service: ServiceId;
  playlistId: string;
  canRestore: boolean;
}) {
  const history = useInfiniteQuery(historyQuery(service, playlistId));
  if (history.isPending) return <Spinner label="Loading the history" />;
  if (history.isError) return <Alert variant="destructive">{serverMessage(history.error)}</Alert>;
  const versions = history.data.pages.flatMap((page) => page.versions);
  const hidden = history.data.pages.at(-1)?.olderHidden ?? false;
  return (
    <div className="grid gap-4">
      <h2 className="text-lg font-semibold break-words">{history.data.pages[0]?.name}</h2>
      <ol className="grid gap-3" aria-label="Versions, newest first">
        {versions.map((version) => (
          <li key={version.id} className="grid gap-2 rounded-lg border border-slate-200 p-3">
            <p className="text-sm">
              <time dateTime={version.at}>{new Date(version.at).toLocaleString()}</time> ·{' '}
              {CAUSES[version.cause]} · {version.trackCount} tracks
            </p>
            <Changes label="Added" tracks={version.added} />
            <Changes label="Removed" tracks={version.removed} />
            <Changes label="No longer available" tracks={version.becameUnavailable} />
            {canRestore ? (
              <RestoreButton service={service} playlistId={playlistId} version={version} />
            ) : null}
          </li>
        ))}
      </ol>
      {history.hasNextPage ? (
        <Button
          variant="outline"
          disabled={history.isFetchingNextPage}
          onClick={() => void history.fetchNextPage()}
        >
          Show older versions
        </Button>
      ) : null}
      {hidden ? (
        <p className="text-sm text-slate-600">
          Older versions are kept with Vault+, which also restores them.
        </p>
      ) : null}
    </div>
  );
}
