import { and, desc, eq, inArray } from 'drizzle-orm';
import type { CreateSyncRequest, Sync, SyncRun } from '../../shared/api/syncs';
import type { AppDeps } from '../app-context';
import type { Database } from '../db/client';
import { syncRuns, syncs, users } from '../db/schema';
import { isUuid } from '../db/uuid';
import { badRequest, conflict, notFound } from '../domain-errors';
import { enqueue } from '../jobs/define-job';
import { nextRunAfter } from './sync-interval';
import { syncRunJob } from './sync-run-job';

/**
 * The SQL of syncs (issue 14, item 4; decision 0017): storing one, its runs (each queued with its job in
 * one transaction), pause, resume and delete. Creating one reads the playlists first: sync-service.ts.
 * The plan check (Pro) is the route's; every function here answers only the person's own syncs.
 */

type SyncRecord = typeof syncs.$inferSelect;
type SyncRunRecord = typeof syncRuns.$inferSelect;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toSyncRunView(run: SyncRunRecord): SyncRun {
  return {
    id: run.id,
    syncId: run.syncId,
    dryRun: run.dryRun,
    trigger: run.trigger,
    status: run.status,
    rebuild: run.rebuild,
    added: run.added,
    removed: run.removed,
    listedRemovals: run.listedRemovals,
    notAdded: run.notAdded,
    unchanged: run.unchanged,
    verifiedTracks: run.verifiedTracks,
    verificationMissing: run.verificationMissing,
    addedToSource: run.addedToSource,
    removedFromSource: run.removedFromSource,
    conflicts: run.conflicts,
    error: run.error,
    jobId: run.jobId,
    createdAt: run.createdAt.toISOString(),
    completedAt: iso(run.completedAt),
  };
}

export function toSyncView(sync: SyncRecord, lastRun: SyncRunRecord | undefined): Sync {
  return {
    id: sync.id,
    sourceService: sync.sourceService,
    sourcePlaylistId: sync.sourcePlaylistId,
    sourcePlaylistName: sync.sourcePlaylistName,
    destinationService: sync.destinationService,
    destinationPlaylistId: sync.destinationPlaylistId,
    destinationUrl: sync.destinationUrl,
    schedule: sync.schedule,
    removals: sync.removals,
    direction: sync.direction,
    paused: sync.paused,
    nextRunAt: sync.paused ? null : iso(sync.nextRunAt),
    lastRun: lastRun ? toSyncRunView(lastRun) : null,
    createdAt: sync.createdAt.toISOString(),
  };
}

async function ownSync(db: Database, userId: string, syncId: string): Promise<SyncRecord> {
  const [sync] = isUuid(syncId)
    ? await db
        .select()
        .from(syncs)
        .where(and(eq(syncs.id, syncId), eq(syncs.userId, userId)))
    : [];
  if (!sync) throw notFound('That sync does not exist (any more).');
  return sync;
}

/**
 * One two-way sync per pair of playlists (decision 0024): its runs are one at a time (the one-active-run
 * index is per sync), so a second two-way sync over either playlist is refused.
 */
async function assertPairFree(db: Database, userId: string, input: CreateSyncRequest) {
  const sides = [
    { service: input.sourceService, id: input.sourcePlaylistId },
    ...(input.destinationPlaylistId
      ? [{ service: input.destinationService, id: input.destinationPlaylistId }]
      : []),
  ];
  const existing = await db
    .select()
    .from(syncs)
    .where(and(eq(syncs.userId, userId), eq(syncs.direction, 'two-way')));
  const taken = existing.some((sync) =>
    sides.some(
      (side) =>
        (sync.sourceService === side.service && sync.sourcePlaylistId === side.id) ||
        (sync.destinationService === side.service && sync.destinationPlaylistId === side.id),
    ),
  );
  if (taken)
    throw conflict('That playlist is already in a two-way sync: change that sync, or delete it first.');
}

/**
 * Stores a new sync. A two-way one only while neither of its playlists is in another two-way sync: the
 * check and the insert are one step, the person's row locked, so two creates at once (in this process or
 * another) take turns and the second sees the first.
 */
