import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { afterCursor, cursorColumns, type KeysetCursor, toKeysetPage } from '../db/keyset';
import { jobs } from '../db/schema';
import { isUuid } from '../db/uuid';

/**
 * The SQL of the job queue (the `jobs` table). Every state change a worker makes is conditional on still holding the
 * lease (`locked_by`), so a worker that stalled past its lease can never overwrite the work of the one
 * that took over.
 */
export type JobRow = typeof jobs.$inferSelect;

import type { JobProgress } from '../db/stored-json';

export type { JobProgress };

/** How long a claimed job stays with its worker without a heartbeat (JOB_LEASE_SECONDS overrides it). */
export const LEASE_MS = 30_000;

export async function enqueueJob(
  db: Database,
  input: {
    kind: string;
    userId?: string | null;
    payload: unknown;
    dedupeKey?: string;
    runAfter?: Date;
    maxAttempts?: number;
  },
): Promise<JobRow> {
  const values = {
    kind: input.kind,
    userId: input.userId ?? null,
    payload: input.payload,
    dedupeKey: input.dedupeKey ?? null,
    runAfter: input.runAfter ?? new Date(),
    maxAttempts: input.maxAttempts ?? 5,
  };
  if (input.dedupeKey) {
    const [inserted] = await db
      .insert(jobs)
      .values(values)
      .onConflictDoNothing({ target: jobs.dedupeKey })
      .returning();
    if (inserted) return inserted;
    const [existing] = await db.select().from(jobs).where(eq(jobs.dedupeKey, input.dedupeKey));
    if (!existing) throw new Error('deduplicated job vanished');
    return existing;
  }
  const [row] = await db.insert(jobs).values(values).returning();
  if (!row) throw new Error('job insert returned no row');
  return row;
}

/** A job of this kind for this person that is queued or running, if any. */
export async function findActiveJob(
  db: Database,
  where: { userId: string; kind: string },
): Promise<Pick<JobRow, 'id'> | undefined> {
  const [row] = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.userId, where.userId),
        eq(jobs.kind, where.kind),
        inArray(jobs.status, ['queued', 'running']),
      ),
    )
    .limit(1);
  return row;
}

/** Which of these dedupe keys already name a job (whatever its status). */
export async function existingDedupeKeys(db: Database, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ key: jobs.dedupeKey })
    .from(jobs)
    .where(inArray(jobs.dedupeKey, [...keys]));
  return new Set(rows.flatMap((row) => (row.key === null ? [] : [row.key])));
}

/** A page of a person's jobs, oldest first, as the data download lists them. */
export async function listJobsOfUserPage(
  db: Database,
  userId: string,
  cursor: KeysetCursor | undefined,
  limit: number,
) {
  const rows = await db
    .select({
      id: jobs.id,
      kind: jobs.kind,
      status: jobs.status,
      createdAt: jobs.createdAt,
      finishedAt: jobs.finishedAt,
      ...cursorColumns(jobs.createdAt, jobs.id),
    })
    .from(jobs)
    .where(and(eq(jobs.userId, userId), afterCursor(jobs.createdAt, jobs.id, cursor)))
    .orderBy(asc(jobs.createdAt), asc(jobs.id))
    .limit(limit);
  return toKeysetPage(rows, limit);
}

/** Runs a finished job again from its last checkpoint, with a fresh count of attempts. */
export async function requeueFinishedJob(db: Database, id: string): Promise<void> {
  await db
    .update(jobs)
    .set({
      status: 'queued',
      attempts: 0,
      runAfter: new Date(),
      error: null,
      finishedAt: null,
      updatedAt: new Date(),
    })
    .where(eq(jobs.id, id));
}

/** The job with this id; undefined when there is none (or the id, say from a URL, cannot be one). */
export async function getJob(db: Database, id: string): Promise<JobRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
  return row;
}

