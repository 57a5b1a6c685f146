import { z } from 'zod';
import {
  SYNC_PLAN_MESSAGE,
  SYNC_REMOVAL_CONFIRM_SHARE,
  type SyncTrack,
  syncTrackSchema,
} from '../../shared/api/syncs';
import { notPlayableHere } from '../../shared/api/transfer';
import { SERVICE_LABELS } from '../../shared/services';
import { createMatchingTieBreaker } from '../ai/matching-tie-breaker';
import type { AppDeps } from '../app-context';
import type { SyncedRecording } from '../db/stored-json';
import { history, syncRunOrigin } from '../history/history-hooks';
import { defineJob } from '../jobs/define-job';
import type { JobContext } from '../jobs/job-runner';
import { PermanentJobError } from '../jobs/job-runner';
import { normalizeIsrc } from '../matching/isrc';
import { matchTracks } from '../matching/pipeline';
import { loadSourcePlaylist } from '../playlists/source-playlists';
import { ProviderError } from '../providers/http';
import { normalizedTrackSchema } from '../providers/normalized-track-schema';
import type { MusicProvider, NormalizedTrack, PlaylistContents, PlaylistEntry } from '../providers/types';
import { DatabaseMatchCache } from '../transfers/db-match-cache';
import { findMarkedPlaylist } from '../transfers/destination-progress';
import { classifyJobError, JOB_INLINE_WAIT_MS } from '../transfers/job-errors';
import { unknownRegionMessage } from '../transfers/match-job';
import { type MatchRowRecord, rowFromMatch, rowFromSkippedEntry, tracksToAdd } from '../transfers/match-rows';
import { loadRules, ruledRow, ruleKeyOf } from '../transfers/match-rules';
import { verifyDestination } from '../transfers/verify-destination';
import { nextRunAfter } from './sync-interval';
import { finishRunRecord, loadRunContext, type SyncRunChange, updateRun, updateSync } from './sync-run-store';
import { runTwoWay, syncMarker, twoWayStateSchema } from './two-way-run';

/**
 * One run of a sync (issue 14, decision 0017), as a durable job:
 *
 * 1. read the source, and the destination as it is now;
 * 2. a source track whose recording (ISRC, or the source track this sync matched before) is already in
 *    the destination is left alone: one recording can have several ids, so ids alone are not compared;
 * 3. what is new is matched as in a transfer (the person's rules first) and added in source order;
 * 4. what this sync put in and the source no longer holds is a removal: listed on Apple Music
 *    (append-only), applied on Spotify when the sync's `removals` is on, after the person's confirmation
 *    when it is more than 10 % of the playlist;
 * 5. the destination is read back (verify-destination.ts) and what each run changed is stored.
 *
 * A preview (dry run) does steps 1 to 4 without writing. Steps 1 to 4 are recomputed from what is really
 * in the destination, so a run that crashed after some adds goes on without adding anything twice (on
 * Apple Music after the reads have caught up with the writes, see `settledEntries`).
 */
export const SYNC_RUN_JOB = 'sync-run';

const syncRunPayloadSchema = z.object({ runId: z.uuid() });
type SyncRunPayload = z.infer<typeof syncRunPayloadSchema>;

export { syncMarker };

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The destination's entries; on a service with a write delay, once two reads that far apart agree. */
async function settledEntries(destination: MusicProvider, playlistId: string, resuming: boolean) {
  const read = async () => {
    try {
      return (await destination.getPlaylist(playlistId)).entries;
    } catch (error) {
      if (error instanceof ProviderError && error.kind === 'not_found' && resuming) return [];
      throw error;
    }
  };
  let entries = await read();
  const settleMs = destination.writeSettleMs ?? 0;
  if (!resuming || settleMs === 0) return entries;
  for (let tries = 0; tries < 20; tries++) {
    await defaultSleep(settleMs);
    const again = await read();
    if (again.length === entries.length) return again;
    entries = again;
  }
  return entries;
}

const trackOf = (entry: PlaylistEntry) => (entry.kind === 'track' ? entry.track : null);
/** Why the second copy of a recording in the source is not added again. */
export const REPEATED_IN_SOURCE = 'In the source more than once: added once';

