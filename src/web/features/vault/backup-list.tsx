import { ChevronDown, ChevronRight, Download } from 'lucide-react';
import { useId, useState } from 'react';
import { useLocation } from 'wouter';
import type { BackupPlaylist, BackupSummary } from '../../../shared/api/vault';
import { SERVICE_LABELS, type ServiceId } from '../../../shared/services';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../hooks/use-toast';
import { serverMessage } from '../../lib/api-client';
import { track } from '../../lib/track';
import { HistoryLink } from '../history';
import { openInWizard } from '../transfer';
import { useBackupDetail, useBackups, useRestoreFromBackup } from './vault-api';

const SERVICES: ServiceId[] = ['spotify', 'apple'];

const formatDateTime = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });

export function BackupList() {
  const backups = useBackups(true);
  if (backups.isPending) return <Spinner label="Loading your backups" />;
  if (backups.isError) {
    return (
      <p role="alert" className="text-sm text-red-800">
        {serverMessage(backups.error) ?? 'Your backups could not be loaded. Please reload the page.'}
      </p>
    );
  }
  if (backups.data.length === 0) {
    return (
      <p className="text-sm text-slate-600">
        No backups yet. The first daily backup runs within the hour, or choose "Back up now".
      </p>
    );
  }
  return (
    <ul className="grid gap-4" aria-label="Backups">
      {backups.data.map((backup) => (
        <li key={backup.id}>
          <BackupCard backup={backup} />
        </li>
      ))}
    </ul>
  );
}

function BackupCard({ backup }: { backup: BackupSummary }) {
  const [open, setOpen] = useState(false);
  const contentsId = useId();
  const title = `${SERVICE_LABELS[backup.service]} backup, ${formatDateTime(backup.createdAt)}`;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h3">{title}</CardTitle>
        <p className="text-sm text-slate-600">
          {backup.playlistCount} playlist{backup.playlistCount === 1 ? '' : 's'} · {backup.trackCount} track
          {backup.trackCount === 1 ? '' : 's'} ·{' '}
          {backup.trigger === 'scheduled' ? 'Daily backup' : 'Backed up by you'}
        </p>
        <div className="flex flex-wrap gap-2">
          <a
            href={`/api/vault/backups/${encodeURIComponent(backup.id)}/download`}
            download
            className={buttonClasses('outline', 'sm')}
            aria-label={`Download ${title}`}
          >
            <Download aria-hidden="true" className="h-4 w-4" />
            Download
          </a>
          <Button
            variant="outline"
            size="sm"
            aria-expanded={open}
            aria-controls={contentsId}
            onClick={() => setOpen((value) => !value)}
          >
            {open ? (
              <ChevronDown aria-hidden="true" className="h-4 w-4" />
            ) : (
              <ChevronRight aria-hidden="true" className="h-4 w-4" />
            )}
            {open ? 'Hide playlists' : 'Show playlists'}
          </Button>
        </div>
      </CardHeader>
      {open ? (
        <CardContent id={contentsId}>
          <BackupContents backupId={backup.id} />
        </CardContent>
      ) : null}
    </Card>
  );
}

function BackupContents({ backupId }: { backupId: string }) {
  const detail = useBackupDetail(backupId, true);
  if (detail.isPending) return <Spinner label="Loading the backup" />;
  if (detail.isError) {
    return <p className="text-sm text-red-800">This backup could not be loaded. Please try again.</p>;
  }
  return (
    <div className="grid gap-3">
      {detail.data.playlists.length === 0 ? (
        <p className="text-sm text-slate-600">No playlists in this backup.</p>
      ) : null}
      <ul className="grid gap-3">
        {detail.data.playlists.map((playlist) => (
          <li key={playlist.id}>
            <PlaylistEntry backupId={backupId} playlist={playlist} service={detail.data.service} />
          </li>
        ))}
      </ul>
      {detail.data.unreadable.length > 0 ? (
        <div className="text-sm text-slate-700">
          <p className="font-medium">Not backed up</p>
          <ul className="list-disc pl-5">
            {detail.data.unreadable.map((playlist) => (
              <li key={playlist.id}>
                {playlist.name}: {playlist.reason}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

function PlaylistEntry({
  backupId,
  playlist,
  service: backedUpFrom,
}: {
  backupId: string;
  playlist: BackupPlaylist;
  service: ServiceId;
}) {
  const [, navigate] = useLocation();
  const restore = useRestoreFromBackup(backupId);
  const restoreTo = (destinationService: ServiceId) =>
    restore.mutate(
      { playlistId: playlist.id, destinationService },
      {
        onSuccess: (restored) => {
          track('feature_used', { feature: 'backup_restore' });
          openInWizard(restored, navigate);
        },
        onError: (error) =>
          toast({
            title: 'The playlist could not be restored',
            description: serverMessage(error) ?? 'Please try again.',
            variant: 'destructive',
          }),
      },
    );
  return (
    <details className="rounded-lg border border-slate-200 p-3">
      <summary className="cursor-pointer font-medium text-slate-900">
        {playlist.name}{' '}
        <span className="font-normal text-slate-600">
          ({playlist.tracks.length} track{playlist.tracks.length === 1 ? '' : 's'})
        </span>
      </summary>
      <div className="mt-3 grid gap-3">
        <div className="flex flex-wrap gap-2">
          {SERVICES.map((service) => (
            <Button
              key={service}
              size="sm"
              variant="secondary"
              disabled={restore.isPending || playlist.tracks.length === 0}
              onClick={() => restoreTo(service)}
              aria-label={`Restore ${playlist.name} to ${SERVICE_LABELS[service]}`}
            >
              Restore to {SERVICE_LABELS[service]}
            </Button>
          ))}
          <HistoryLink service={backedUpFrom} playlistId={playlist.id} name={playlist.name} />
        </div>
        {playlist.skippedEntries > 0 ? (
          <p className="text-xs text-slate-600">
            {playlist.skippedEntries} entr{playlist.skippedEntries === 1 ? 'y was' : 'ies were'} not a catalog
            track (local files, podcast episodes or unavailable songs) and could not be kept.
          </p>
        ) : null}
        <ol className="max-h-80 list-decimal overflow-y-auto pl-6 text-sm text-slate-800">
          {playlist.tracks.map((track, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a playlist can hold a track twice; this list never reorders.
            <li key={`${track.id}-${index}`}>
              {track.name} <span className="text-slate-600">— {track.artists.join(', ')}</span>
            </li>
          ))}
        </ol>
      </div>
    </details>
  );
}
