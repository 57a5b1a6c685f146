import { type QueryKey, queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type JobView, jobViewSchema } from '../../shared/api/transfer';
import { request } from './api-client';
import { queryClient } from './query-client';

/**
 * The one way a page follows a durable job's progress: the job's server-sent events
 * (`GET /api/jobs/{id}/events`), with `GET /api/jobs/{id}` for the state when the page opens.
 */
const TERMINAL: readonly JobView['status'][] = ['succeeded', 'failed', 'cancelled'];
export const isJobFinished = (job: JobView | undefined | null) =>
  job !== undefined && job !== null && TERMINAL.includes(job.status);

export const jobKey = (jobId: string) => ['jobs', jobId] as const;

export const jobQuery = (jobId: string) =>
  queryOptions({
    queryKey: jobKey(jobId),
    queryFn: ({ signal }) =>
      request(jobViewSchema, 'GET', `/api/jobs/${encodeURIComponent(jobId)}`, undefined, { signal }),
  });

/**
 * Follows a job's server-sent events until it ends. EventSource reconnects by itself when a stream
 * closes, so the stream is closed here on the terminal event; a stream that breaks before one resolves
 * with the last view seen (the caller then asks for the result itself).
 */
export function watchJob(
  jobId: string,
  onView: (view: JobView) => void,
  signal?: AbortSignal,
): Promise<JobView | null> {
  return new Promise((resolve) => {
    let last: JobView | null = null;
    const source = new EventSource(`/api/jobs/${encodeURIComponent(jobId)}/events`, {
      withCredentials: true,
    });
    const finish = () => {
      source.close();
      signal?.removeEventListener('abort', finish);
      resolve(last);
    };
    signal?.addEventListener('abort', finish);
    source.onmessage = (event: MessageEvent<string>) => {
      let parsed: ReturnType<typeof jobViewSchema.safeParse>;
      try {
        parsed = jobViewSchema.safeParse(JSON.parse(event.data));
      } catch {
        return;
      }
      if (!parsed.success) return;
      last = parsed.data;
      onView(parsed.data);
      if (TERMINAL.includes(parsed.data.status)) finish();
    };
    source.onerror = finish;
  });
}

/**
 * A job's progress as a query: read once, then kept current by its events. When the stream breaks before
 * the end, the job is read again (and followed again, while the component stays).
 */
export function useJobProgress(jobId: string | null) {
  const job = useQuery({ ...jobQuery(jobId ?? ''), enabled: jobId !== null });
  const finished = isJobFinished(job.data);
  useEffect(() => {
    if (jobId === null || finished) return;
    const stop = new AbortController();
    void watchJob(jobId, (view) => queryClient.setQueryData(jobKey(jobId), view), stop.signal).then(
      (last) => {
        if (!stop.signal.aborted && !isJobFinished(last)) {
          void queryClient.invalidateQueries({ queryKey: jobKey(jobId) });
        }
      },
    );
    return () => stop.abort();
  }, [jobId, finished]);
  return job;
}

/** At most one read of a view per this many ms while its jobs send events (they write a few times a second). */
const VIEW_REFRESH_MS = 1_000;

/**
 * A view that shows jobs' progress (a batch, syncs and their runs) kept current by those jobs' events,
 * the same way as every other job: while the jobs `jobIds` run, each event reads the view `queryKey`
 * again (at most once per VIEW_REFRESH_MS), and its end too. A stream that breaks before its job ends
 * is followed again after a pause.
 */
export function useViewFollowingJobs(queryKey: QueryKey, jobIds: readonly string[]): void {
  const jobs = jobIds.join(',');
  const key = JSON.stringify(queryKey);
  useEffect(() => {
    if (jobs === '') return;
    const viewKey = JSON.parse(key) as QueryKey;
    const stop = new AbortController();
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const later = (work: () => void, ms: number) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!stop.signal.aborted) work();
      }, ms);
      timers.add(timer);
    };
    let lastRead = 0;
    let readPending = false;
    const readView = () => {
      lastRead = Date.now();
      void queryClient.invalidateQueries({ queryKey: viewKey });
    };
    const onEvent = () => {
      if (readPending) return;
      const wait = lastRead + VIEW_REFRESH_MS - Date.now();
      if (wait <= 0) return readView();
      readPending = true;
      later(() => {
        readPending = false;
        readView();
      }, wait);
    };
    // After its job's end, the view is read until it no longer lists the job as running (this hook is
    // then called without it): the view's own row may be written a moment after the job's.
    let settling = false;
    const settle = () => {
      if (settling) return;
      settling = true;
      const read = () => {
        readView();
        later(read, VIEW_REFRESH_MS);
      };
      read();
    };
    const follow = (jobId: string) =>
      void watchJob(jobId, onEvent, stop.signal).then((last) => {
        if (stop.signal.aborted) return;
        if (isJobFinished(last)) return settle();
        readView();
        later(() => follow(jobId), VIEW_REFRESH_MS);
      });
    for (const jobId of jobs.split(',')) follow(jobId);
    return () => {
      stop.abort();
      for (const timer of timers) clearTimeout(timer);
    };
  }, [jobs, key]);
}