const named = (
  track: Pick<NormalizedTrack, 'name' | 'artists'>,
  reason: string | null = null,
): SyncTrack => ({
  name: track.name,
  artists: track.artists,
  reason,
});

/** What the destination holds, by recording: its tracks by ISRC, and by id and uri. */
function destinationIndex(entries: PlaylistEntry[]) {
  const byIsrc = new Map<string, NormalizedTrack>();
  const byId = new Map<string, NormalizedTrack>();
  for (const entry of entries) {
    const track = trackOf(entry);
    if (!track) continue;
    const isrc = normalizeIsrc(track.isrc);
    if (isrc && !byIsrc.has(isrc)) byIsrc.set(isrc, track);
    byId.set(track.id, track);
    byId.set(track.uri, track);
  }
  /** The destination track of this recording, if the destination holds it. */
  const find = (track: { id?: string; uri?: string; isrc?: string | null | undefined }) => {
    const isrc = normalizeIsrc(track.isrc);
    return (
      (isrc !== null ? byIsrc.get(isrc) : undefined) ??
      (track.id !== undefined ? byId.get(track.id) : undefined) ??
      (track.uri !== undefined ? byId.get(track.uri) : undefined)
    );
  };
  const holds = (track: Parameters<typeof find>[0]) => find(track) !== undefined;
  return { find, holds, trackCount: entries.filter((entry) => entry.kind === 'track').length };
}

/**
 * The job's checkpoint, written before the first write: what this run set out to add and remove. A run
 * that resumes after a crash finds those writes done (they are in the destination) and still reports
 * and verifies them as this run's.
 */
const syncRunStateSchema = z.object({
  /** Two-way runs (decision 0024): what the run set out to write on each side. */
  twoWay: twoWayStateSchema.optional(),
  planned: z
    .object({
      keys: z.array(z.string()),
      added: z.array(syncTrackSchema),
      expected: z.array(z.object({ position: z.number().int().nonnegative(), track: normalizedTrackSchema })),
      removedKeys: z.array(z.string()),
      removed: z.array(syncTrackSchema),
    })
    .optional(),
});
type SyncRunState = z.infer<typeof syncRunStateSchema>;

const recordingOf = (sourceKey: string, track: NormalizedTrack): SyncedRecording => ({
  sourceKey,
  destinationId: track.id,
  destinationUri: track.uri,
  isrc: normalizeIsrc(track.isrc),
  name: track.name,
  artists: track.artists,
});

type RunContext = Awaited<ReturnType<typeof loadRunContext>>;
type SyncRecord = NonNullable<RunContext['sync']>;
type SyncRunRecord = NonNullable<RunContext['run']>;
type SourceTrackEntry = Extract<PlaylistEntry, { kind: 'track' }>;
type SourceEntry = PlaylistContents['entries'][number];

/** What a one-way run works with: the run, its sync, and the job's hooks. */
interface OneWayRun {
  deps: AppDeps;
  run: SyncRunRecord;
  sync: SyncRecord;
  finish: (change: SyncRunChange) => Promise<void>;
  context: JobContext<SyncRunState>;
  /** Shows the run's phase; a failure to show it never stops the run. */
  progress: (phase: string, message?: string) => Promise<void>;
}

/** Step 1: the source, and the destination as it is now. */
async function readOneWaySides({ deps, sync, context }: OneWayRun) {
  const source = await loadSourcePlaylist(deps, sync.userId, sync.sourceService, sync.sourcePlaylistId);
  const destination = await deps.providers.forUser(sync.userId, sync.destinationService, {
    maxInlineWaitMs: JOB_INLINE_WAIT_MS,
  });
  const resuming = context.job.attempts > 1;
  let playlistId = sync.destinationPlaylistId;
  if (!playlistId && resuming) {
    // A crash between creating the playlist and storing its id: find it by its marker.
    const found = await findMarkedPlaylist(destination, syncMarker(sync.id));
    if (found) playlistId = found.id;
  }
  const entries = playlistId ? await settledEntries(destination, playlistId, resuming) : [];
  // Both sides as read are versions of their playlists' history (decision 0030).
  await history.readSyncPair(deps, sync, source, { playlistId, entries });
  return { source, destination, playlistId, present: destinationIndex(entries) };
}
type OneWaySides = Awaited<ReturnType<typeof readOneWaySides>>;