/** Claims the next runnable job: queued and due, or running with an expired lease (its worker died). */
export async function claimNextJob(
  db: Database,
  workerId: string,
  kinds: string[],
  leaseMs = LEASE_MS,
): Promise<JobRow | undefined> {
  if (kinds.length === 0) return undefined;
  const kindList = sql.join(
    kinds.map((kind) => sql`${kind}`),
    sql`, `,
  );
  // Turns across people: of the runnable jobs, first those of people with no job running now, then of
  // the person the queue served least recently (their latest claim is oldest), then the oldest due.
  // One person's many jobs (or one long job requeued on every rate-limit wait) never hold back the
  // first job of someone else. Jobs of nobody (none so far) go as soon as they are due.
  const result = await db.execute(sql`
    update jobs set
      status = 'running',
      locked_by = ${workerId},
      locked_until = now() + (${leaseMs} * interval '1 millisecond'),
      attempts = attempts + 1,
      started_at = coalesce(started_at, now()),
      claimed_at = now(),
      updated_at = now()
    where id = (
      select candidate.id from jobs candidate
      where candidate.kind in (${kindList})
        and ((candidate.status = 'queued' and candidate.run_after <= now())
          or (candidate.status = 'running' and candidate.locked_until < now()))
      order by
        (select count(*) from jobs other
          where other.user_id = candidate.user_id
            and other.status = 'running' and other.locked_until >= now()),
        (select max(other.claimed_at) from jobs other
          where other.user_id = candidate.user_id) asc nulls first,
        candidate.run_after, candidate.created_at
      for update of candidate skip locked
      limit 1
    )
    returning id`);
  const id = (result as unknown as { rows: { id: string }[] }).rows[0]?.id;
  return id ? getJob(db, id) : undefined;
}

const heldBy = (id: string, workerId: string) => and(eq(jobs.id, id), eq(jobs.lockedBy, workerId));

/** Extends the lease; false when another worker has taken the job over. */
export async function renewLease(
  db: Database,
  id: string,
  workerId: string,
  leaseMs = LEASE_MS,
): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ lockedUntil: sql`now() + (${leaseMs} * interval '1 millisecond')`, updatedAt: new Date() })
    .where(and(heldBy(id, workerId), eq(jobs.status, 'running')))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

export async function saveCheckpoint(
  db: Database,
  id: string,
  workerId: string,
  change: { state?: unknown; progress?: JobProgress },
): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ ...change, updatedAt: new Date() })
    .where(and(heldBy(id, workerId), eq(jobs.status, 'running')))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

export async function finishJob(
  db: Database,
  id: string,
  workerId: string,
  outcome: { status: 'succeeded'; result: unknown } | { status: 'failed'; error: string },
) {
  await db
    .update(jobs)
    .set({
      status: outcome.status,
      result: outcome.status === 'succeeded' ? outcome.result : null,
      error: outcome.status === 'failed' ? outcome.error : null,
      lockedBy: null,
      lockedUntil: null,
      finishedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(heldBy(id, workerId));
}

/**
 * Puts a running job back in the queue until `runAfter` (a long rate-limit wait, or a retry after a
 * passing failure) so the worker can serve other people meanwhile. `countAttempt: false` for waits
 * the job did not cause, so they do not use up its retries.
 */
export async function requeueJob(
  db: Database,
  id: string,
  workerId: string,
  runAfter: Date,
  options: { countAttempt: boolean; error?: string; progress?: JobProgress },
) {
  await db
    .update(jobs)
    .set({
      status: 'queued',
      runAfter,
      lockedBy: null,
      lockedUntil: null,
      attempts: options.countAttempt ? sql`${jobs.attempts}` : sql`greatest(${jobs.attempts} - 1, 0)`,
      error: options.error ?? null,
      ...(options.progress ? { progress: options.progress } : {}),
      updatedAt: new Date(),
    })
    .where(heldBy(id, workerId));
}

/** Jobs waiting for a worker (queued and due) and jobs a worker holds: what a load balancer or operator watches. */
export interface JobBacklog {
  queued: number;
  running: number;
  /** Seconds the oldest due job has waited; 0 when none waits. With no worker running this only grows. */
  oldestQueuedSeconds: number;
}

export async function jobBacklog(db: Database): Promise<JobBacklog> {
  const result = await db.execute(sql`
    select
      count(*) filter (where status = 'queued' and run_after <= now()) as queued,
      count(*) filter (where status = 'running') as running,
      coalesce(extract(epoch from now() - min(run_after) filter (where status = 'queued' and run_after <= now())), 0)
        as oldest
    from jobs
    where status in ('queued', 'running')`);
  const row = (result as unknown as { rows: { queued: unknown; running: unknown; oldest: unknown }[] })
    .rows[0];
  return {
    queued: Number(row?.queued ?? 0),
    running: Number(row?.running ?? 0),
    oldestQueuedSeconds: Math.round(Number(row?.oldest ?? 0)),
  };
}
