import type { JobProgress } from '../../../shared/api/transfer';

/** "About 12 s left" / "About 3 min left"; nothing until the server can estimate. */
export function formatEta(etaSeconds: number | null): string | null {
  if (etaSeconds === null || !Number.isFinite(etaSeconds) || etaSeconds < 0) return null;
  if (etaSeconds < 60) return `About ${Math.max(1, Math.round(etaSeconds))} s left`;
  const minutes = Math.round(etaSeconds / 60);
  if (minutes < 60) return `About ${minutes} min left`;
  const hours = Math.floor(minutes / 60);
  return `About ${hours} h ${minutes % 60} min left`;
}

/** Whole seconds until a rate-limit wait ends, or null when there is no wait (or it is over). */
export function rateLimitWaitSeconds(progress: JobProgress | null, now: number): number | null {
  if (!progress?.waitingUntil) return null;
  const until = Date.parse(progress.waitingUntil);
  if (Number.isNaN(until) || until <= now) return null;
  return Math.ceil((until - now) / 1000);
}

/** Percent done, 0-100, for the progress bar; 0 while the total is unknown. */
export function percentDone(progress: JobProgress | null): number {
  if (!progress || progress.total <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((progress.done / progress.total) * 100)));
}