/** Step 2: which source tracks are already there, by recording, and which are new. */
function sortSourceTracks(sync: SyncRecord, source: PlaylistContents, present: OneWaySides['present']) {
  const synced = new Map(sync.synced.map((recording) => [recording.sourceKey, recording]));
  const sourceTracks = source.entries.flatMap((entry) => (entry.kind === 'track' ? [entry] : []));
  const sourceKeys = new Set<string>();
  const keep: SyncedRecording[] = [];
  const toMatch: SourceTrackEntry[] = [];
  // The same recording twice in the source is added once; the second is listed, so the run's figures
  // (added, already there, not added) account for every track of the source.
  const repeated: SourceTrackEntry[] = [];
  for (const entry of sourceTracks) {
    const key = ruleKeyOf(entry.track);
    if (sourceKeys.has(key)) {
      repeated.push(entry);
      continue;
    }
    sourceKeys.add(key);
    const known = synced.get(key);
    const sameIsrc = normalizeIsrc(entry.track.isrc) ? present.find({ isrc: entry.track.isrc }) : undefined;
    if (known && present.holds({ id: known.destinationId, uri: known.destinationUri, isrc: known.isrc })) {
      keep.push(known);
    } else if (sameIsrc) {
      // Already there under the same ISRC (added by hand, or under another id of the recording).
      keep.push(recordingOf(key, sameIsrc));
    } else {
      toMatch.push(entry);
    }
  }
  return { sourceKeys, keep, toMatch, repeated };
}

/** Step 3: match what is new, as a transfer would (the person's rules decide their rows). */
async function matchNewTracks(
  { deps, run, sync, progress }: OneWayRun,
  destination: MusicProvider,
  toMatch: SourceTrackEntry[],
) {
  await progress('matching', `Matching ${toMatch.length} new track${toMatch.length === 1 ? '' : 's'}…`);
  const connection = await deps.providers.connections.get(sync.userId, sync.destinationService);
  // Never a silent US: what the person can play depends on their country (asked on the Account page).
  const region = connection?.region;
  if (!region) throw new PermanentJobError(unknownRegionMessage(sync.destinationService));
  const rules = await loadRules(deps.db, {
    userId: sync.userId,
    sourceService: sync.sourceService,
    destinationService: sync.destinationService,
  });
  const cache = new DatabaseMatchCache(deps.db, sync.destinationService, region);
  const matches =
    toMatch.length === 0
      ? []
      : await matchTracks(
          toMatch.map((entry) => entry.track),
          destination,
          { region, cache, tieBreaker: createMatchingTieBreaker(deps.ai) },
        );
  await cache.flush();
  return toMatch.map((entry, index) => {
    const match = matches[index];
    if (!match) throw new Error('matching returned fewer results than sources');
    // Rows as a match run stores them (the run's id stands in for a match set: they are never stored).
    const row = rowFromMatch(run.id, entry.position, match);
    const rule = rules.get(ruleKeyOf(entry.track));
    return (rule ? ruledRow(row, rule) : row) as unknown as MatchRowRecord;
  });
}

/** Why a row was not added, in words for the run's list. */
export function notAddedReason(row: Pick<MatchRowRecord, 'status' | 'decidedBy' | 'reasons'>): string {
  if (row.status === 'skipped') {
    return row.decidedBy === 'person' ? 'Your rule: not on this service' : (row.reasons[0] ?? 'Not a song');
  }
  if (row.status === 'review') return 'No confident match: review it in a transfer to make a rule';
  return notPlayableHere(row) ? 'Not playable in your country' : 'Not found';
}

/**
 * What of the source is not added, in source order: rows without a chosen match, entries that are not
 * songs (local files, episodes, unavailable; listed with why, as in a transfer) and repeats.
 */
