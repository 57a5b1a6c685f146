import type { JobView } from '../../shared/api/transfer';
import type { Database } from '../db/client';
import { getJob, type JobProgress, type JobRow } from './job-store';

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);
export const isTerminal = (job: JobRow) => TERMINAL.has(job.status);

/**
 * An estimate needs this share of the phase done: the first few tracks (cache hits, a warm connection)
 * say little about the pace of the rest.
 */
const MIN_SHARE_FOR_ETA = 0.01;

/**
 * Seconds left at the pace of the phase under way: measured from when it began in this run (a resumed
 * run, a long source read or a queue wait would otherwise skew it), null until there is enough to tell.
 */
export function estimateSecondsLeft(progress: JobProgress, createdAt: Date, now: number): number | null {
  const startedAt = progress.phaseStartedAt ? Date.parse(progress.phaseStartedAt) : createdAt.getTime();
  const doneInPhase = progress.done - (progress.phaseStartDone ?? 0);
  const left = progress.total - progress.done;
  const elapsed = (now - startedAt) / 1000;
  if (left <= 0 || doneInPhase <= 0 || !Number.isFinite(startedAt) || elapsed <= 0) return null;
  if (doneInPhase < Math.max(1, progress.total * MIN_SHARE_FOR_ETA)) return null;
  return Math.max(1, Math.round((elapsed / doneInPhase) * left));
}

/** What the person sees of a job, with an ETA from the pace so far. */
export function toJobView(job: JobRow, now = Date.now()): JobView {
  const progress = job.progress ?? null;
  const etaSeconds = progress && !isTerminal(job) ? estimateSecondsLeft(progress, job.createdAt, now) : null;
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    progress,
    error: job.error,
    etaSeconds,
    createdAt: job.createdAt.toISOString(),
    finishedAt: job.finishedAt?.toISOString() ?? null,
  };
}

/** Waits a little for quick jobs, so small playlists get their answer in the same request. */
export async function waitForJob(
  db: Database,
  jobId: string,
  timeoutMs: number,
): Promise<JobRow | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await getJob(db, jobId);
    if (!job || isTerminal(job) || Date.now() >= deadline) return job;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