export async function insertSync(
  db: Database,
  userId: string,
  input: CreateSyncRequest,
  found: { sourcePlaylistName: string; destinationUrl: string | null },
): Promise<SyncRecord> {
  const sync = await db.transaction(async (tx) => {
    if (input.direction === 'two-way') {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
      await assertPairFree(tx, userId, input);
    }
    const [row] = await tx
      .insert(syncs)
      .values({
        userId,
        sourceService: input.sourceService,
        sourcePlaylistId: input.sourcePlaylistId,
        sourcePlaylistName: found.sourcePlaylistName,
        destinationService: input.destinationService,
        destinationPlaylistId: input.destinationPlaylistId ?? null,
        destinationUrl: found.destinationUrl,
        schedule: input.schedule,
        removals: input.removals,
        direction: input.direction,
        nextRunAt: nextRunAfter(input.schedule, new Date()),
      })
      .returning();
    return row;
  });
  if (!sync) throw new Error('sync insert returned no row');
  return sync;
}

export async function listSyncs(deps: AppDeps, userId: string): Promise<Sync[]> {
  const rows = await deps.db
    .select()
    .from(syncs)
    .where(eq(syncs.userId, userId))
    .orderBy(desc(syncs.createdAt));
  if (rows.length === 0) return [];
  const runs = await deps.db
    .select()
    .from(syncRuns)
    .where(
      inArray(
        syncRuns.syncId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(desc(syncRuns.createdAt));
  const last = new Map<string, SyncRunRecord>();
  for (const run of runs) if (!last.has(run.syncId)) last.set(run.syncId, run);
  return rows.map((row) => toSyncView(row, last.get(row.id)));
}

const ALREADY_RUNNING = 'This sync is already running: wait for that run to finish.';

/**
 * Queues a run of a sync. The first run of a sync is always a preview, whatever was asked. Never two
 * at once: the database holds at most one queued or running run per sync (a partial unique index), so a
 * second request, from this process or another, is refused with 409.
 */
export async function startRun(
  deps: AppDeps,
  userId: string,
  syncId: string,
  options: { trigger: SyncRun['trigger']; dryRun?: boolean | undefined; rebuild?: boolean },
): Promise<SyncRun> {
  const sync = await ownSync(deps.db, userId, syncId);
  if (sync.paused && options.trigger !== 'first') {
    throw conflict('This sync is paused: resume it to run it.');
  }
  const [previewed] = await deps.db
    .select({ id: syncRuns.id })
    .from(syncRuns)
    .where(and(eq(syncRuns.syncId, sync.id), eq(syncRuns.dryRun, true), eq(syncRuns.status, 'succeeded')))
    .limit(1);
  const dryRun = options.dryRun === true || !previewed;
  const run = await deps.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(syncRuns)
      .values({
        syncId: sync.id,
        userId,
        dryRun,
        trigger: options.trigger,
        rebuild: options.rebuild === true,
      })
      .onConflictDoNothing()
      .returning();
    if (!inserted) return undefined;
    const job = await enqueue(tx, syncRunJob, {
      userId,
      payload: { runId: inserted.id },
      dedupeKey: `sync-run:${inserted.id}`,
      maxAttempts: 3,
    });
    const [withJob] = await tx
      .update(syncRuns)
      .set({ jobId: job.id })
      .where(eq(syncRuns.id, inserted.id))
      .returning();
    return withJob;
  });
  if (!run) throw conflict(ALREADY_RUNNING);
  deps.jobs.poke();
  return toSyncRunView(run);
}

/**
 * Two-way (decision 0024): a run that rebuilds the Apple Music side as a new playlist holding exactly the
 * merged state (removals cannot be applied to an Apple Music playlist). Not before a preview has run.
 */
export async function startRebuild(deps: AppDeps, userId: string, syncId: string): Promise<SyncRun> {
  const sync = await ownSync(deps.db, userId, syncId);
  if (sync.direction !== 'two-way') throw badRequest('Only a two-way sync rebuilds a playlist.');
  if (sync.sourceService !== 'apple' && sync.destinationService !== 'apple') {
    throw badRequest(
      'Only an Apple Music playlist is rebuilt: Spotify playlists have their removals applied.',
    );
  }
  if (!sync.twoWayBase) throw conflict('Run this sync once before rebuilding: there is nothing merged yet.');
  return startRun(deps, userId, syncId, { trigger: 'manual', rebuild: true });
}

