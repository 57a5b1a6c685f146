import { Download } from 'lucide-react';
import type { BatchPlaylist, BatchProgress, BatchView } from '../../../shared/api/batches';
import { batchCsvUrl, transferCsvUrl } from './batches-api';

const STATUS_LABELS: Record<BatchPlaylist['status'], string> = {
  waiting: 'Waiting',
  matching: 'Matching',
  matched: 'Matched',
  transferring: 'Moving',
  done: 'Done',
  failed: 'Failed',
};

function eta(progress: BatchProgress) {
  if (progress.etaSeconds === null) return null;
  const seconds = progress.etaSeconds;
  return seconds < 60 ? `about ${seconds} s left` : `about ${Math.ceil(seconds / 60)} min left`;
}

function Bar({ label, progress }: { label: string; progress: BatchProgress }) {
  const left = eta(progress);
  return (
    <div className="grid gap-1">
      <progress
        aria-label={label}
        className="h-2 w-full accent-violet-700"
        max={Math.max(1, progress.total)}
        value={progress.done}
      />
      <p className="text-xs text-slate-600">
        {progress.done} of {progress.total} tracks{left ? ` · ${left}` : ''}
      </p>
    </div>
  );
}

/** The overall bar and one bar per playlist, with the counts and, once moved, the verified result. */
export function BatchProgressList({ batch }: { batch: BatchView }) {
  return (
    <div className="grid gap-4">
      <Bar label="Overall progress" progress={batch.progress} />
      <ul className="grid gap-3" aria-label="Playlists in this batch">
        {batch.playlists.map((item) => (
          <li key={item.matchSetId} className="grid gap-2 rounded-lg border border-slate-200 p-3">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <span className="font-medium text-slate-900">{item.name}</span>
              <span className="text-sm text-slate-700" data-testid="batch-playlist-status">
                {STATUS_LABELS[item.status]}
              </span>
            </div>
            <Bar label={`Progress of ${item.name}`} progress={item.progress} />
            <p className="text-sm text-slate-600">
              {item.counts.matched} matched · {item.counts.inReview} in review · {item.counts.unmatched} not
              matched · {item.counts.added} added
              {item.counts.verified !== null
                ? ` · verified: ${item.counts.verified} of ${item.counts.added}`
                : ''}
            </p>
            {item.savedTo && item.status === 'done' ? (
              <p className="text-sm font-medium text-slate-900">{item.savedTo}.</p>
            ) : null}
            {item.destinationUrl && item.status === 'done' ? (
              <a
                className="text-sm text-violet-700 underline"
                href={item.destinationUrl}
                target="_blank"
                rel="noreferrer"
              >
                Open {item.name}
              </a>
            ) : null}
            {item.verificationMissing.length > 0 ? (
              <ul className="text-sm text-slate-700">
                {item.verificationMissing.map((missing) => (
                  <li key={`${missing.position}`}>
                    Still missing: {missing.name} ({missing.reason})
                  </li>
                ))}
              </ul>
            ) : null}
            {item.status === 'done' ? <NotMoved item={item} /> : null}
            {item.status === 'done' && item.transferId ? (
              <a className={LINK} href={transferCsvUrl(item.transferId)} download>
                <Download aria-hidden="true" className="h-4 w-4" />
                CSV of {item.name}
              </a>
            ) : null}
            {item.error ? <p className="text-sm text-red-700">{item.error}</p> : null}
          </li>
        ))}
      </ul>
      {batch.playlists.some((item) => item.status === 'done') ? (
        <a className={LINK} href={batchCsvUrl(batch.batchId)} download>
          <Download aria-hidden="true" className="h-4 w-4" />
          One CSV for the whole batch
        </a>
      ) : null}
    </div>
  );
}

const LINK = 'inline-flex items-center gap-1 text-sm text-violet-700 underline';

/** Issue 23: what a moved playlist did not add, each with the reason (as step 4 lists them). */
function NotMoved({ item }: { item: BatchPlaylist }) {
  if (item.notFound.length === 0) return null;
  return (
    <details className="text-sm text-slate-700" open>
      <summary className="cursor-pointer font-medium text-slate-900">
        Not moved ({item.notFound.length})
      </summary>
      <ul className="mt-1 grid gap-1" aria-label={`Not moved from ${item.name}`}>
        {item.notFound.map((entry) => (
          <li key={entry.position}>
            {entry.name}
            {entry.artists.length > 0 ? ` — ${entry.artists.join(', ')}` : ''}: {entry.reason}
          </li>
        ))}
      </ul>
    </details>
  );
}
