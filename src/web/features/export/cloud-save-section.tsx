import { Cloud, ExternalLink, HardDrive } from 'lucide-react';
import { useId } from 'react';
import {
  CLOUD_DRIVES,
  CLOUD_TARGET_LABELS,
  type CloudDrive,
  type CloudDriveStatus,
  type CloudTarget,
  type ExportPlaylistRequest,
} from '../../../shared/api/export';
import { Button } from '../../components/ui/button';
import { toast } from '../../hooks/use-toast';
import { failureDescription } from '../../lib/failure-description';
import {
  EXPORT_PANEL_PATH,
  useCloudDrives,
  useCloudSave,
  useConnectDrive,
  useDisconnectDrive,
  useDriveFiles,
} from './export-api';
import { exportFailedToast, savedToast } from './export-toasts';
import { VaultNotice } from './vault-notice';

/**
 * Save to Cloud (spec section 2, Vault+): Crossfade's own storage and the person's Google Drive and Dropbox.
 * Each button works only when its save can: signed in, Vault+, a readable playlist chosen and, for a
 * drive, the drive connected; otherwise it is disabled and says why and what to do.
 */
export function CloudSaveSection({
  request,
  signedIn,
  isVault,
  onSaved,
}: {
  /** What the export button would download; undefined when nothing exportable is chosen. */
  request: Required<ExportPlaylistRequest> | undefined;
  signedIn: boolean;
  isVault: boolean;
  onSaved: () => void;
}) {
  const headingId = useId();
  const drives = useCloudDrives(signedIn);
  const save = useCloudSave();
  const run = (target: CloudTarget) => {
    if (!request) return;
    save.mutate(
      { ...request, target },
      {
        onSuccess: (saved) => {
          onSaved();
          savedToast(saved);
        },
        onError: exportFailedToast,
      },
    );
  };
  const blocked = !signedIn
    ? 'Sign in to save to the cloud.'
    : !isVault
      ? 'Save to Cloud needs Vault+.'
      : !request
        ? 'Choose a playlist you can export first.'
        : undefined;

  return (
    <section aria-labelledby={headingId} className="space-y-4 border-t border-slate-200 pt-5">
      <h3 id={headingId} className="flex items-center gap-2 font-semibold text-slate-900">
        <Cloud aria-hidden="true" className="h-4 w-4" /> Save to Cloud
      </h3>
      {signedIn && !isVault ? <VaultNotice what="Save to Cloud" /> : null}
      <SaveButton
        target="crossfade"
        blocked={blocked}
        pending={save.isPending}
        saving={save.variables?.target}
        onSave={run}
      />
      {CLOUD_DRIVES.map((drive) => (
        <DriveRow
          key={drive}
          drive={drive}
          status={drives.data?.find((status) => status.drive === drive)}
          loading={signedIn && drives.isPending}
          blocked={blocked}
          isVault={isVault}
          pending={save.isPending}
          saving={save.variables?.target}
          onSave={run}
        />
      ))}
    </section>
  );
}

function SaveButton({
  target,
  blocked,
  pending,
  saving,
  onSave,
}: {
  target: CloudTarget;
  blocked: string | undefined;
  pending: boolean;
  saving: CloudTarget | undefined;
  onSave: (target: CloudTarget) => void;
}) {
  const reasonId = useId();
  const label = CLOUD_TARGET_LABELS[target];
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button
        variant="outline"
        disabled={blocked !== undefined || pending}
        aria-describedby={blocked ? reasonId : undefined}
        onClick={() => onSave(target)}
      >
        <HardDrive aria-hidden="true" className="h-4 w-4" />
        {pending && saving === target ? `Saving to ${label}…` : `Save to ${label}`}
      </Button>
      {blocked ? (
        <span id={reasonId} className="text-sm text-slate-600">
          {blocked}
        </span>
      ) : null}
    </div>
  );
}

function DriveRow({
  drive,
  status,
  loading,
  blocked,
  isVault,
  pending,
  saving,
  onSave,
}: {
  drive: CloudDrive;
  status: CloudDriveStatus | undefined;
  loading: boolean;
  blocked: string | undefined;
  isVault: boolean;
  pending: boolean;
  saving: CloudTarget | undefined;
  onSave: (target: CloudTarget) => void;
}) {
  const label = CLOUD_TARGET_LABELS[drive];
  const connect = useConnectDrive();
  const disconnect = useDisconnectDrive();
  const connected = status?.connected === true;
  const notConnected = loading ? `Checking ${label}…` : `Connect ${label} first.`;
  const failed = (what: string) => (error: unknown) =>
    toast({
      title: `${what} failed`,
      description: failureDescription('Please try again.', error),
      variant: 'destructive',
    });

  return (
    <div className="space-y-2 rounded-lg border border-slate-200 p-3" data-testid={`drive-${drive}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-800">
          <span className="font-semibold">{label}</span>
          {connected ? ` · Connected as ${status?.accountName ?? 'your account'}` : ' · Not connected'}
          {status?.sandbox ? <span className="text-slate-500"> (sandbox)</span> : null}
        </p>
        {connected ? (
          <div className="flex flex-wrap gap-2">
            {status?.webUrl ? (
              <a
                href={status.webUrl}
                target="_blank"
                rel="noreferrer"
                className="inline-flex items-center gap-1 text-sm font-semibold text-violet-700 underline-offset-4 hover:underline"
              >
                Open {label} <ExternalLink aria-hidden="true" className="h-3.5 w-3.5" />
              </a>
            ) : null}
            <Button
              variant="ghost"
              size="sm"
              disabled={disconnect.isPending}
              onClick={() => disconnect.mutate(drive, { onError: failed(`Disconnecting ${label}`) })}
            >
              Disconnect
            </Button>
          </div>
        ) : isVault ? (
          <Button
            variant="secondary"
            size="sm"
            disabled={connect.isPending || loading}
            onClick={() =>
              connect.mutate(
                { drive, returnTo: EXPORT_PANEL_PATH },
                { onError: failed(`Connecting ${label}`) },
              )
            }
          >
            {connect.isPending ? `Opening ${label}…` : `Connect ${label}`}
          </Button>
        ) : null}
      </div>
      <SaveButton
        target={drive}
        blocked={blocked ?? (connected ? undefined : notConnected)}
        pending={pending}
        saving={saving}
        onSave={onSave}
      />
      {connected && isVault ? <RecentFiles drive={drive} /> : null}
    </div>
  );
}

function RecentFiles({ drive }: { drive: CloudDrive }) {
  const files = useDriveFiles(drive, true);
  if (files.isPending || files.isError || !files.data?.length) return null;
  return (
    <details className="text-sm text-slate-700">
      <summary className="cursor-pointer">
        Saved there by Crossfade ({files.data.length}
        {files.data.length === 100 ? '+' : ''})
      </summary>
      <ul className="mt-1 space-y-0.5">
        {files.data.slice(0, 10).map((file) => (
          <li key={file.id}>
            {file.webUrl ? (
              <a href={file.webUrl} target="_blank" rel="noreferrer" className="underline underline-offset-2">
                {file.name}
              </a>
            ) : (
              file.name
            )}{' '}
            <span className="text-slate-500">
              {file.createdAt ? new Date(file.createdAt).toLocaleDateString() : ''}
            </span>
          </li>
        ))}
      </ul>
    </details>
  );
}
