import {
  CLOUD_TARGET_LABELS,
  type CloudSave,
  EXPORT_COMPLETE_TITLE,
  EXPORT_FAILED_MESSAGE,
  EXPORT_FAILED_TITLE,
  NO_DATA_MESSAGE,
} from '../../../shared/api/export';
import { toast } from '../../hooks/use-toast';
import { serverMessage } from '../../lib/api-client';
import { failureDescription } from '../../lib/failure-description';

/**
 * The export panel's toasts (spec section 9): "Export Complete", "No data to export", and "Export Failed" /
 * "There was a problem exporting your playlist" with the server's reason on a second line.
 */

const EMPTY_HINT = 'Choose a playlist with at least one track.';

export const noDataToast = () =>
  toast({ title: NO_DATA_MESSAGE, description: EMPTY_HINT, variant: 'destructive' });

export function exportFailedToast(error: unknown) {
  if (serverMessage(error) === NO_DATA_MESSAGE) {
    noDataToast();
    return;
  }
  toast({
    title: EXPORT_FAILED_TITLE,
    description: failureDescription(EXPORT_FAILED_MESSAGE, error),
    variant: 'destructive',
  });
}

export const downloadedToast = (fileName: string) =>
  toast({ title: EXPORT_COMPLETE_TITLE, description: `Downloaded ${fileName}` });

export function savedToast(saved: CloudSave) {
  toast({
    title: EXPORT_COMPLETE_TITLE,
    description: (
      <>
        <span className="block">
          Saved {saved.fileName} to{' '}
          {saved.target === 'crossfade' ? CLOUD_TARGET_LABELS.crossfade : saved.location}.
        </span>
        {saved.webUrl ? (
          <a
            href={saved.webUrl}
            target="_blank"
            rel="noreferrer"
            className="font-semibold underline underline-offset-2"
          >
            Open in {CLOUD_TARGET_LABELS[saved.target]}
          </a>
        ) : null}
      </>
    ),
  });
}