/** Runs a sync that stopped for the person's confirmation again, this time applying its removals. */
export async function confirmRun(
  deps: AppDeps,
  userId: string,
  syncId: string,
  runId: string,
): Promise<SyncRun> {
  const sync = await ownSync(deps.db, userId, syncId);
  const [run] = isUuid(runId)
    ? await deps.db
        .select()
        .from(syncRuns)
        .where(and(eq(syncRuns.id, runId), eq(syncRuns.syncId, sync.id)))
    : [];
  if (!run) throw notFound('That run does not exist (any more).');
  if (run.status !== 'needs_confirmation') throw conflict('This run is not waiting for a confirmation.');
  const [active] = await deps.db
    .select({ id: syncRuns.id })
    .from(syncRuns)
    .where(and(eq(syncRuns.syncId, sync.id), inArray(syncRuns.status, ['queued', 'running'])))
    .limit(1);
  if (active) throw conflict(ALREADY_RUNNING);
  const confirmed = await deps.db
    .transaction(async (tx) => {
      const [updated] = await tx
        .update(syncRuns)
        .set({ status: 'queued', removalsConfirmed: true, error: null, completedAt: null })
        .where(and(eq(syncRuns.id, run.id), eq(syncRuns.status, 'needs_confirmation')))
        .returning();
      if (!updated) return undefined;
      const job = await enqueue(tx, syncRunJob, {
        userId,
        payload: { runId: run.id },
        dedupeKey: `sync-run:${run.id}:confirmed`,
        maxAttempts: 3,
      });
      const [withJob] = await tx
        .update(syncRuns)
        .set({ jobId: job.id })
        .where(eq(syncRuns.id, run.id))
        .returning();
      return withJob;
    })
    // Another run was queued meanwhile (the one-active-run index refused this one).
    .catch(() => undefined);
  if (!confirmed) throw conflict(ALREADY_RUNNING);
  deps.jobs.poke();
  return toSyncRunView(confirmed);
}

export async function listRuns(deps: AppDeps, userId: string, syncId: string): Promise<SyncRun[]> {
  const sync = await ownSync(deps.db, userId, syncId);
  const runs = await deps.db
    .select()
    .from(syncRuns)
    .where(eq(syncRuns.syncId, sync.id))
    .orderBy(desc(syncRuns.createdAt))
    .limit(100);
  return runs.map(toSyncRunView);
}

export async function setPaused(
  deps: AppDeps,
  userId: string,
  syncId: string,
  paused: boolean,
): Promise<Sync> {
  const sync = await ownSync(deps.db, userId, syncId);
  const [updated] = await deps.db
    .update(syncs)
    // The person's own pause or resume replaces one the plan made.
    .set({
      paused,
      pausedByPlan: false,
      nextRunAt: paused ? sync.nextRunAt : nextRunAfter(sync.schedule, new Date()),
    })
    .where(eq(syncs.id, sync.id))
    .returning();
  if (!updated) throw notFound('That sync does not exist (any more).');
  const [lastRun] = await deps.db
    .select()
    .from(syncRuns)
    .where(eq(syncRuns.syncId, sync.id))
    .orderBy(desc(syncRuns.createdAt))
    .limit(1);
  return toSyncView(updated, lastRun);
}

/** Deletes a sync and its history; the destination playlist stays as it is. */
export async function deleteSync(deps: AppDeps, userId: string, syncId: string): Promise<void> {
  const sync = await ownSync(deps.db, userId, syncId);
  await deps.db.delete(syncs).where(eq(syncs.id, sync.id));
}

// ── Pause and resume by plan (issue 22): billing calls these when a plan stops or starts including sync.

/**
 * Pauses every running sync of a person whose plan no longer includes sync, marking them paused by plan
 * (the person's own pauses stay theirs). Nothing is deleted. Answers how many it paused.
 */
export async function pauseSyncsForPlan(db: Database, userId: string): Promise<number> {
  const paused = await db
    .update(syncs)
    .set({ paused: true, pausedByPlan: true })
    .where(and(eq(syncs.userId, userId), eq(syncs.paused, false)))
    .returning({ id: syncs.id });
  return paused.length;
}

/** Starts again the syncs a plan paused, with their next run counted from `now`. Answers how many. */
export async function resumeSyncsPausedByPlan(
  db: Database,
  userId: string,
  now = new Date(),
): Promise<number> {
  const rows = await db
    .select({ id: syncs.id, schedule: syncs.schedule })
    .from(syncs)
    .where(and(eq(syncs.userId, userId), eq(syncs.pausedByPlan, true)));
  for (const row of rows) {
    await db
      .update(syncs)
      .set({ paused: false, pausedByPlan: false, nextRunAt: nextRunAfter(row.schedule, now) })
      .where(eq(syncs.id, row.id));
  }
  return rows.length;
}

export async function countSyncsPausedByPlan(db: Database, userId: string): Promise<number> {
  const rows = await db
    .select({ id: syncs.id })
    .from(syncs)
    .where(and(eq(syncs.userId, userId), eq(syncs.pausedByPlan, true)));
  return rows.length;
}
