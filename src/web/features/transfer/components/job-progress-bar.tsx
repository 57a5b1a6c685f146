import { useEffect, useState } from 'react';
import type { JobView } from '../../../../shared/api/transfer';
import { formatEta, percentDone, rateLimitWaitSeconds } from '../job-progress';

/** Progress of a background job with its ETA; the text is a polite live region for screen readers. */
export function JobProgressBar({
  label,
  view,
  waitingFor,
}: {
  label: string;
  view: JobView | null;
  /** Whose rate limit a wait is for, e.g. "Spotify". */
  waitingFor: string;
}) {
  const [now, setNow] = useState(() => Date.now());
  const waitingUntil = view?.progress?.waitingUntil;
  useEffect(() => {
    if (!waitingUntil) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [waitingUntil]);

  const progress = view?.progress ?? null;
  const percent = percentDone(progress);
  const wait = rateLimitWaitSeconds(progress, now);
  const eta = formatEta(view?.etaSeconds ?? null);
  const counts = progress && progress.total > 0 ? `${progress.done} of ${progress.total}` : null;
  const detail =
    wait !== null
      ? `Waiting for ${waitingFor}'s rate limit (${wait} s)`
      : [progress?.message, counts, eta].filter(Boolean).join(' · ');

  return (
    <div className="grid gap-2 rounded-xl border border-slate-200 bg-white p-4">
      <div className="flex items-center justify-between gap-3 text-sm">
        <span className="font-medium text-slate-900">{label}</span>
        <span className="text-slate-700">{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={detail === '' ? `${percent}%` : `${percent}%, ${detail}`}
        className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className="h-full rounded-full bg-violet-700 transition-[width]"
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className="min-h-5 text-sm text-slate-700" aria-live="polite">
        {detail === '' ? 'Starting…' : detail}
      </p>
    </div>
  );
}