function notAddedList(
  runId: string,
  sourceEntries: SourceEntry[],
  rows: MatchRowRecord[],
  chosenPositions: Set<number>,
  repeated: SourceTrackEntry[],
): SyncTrack[] {
  const skippedRows = sourceEntries.flatMap((entry) =>
    entry.kind === 'skipped' ? [rowFromSkippedEntry(runId, entry) as unknown as MatchRowRecord] : [],
  );
  return [
    ...[...rows, ...skippedRows]
      .filter((row) => !chosenPositions.has(row.position))
      .map((row) => ({ position: row.position, track: named(row.source, notAddedReason(row)) })),
    ...repeated.map((entry) => ({ position: entry.position, track: named(entry.track, REPEATED_IN_SOURCE) })),
  ]
    .sort((a, b) => a.position - b.position)
    .map((item) => item.track);
}

interface OneWayAdd {
  key: string;
  position: number;
  source: NormalizedTrack;
  track: NormalizedTrack;
}

/** The chosen matches to add; a match the destination already holds is kept (pushed onto `keep`). */
function chooseAdds(
  selected: ReturnType<typeof tracksToAdd>,
  present: OneWaySides['present'],
  keep: SyncedRecording[],
): OneWayAdd[] {
  const toAdd: OneWayAdd[] = [];
  const adding = new Set<string>();
  for (const item of selected) {
    const key = ruleKeyOf(item.row.source);
    const there = present.find(item.track);
    if (there || adding.has(item.track.uri)) {
      // The match is a recording the destination already holds: nothing to add.
      keep.push(recordingOf(key, there ?? item.track));
      continue;
    }
    adding.add(item.track.uri);
    toAdd.push({ key, position: item.row.position, source: item.row.source, track: item.track });
  }
  return toAdd;
}

/** Step 4: what this sync put in that the source no longer holds, still in the destination. */
function planRemovals(sync: SyncRecord, sides: OneWaySides, sourceKeys: Set<string>) {
  const { destination, present } = sides;
  const gone = sync.synced.filter(
    (recording) =>
      !sourceKeys.has(recording.sourceKey) &&
      present.holds({ id: recording.destinationId, uri: recording.destinationUri, isrc: recording.isrc }),
  );
  const canRemove = sync.removals && destination.removeTracks !== undefined && !destination.appendOnly;
  const listedReason = destination.appendOnly
    ? `${SERVICE_LABELS[sync.destinationService]} playlists cannot have tracks removed: remove it there by hand.`
    : 'Removals are off for this sync.';
  const removals = canRemove ? gone : [];
  const listedRemovals = canRemove ? [] : gone.map((recording) => named(recording, listedReason));
  return { gone, removals, listedRemovals };
}

/** Steps 2 to 4: what the run would add, keep, list and remove (all a preview shows). */
async function planOneWayRun(input: OneWayRun, sides: OneWaySides) {
  const { source, destination, present } = sides;
  const { sourceKeys, keep, toMatch, repeated } = sortSourceTracks(input.sync, source, present);
  const rows = await matchNewTracks(input, destination, toMatch);
  const selected = tracksToAdd(rows, false);
  const chosenPositions = new Set(selected.map((item) => item.row.position));
  const notAdded = notAddedList(input.run.id, source.entries, rows, chosenPositions, repeated);
  const toAdd = chooseAdds(selected, present, keep);
  const { gone, removals, listedRemovals } = planRemovals(input.sync, sides, sourceKeys);
  const added = toAdd.map((item) => named(item.track));
  const removed = removals.map((recording) => named(recording));
  const planned = { added, removed, listedRemovals, notAdded, unchanged: keep.length };
  return { keep, toAdd, gone, removals, planned };
}
type OneWayPlan = Awaited<ReturnType<typeof planOneWayRun>>;

