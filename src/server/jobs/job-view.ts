import type { JobView } from '../../shared/api/transfer';
import type { Database } from '../db/client';
import { getJob, type JobRow } from './job-queue';

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);
export const isTerminal = (job: JobRow) => TERMINAL.has(job.status);

/** What the person sees of a job, with an ETA from the pace so far. */
export function toJobView(job: JobRow, now = Date.now()): JobView {
  const progress = job.progress ?? null;
  let etaSeconds: number | null = null;
  if (progress && progress.done > 0 && progress.total > progress.done && !isTerminal(job)) {
    const elapsed = (now - job.createdAt.getTime()) / 1000;
    etaSeconds = Math.max(1, Math.round((elapsed / progress.done) * (progress.total - progress.done)));
  }
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