/** A preview stops here; so does a run removing too much of the playlist without the person's confirmation. */
async function guardOneWayRun({ run, finish }: OneWayRun, sides: OneWaySides, plan: OneWayPlan) {
  const { present } = sides;
  const { removals, planned } = plan;
  if (run.dryRun) {
    await finish({ status: 'succeeded', ...planned, error: null });
    return { runId: run.id, dryRun: true };
  }
  const removalLimit = Math.max(0, present.trackCount) * SYNC_REMOVAL_CONFIRM_SHARE;
  if (removals.length > 0 && removals.length > removalLimit && !run.removalsConfirmed) {
    await finish({
      status: 'needs_confirmation',
      ...planned,
      error: `This run would remove ${removals.length} of the ${present.trackCount} tracks in the playlist (more than ${Math.round(SYNC_REMOVAL_CONFIRM_SHARE * 100)} %). Confirm to go on.`,
    });
    return { runId: run.id, needsConfirmation: true };
  }
  return null;
}

/** What this run sets out to write, checkpointed first; a resumed run keeps what its first attempt planned. */
async function checkpointOneWayRun(context: JobContext<SyncRunState>, plan: OneWayPlan) {
  const { toAdd, removals } = plan;
  const previous = context.state?.planned;
  const plannedKeys = new Set(previous?.keys ?? []);
  const plannedRemovedKeys = new Set(previous?.removedKeys ?? []);
  const freshAdds = toAdd.filter((item) => !plannedKeys.has(item.key));
  const freshRemovals = removals.filter((recording) => !plannedRemovedKeys.has(recording.sourceKey));
  const checkpoint: NonNullable<SyncRunState['planned']> = {
    keys: [...plannedKeys, ...freshAdds.map((item) => item.key)],
    added: [...(previous?.added ?? []), ...freshAdds.map((item) => named(item.track))],
    expected: [
      ...(previous?.expected ?? []),
      ...freshAdds.map((item) => ({ position: item.position, track: item.track })),
    ],
    removedKeys: [...plannedRemovedKeys, ...freshRemovals.map((recording) => recording.sourceKey)],
    removed: [...(previous?.removed ?? []), ...freshRemovals.map((recording) => named(recording))],
  };
  await context.checkpoint(
    { planned: checkpoint },
    { done: 0, total: checkpoint.expected.length, phase: 'adding' },
  );
  return checkpoint;
}

/** The destination playlist's id; created on the first real run, its id stored at once. */
async function ensureDestinationPlaylist({ deps, sync, progress }: OneWayRun, sides: OneWaySides) {
  if (sides.playlistId) return sides.playlistId;
  await progress('creating', 'Creating the playlist…');
  const created = await sides.destination.createPlaylist(
    sides.source.playlist.name,
    `Kept in sync with ${SERVICE_LABELS[sync.sourceService]} by Crossfade (${syncMarker(sync.id)})`,
  );
  await updateSync(deps.db, sync.id, {
    destinationPlaylistId: created.id,
    destinationUrl: created.url || null,
  });
  return created.id;
}

/** Step 5: create the destination if need be, add in source order, remove, read back, store. */
async function writeOneWayRun(input: OneWayRun, sides: OneWaySides, plan: OneWayPlan) {
  const { deps, sync, context, progress, finish } = input;
  const { destination } = sides;
  const { keep, toAdd, gone, removals, planned } = plan;
  const checkpoint = await checkpointOneWayRun(context, plan);
  const targetId = await ensureDestinationPlaylist(input, sides);
  if (toAdd.length > 0) {
    await progress('adding', `Adding ${toAdd.length} track${toAdd.length === 1 ? '' : 's'}…`);
    await destination.addTracks(
      targetId,
      toAdd.map((item) => item.track.uri),
      undefined,
      context.holdLease,
    );
  }
  if (removals.length > 0 && destination.removeTracks) {
    await progress('removing', `Removing ${removals.length} track${removals.length === 1 ? '' : 's'}…`);
    await destination.removeTracks(
      targetId,
      removals.map((recording) => recording.destinationUri),
    );
  }
  // The read-back is also the destination's new version in its history: no extra read.
  let readBack: { name: string; entries: PlaylistEntry[] } | null = null;
  const verification =
    checkpoint.expected.length === 0
      ? { verified: 0, missing: [] }
      : await verifyDestination(destination, targetId, checkpoint.expected, {
          onPhase: (phase) => progress(phase),
          beforeWrite: context.holdLease,
          onRead: (read) => {
            readBack = { name: sides.source.playlist.name, entries: read };
          },
        });
  await history.wrote(deps, {
    userId: sync.userId,
    service: sync.destinationService,
    playlistId: targetId,
    provider: destination,
    cause: 'sync',
    origin: syncRunOrigin(sync.id, input.run.id),
    readBack,
  });
  const removedKeys = new Set(removals.map((recording) => recording.sourceKey));
  const nextSynced = [
    ...keep,
    ...toAdd.map((item) => recordingOf(item.key, item.track)),
    // Listed removals stay known, so the next run lists them again until they are gone.
    ...gone.filter((recording) => !removedKeys.has(recording.sourceKey)),
  ];
  await updateSync(deps.db, sync.id, {
    synced: nextSynced,
    sourcePlaylistName: sides.source.playlist.name,
    nextRunAt: nextRunAfter(sync.schedule, new Date()),
  });
  const planKeys = new Set(checkpoint.keys);
  await finish({
    status: 'succeeded',
    ...planned,
    added: checkpoint.added,
    removed: checkpoint.removed,
    // Recordings this run added in an earlier attempt are its additions, not "already there".
    unchanged: keep.filter((recording) => !planKeys.has(recording.sourceKey)).length,
    verifiedTracks: checkpoint.expected.length === 0 ? null : verification.verified,
    verificationMissing: verification.missing,
    error: null,
  });
  return { runId: input.run.id, added: toAdd.length, removed: removals.length };
}

/** A one-way run, steps 1 to 5 (see above). */
async function runOneWay(input: OneWayRun) {
  await input.progress('reading', 'Reading the playlists…');
  const sides = await readOneWaySides(input);
  const plan = await planOneWayRun(input, sides);
  const stopped = await guardOneWayRun(input, sides, plan);
  if (stopped) return stopped;
  return await writeOneWayRun(input, sides, plan);
}

/** Ends a run that failed for good (a permanent error, or the last attempt) before the job rethrows. */
async function failedRun(context: JobContext<SyncRunState>, finish: OneWayRun['finish'], error: unknown) {
  const classified = classifyJobError(error);
  const finalAttempt = context.job.attempts >= context.job.maxAttempts;
  if (
    classified instanceof PermanentJobError ||
    (finalAttempt && !(classified instanceof Error && classified.name === 'RetryLater'))
  ) {
    await finish({
      status: 'failed',
      error: classified instanceof Error ? classified.message : String(classified),
    });
  }
  return classified;
}

export function createSyncRunJobHandler(deps: AppDeps) {
  return async ({ runId }: SyncRunPayload, context: JobContext<SyncRunState>) => {
    const { run, sync, plan: ownerPlan } = await loadRunContext(deps.db, runId);
    if (!run) throw new PermanentJobError('The sync run no longer exists.');
    if (!sync) throw new PermanentJobError('The sync no longer exists.');
    const finish = (change: SyncRunChange) => finishRunRecord(deps.db, runId, change);
    try {
      // A run queued before a downgrade does not run on the Free plan.
      if (ownerPlan === 'free') throw new PermanentJobError(SYNC_PLAN_MESSAGE);
      await updateRun(deps.db, runId, { status: 'running' });
      if (sync.direction === 'two-way') {
        return await runTwoWay(
          deps,
          { run, sync, finish },
          {
            job: context.job,
            state: context.state?.twoWay,
            checkpoint: (twoWay, progress) => context.checkpoint({ twoWay }, progress),
            progress: (progress) => context.progress(progress),
            holdLease: () => context.holdLease(),
          },
        );
      }
      const progress = (phase: string, message?: string) =>
        context
          .progress({ done: 0, total: 0, phase, ...(message ? { message } : {}) })
          .catch(() => undefined);
      return await runOneWay({ deps, run, sync, finish, context, progress });
    } catch (error) {
      throw await failedRun(context, finish, error);
    }
  };
}

export const syncRunJob = defineJob({
  kind: SYNC_RUN_JOB,
  payloadSchema: syncRunPayloadSchema,
  stateSchema: syncRunStateSchema,
  handler: createSyncRunJobHandler,
});
