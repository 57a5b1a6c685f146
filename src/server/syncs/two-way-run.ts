import { z } from 'zod';
import {
  SYNC_COLLAPSED_READ_SHARE,
  SYNC_REMOVAL_CONFIRM_SHARE,
  type SyncTrack,
} from '../../shared/api/syncs';
import { SERVICE_LABELS, type ServiceId } from '../../shared/services';
import type { AppDeps } from '../app-context';
import type { syncRuns, syncs } from '../db/schema';
import type {
  JobProgress,
  SyncRunWrites,
  SyncSideTrack,
  SyncSideWrites,
  TwoWayBase,
  TwoWayBaseEntry,
} from '../db/stored-json';
import { history, syncRunOrigin } from '../history/history-hooks';
import type { JobContext } from '../jobs/job-runner';
import { PermanentJobError } from '../jobs/job-runner';
import { ProviderError } from '../providers/http';
import type { MusicProvider, NormalizedTrack } from '../providers/types';
import { findMarkedPlaylist } from '../transfers/destination-progress';
import { JOB_INLINE_WAIT_MS } from '../transfers/job-errors';
import { verifyDestination } from '../transfers/verify-destination';
import { nextRunAfter } from './sync-interval';
import { type SyncRunChange, updateSync } from './sync-run-store';
import { matchAdds } from './two-way-match';
import {
  baseKey,
  type MergePlan,
  nextBase,
  OTHER,
  planMerge,
  type Side,
  sameRecording,
  sideTrack,
} from './two-way-merge';

/**
 * One run of a two-way sync (issue 21 item 1, decision 0024), in named steps so that history (issue 21
 * item 2) can hook in where each side is read and written:
 *
 * 1. `readSides`: both playlists as they are now (a side with a write delay, Apple Music, read until two
 *    reads agree when it seems to have lost tracks or the run resumes);
 * 2. the guard on a collapsed read (a side returns less than half of what the last run saw);
 * 3. `planMerge` (two-way-merge.ts) against the base the last successful run left;
 * 4. `matchAdds` both ways (the person's rules first; review-band matches wait and are listed);
 * 5. `decideWrites`: what to add and remove on each side, what to list (removals into Apple Music, or with
 *    removals off; conflicts: the add wins);
 * 6. the guard on removals (more than 10 % of a side);
 * 7. `applyToSide` for the destination, then for the source; or, for a rebuild, `rebuildAppleSide`;
 * 8. read back each side written (verify-destination.ts), store the new base and exactly what the run
 *    wrote on each side (`sync_runs.writes`, for undo).
 *
 * A preview stops after step 5. Before its first write a run checkpoints what it set out to write, so a
 * resumed run (after a crash, a fault, a requeue) recomputes from both sides as they are and still reports
 * the first attempt's writes as its own.
 */

type SyncRecord = typeof syncs.$inferSelect;
type SyncRunRecord = typeof syncRuns.$inferSelect;

const sideTrackSchema = z.object({
  id: z.string(),
  uri: z.string(),
  isrc: z.string().nullable(),
  name: z.string(),
  artists: z.array(z.string()),
});
const sideWritesSchema = z.object({
  service: z.enum(['spotify', 'apple']),
  playlistId: z.string().nullable(),
  added: z.array(sideTrackSchema),
  removed: z.array(sideTrackSchema),
  rebuiltFrom: z.string().optional(),
});
/** The checkpoint of a two-way run: what it set out to write on each side. */
export const twoWayStateSchema = z.object({ source: sideWritesSchema, destination: sideWritesSchema });
type TwoWayState = z.infer<typeof twoWayStateSchema>;

/** What a two-way run needs of its job: its attempt, its checkpoint of planned writes, its lease. */
export interface TwoWayJobContext {
  job: JobContext<unknown>['job'];
  state: TwoWayState | undefined;
  checkpoint(state: TwoWayState, progress: JobProgress): Promise<void>;
  progress(progress: JobProgress): Promise<void>;
  holdLease(): Promise<void>;
}

export const syncMarker = (syncId: string) => `crossfade-sync:${syncId.slice(0, 8)}`;
const rebuildMarker = (syncId: string, runId: string) => `${syncMarker(syncId)}:rebuild:${runId.slice(0, 8)}`;

interface SideState {
  side: Side;
  service: ServiceId;
  provider: MusicProvider;
  playlistId: string | null;
  name: string;
  tracks: NormalizedTrack[];
  /** Entries that are not songs (local files, episodes…): never copied, listed. */
  skipped: SyncTrack[];
}
type Sides = Record<Side, SideState>;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const named = (track: Pick<SyncSideTrack, 'name' | 'artists'>, reason: string | null = null): SyncTrack => ({
  name: track.name,
  artists: track.artists,
  reason,
});
const asTrack = (ref: SyncSideTrack): NormalizedTrack => ({
  id: ref.id,
  uri: ref.uri,
  name: ref.name,
  artists: ref.artists,
  album: '',
  durationMs: 0,
  ...(ref.isrc ? { isrc: ref.isrc } : {}),
});

async function readPlaylist(provider: MusicProvider, playlistId: string, resuming: boolean) {
  try {
    const contents = await provider.getPlaylist(playlistId);
    const tracks = contents.entries.flatMap((entry) => (entry.kind === 'track' ? [entry.track] : []));
    const skipped = contents.entries.flatMap((entry) =>
      entry.kind === 'skipped'
        ? [
            named(
              { name: entry.name ?? 'Unknown', artists: entry.artists ?? [] },
              `Not a song (${entry.reason.replace('_', ' ')}): not copied`,
            ),
          ]
        : [],
    );
    return { name: contents.playlist.name, tracks, skipped };
  } catch (error) {
    // A destination created by a crashed attempt may not show yet.
    if (error instanceof ProviderError && error.kind === 'not_found' && resuming)
      return { name: '', tracks: [], skipped: [] };
    throw error;
  }
}

/** Whether a side's read lacks a recording the base says it held (a removal, or a write not shown yet). */
function seemsToHaveLost(base: TwoWayBase | null, side: Side, tracks: NormalizedTrack[]) {
  return (base?.entries ?? []).some((entry) => {
    const ref = entry[side];
    return ref !== null && !tracks.some((track) => sameRecording(ref, track));
  });
}

/** Step 1: both sides as they are now. */
export async function readSides(deps: AppDeps, sync: SyncRecord, resuming: boolean): Promise<Sides> {
  const open = (service: ServiceId) =>
    deps.providers.forUser(sync.userId, service, { maxInlineWaitMs: JOB_INLINE_WAIT_MS });
  const sourceProvider = await open(sync.sourceService);
  const destinationProvider = await open(sync.destinationService);
  let destinationId = sync.destinationPlaylistId;
  if (!destinationId && resuming) {
    // A crash between creating the playlist and storing its id: find it by its marker.
    destinationId = (await findMarkedPlaylist(destinationProvider, syncMarker(sync.id)))?.id ?? null;
  }
  const settle = async (side: Side, provider: MusicProvider, playlistId: string) => {
    let read = await readPlaylist(provider, playlistId, resuming);
    const settleMs = provider.writeSettleMs ?? 0;
    if (settleMs === 0 || !(resuming || seemsToHaveLost(sync.twoWayBase, side, read.tracks))) return read;
    // Reads show writes late on this service: read until two reads that far apart agree.
    for (let tries = 0; tries < 20; tries++) {
      await sleep(settleMs);
      const again = await readPlaylist(provider, playlistId, resuming);
      if (again.tracks.length === read.tracks.length) return again;
      read = again;
    }
    return read;
  };
  const source = await settle('source', sourceProvider, sync.sourcePlaylistId);
  const destination = destinationId
    ? await settle('destination', destinationProvider, destinationId)
    : { name: source.name, tracks: [], skipped: [] };
  return {
    source: {
      side: 'source',
      service: sync.sourceService,
      provider: sourceProvider,
      playlistId: sync.sourcePlaylistId,
      ...source,
    },
    destination: {
      side: 'destination',
      service: sync.destinationService,
      provider: destinationProvider,
      playlistId: destinationId,
      ...destination,
    },
  };
}

const label = (sides: Sides, side: Side) =>
  sides.source.service === sides.destination.service
    ? `the ${side} playlist`
    : SERVICE_LABELS[sides[side].service];

/** Step 2: a side that returns less than half of what the last run saw stops the run. */
export function collapsedReadStop(sides: Sides, base: TwoWayBase | null): string | null {
  if (!base) return null;
  for (const side of ['source', 'destination'] as const) {
    const before = side === 'source' ? base.sourceCount : base.destinationCount;
    const now = sides[side].tracks.length;
    if (before > 0 && now < before * SYNC_COLLAPSED_READ_SHARE) {
      return `${label(sides, side)} returned ${now} of the ${before} tracks the last run saw (less than half): it may be a failed read or a mistake. Nothing was changed. Confirm to go on.`;
    }
  }
  return null;
}

export interface Decision {
  adds: Record<Side, NormalizedTrack[]>;
  removes: Record<Side, SyncSideTrack[]>;
  listed: SyncTrack[];
  conflicts: SyncTrack[];
  notAdded: SyncTrack[];
  /** The base after the writes, when they succeed. */
  entries: TwoWayBaseEntry[];
  unchanged: number;
}

const canRemove = (state: SideState) =>
  state.provider.removeTracks !== undefined && !state.provider.appendOnly;

/** Step 5: what to write on each side, and what to list. */
export function decideWrites(
  sides: Sides,
  plan: MergePlan,
  matched: Record<Side, Awaited<ReturnType<typeof matchAdds>>>,
  removalsOn: boolean,
): Decision {
  const decision: Decision = {
    adds: { source: [], destination: [] },
    removes: { source: [], destination: [] },
    listed: [],
    conflicts: [],
    notAdded: [
      ...matched.source.notAdded,
      ...matched.destination.notAdded,
      ...sides.source.skipped,
      ...sides.destination.skipped,
    ],
    entries: [...plan.pairs],
    unchanged: plan.pairs.length,
  };
  // Adds matched from one side to the other: written unless the other side holds the recording already.
  for (const from of ['source', 'destination'] as const) {
    const to = OTHER[from];
    for (const item of matched[from].matched) {
      const there = sides[to].tracks.find((track) => sameRecording(sideTrack(item.to), track));
      const adding = decision.adds[to].find((track) => sameRecording(sideTrack(item.to), track));
      const target = sideTrack(there ?? adding ?? item.to);
      if (!there && !adding) decision.adds[to].push(item.to);
      const pair = { [from]: sideTrack(item.from), [to]: target } as Record<Side, SyncSideTrack>;
      decision.entries.push({
        key: baseKey(pair.source, pair.destination),
        source: pair.source,
        destination: pair.destination,
      });
    }
  }
  // Conflicts: the add wins, the recording goes back on the side that removed it.
  for (const { entry, onto } of plan.conflicts) {
    const ref = entry[onto];
    if (!ref) continue;
    decision.adds[onto].push(asTrack(ref));
    decision.entries.push(entry);
    decision.conflicts.push(
      named(
        ref,
        `Removed on ${label(sides, onto)}, added again on ${label(sides, OTHER[onto])}: kept on both (the add wins)`,
      ),
    );
  }
  // Removals: applied where the service allows it and the person asked for it; listed otherwise.
  const listedReason = (from: Side) =>
    !removalsOn
      ? `Removed on ${label(sides, OTHER[from])}; removals are off for this sync.`
      : `Removed on ${label(sides, OTHER[from])}; ${SERVICE_LABELS[sides[from].service]} playlists cannot have tracks removed: remove it there by hand, or rebuild the playlist.`;
  for (const { entry, from } of plan.removals) {
    const ref = entry[from];
    if (!ref) continue;
    if (removalsOn && canRemove(sides[from])) {
      decision.removes[from].push(ref);
    } else {
      decision.listed.push(named(ref, listedReason(from)));
      decision.entries.push(entry);
    }
  }
  // A recording listed as on one side only that the person added again on the other (matched by the
  // rules or by name, not by ISRC) is a pair again: no longer listed.
  const pairedAgain = (side: Side, ref: SyncSideTrack) =>
    decision.entries.some((entry) => {
      const there = entry[side];
      return (
        entry.source !== null &&
        entry.destination !== null &&
        there !== null &&
        sameRecording(ref, asTrack(there))
      );
    });
  for (const entry of plan.oneSided) {
    const from: Side = entry.source ? 'source' : 'destination';
    const ref = entry[from];
    if (ref && pairedAgain(from, ref)) continue;
    if (ref) decision.listed.push(named(ref, listedReason(from)));
    decision.entries.push(entry);
  }
  return decision;
}

/** Step 6: a run that would remove more than 10 % of a side stops for the person's confirmation. */
export function removalStop(sides: Sides, decision: Decision): string | null {
  for (const side of ['source', 'destination'] as const) {
    const count = decision.removes[side].length;
    const total = sides[side].tracks.length;
    if (count > 0 && count > total * SYNC_REMOVAL_CONFIRM_SHARE) {
      return `This run would remove ${count} of the ${total} tracks on ${label(sides, side)} (more than ${Math.round(SYNC_REMOVAL_CONFIRM_SHARE * 100)} %). Confirm to go on.`;
    }
  }
  return null;
}

const byUri = <T extends { uri: string }>(items: T[]) => [
  ...new Map(items.map((item) => [item.uri, item])).values(),
];

/** The writes a run sets out to make, joined with what an earlier attempt of the same run set out to make. */
function plannedWrites(sides: Sides, decision: Decision, previous: TwoWayState | undefined): TwoWayState {
  const of = (side: Side): SyncSideWrites => ({
    service: sides[side].service,
    playlistId: sides[side].playlistId ?? previous?.[side].playlistId ?? null,
    added: byUri([...(previous?.[side].added ?? []), ...decision.adds[side].map(sideTrack)]),
    removed: byUri([...(previous?.[side].removed ?? []), ...decision.removes[side]]),
    ...(previous?.[side].rebuiltFrom ? { rebuiltFrom: previous[side].rebuiltFrom } : {}),
  });
  return { source: of('source'), destination: of('destination') };
}

/** Step 7: the adds (in the order of the side they came from) and the removals on one side. */
export async function applyToSide(
  deps: AppDeps,
  sync: SyncRecord,
  state: SideState,
  decision: Decision,
  context: TwoWayJobContext,
): Promise<string | null> {
  const adds = decision.adds[state.side];
  const removes = decision.removes[state.side];
  let playlistId = state.playlistId;
  if (!playlistId && adds.length > 0) {
    // Only the destination can be missing: its first real run creates it from the source.
    const created = await state.provider.createPlaylist(
      state.name,
      `Kept in sync both ways by Crossfade (${syncMarker(sync.id)})`,
    );
    playlistId = created.id;
    await updateSync(deps.db, sync.id, {
      destinationPlaylistId: created.id,
      destinationUrl: created.url || null,
    });
  }
  if (!playlistId) return null;
  if (adds.length > 0) {
    await state.provider.addTracks(
      playlistId,
      adds.map((track) => track.uri),
      undefined,
      context.holdLease,
    );
  }
  if (removes.length > 0 && state.provider.removeTracks) {
    await state.provider.removeTracks(
      playlistId,
      removes.map((track) => track.uri),
    );
  }
  return playlistId;
}

/** The Apple Music side of a sync, if it has one (a rebuild replaces its playlist). */
const appleSide = (sides: Sides): Side | null =>
  sides.destination.service === 'apple' ? 'destination' : sides.source.service === 'apple' ? 'source' : null;

/**
 * Step 7, rebuild: a new Apple Music playlist holding exactly the merged state (every recording on both
 * sides after this run, in the other side's order), created once (found again by its marker after a
 * crash); the sync then keeps that playlist in step. The old playlist is left as it is.
 */
async function rebuildAppleSide(
  deps: AppDeps,
  sync: SyncRecord,
  run: SyncRunRecord,
  sides: Sides,
  entries: TwoWayBaseEntry[],
) {
  const side = appleSide(sides);
  if (!side) throw new PermanentJobError('Only an Apple Music playlist can be rebuilt.');
  const other = OTHER[side];
  const state = sides[side];
  const order = (entry: TwoWayBaseEntry) => {
    const ref = entry[other];
    const index = ref ? sides[other].tracks.findIndex((track) => sameRecording(ref, track)) : -1;
    return index < 0 ? Number.MAX_SAFE_INTEGER : index;
  };
  const merged = entries
    .filter((entry) => entry.source && entry.destination)
    .sort((a, b) => order(a) - order(b))
    .flatMap((entry) => (entry[side] ? [entry[side]] : []));
  const marker = rebuildMarker(sync.id, run.id);
  const found = await findMarkedPlaylist(state.provider, marker);
  const playlistId =
    found?.id ??
    (
      await state.provider.createPlaylist(
        state.name || 'Rebuilt playlist',
        `Rebuilt by Crossfade to hold exactly what the sync holds (${marker})`,
      )
    ).id;
  // Adds only what the new playlist lacks (nothing twice after a crash), read back until all are there.
  const verification = await verifyDestination(
    state.provider,
    playlistId,
    merged.map((track, position) => ({ position, track: asTrack(track) })),
  );
  await updateSync(
    deps.db,
    sync.id,
    side === 'destination'
      ? { destinationPlaylistId: playlistId, destinationUrl: null }
      : { sourcePlaylistId: playlistId },
  );
  return { side, playlistId, rebuiltFrom: state.playlistId, tracks: merged, verification };
}

export interface TwoWayRunInput {
  run: SyncRunRecord;
  sync: SyncRecord;
  finish: (change: SyncRunChange) => Promise<void>;
}

/** The run's matching of both sides' adds (step 4). */
async function matchBothWays(deps: AppDeps, input: TwoWayRunInput, sides: Sides, plan: MergePlan) {
  const common = { userId: input.sync.userId, runId: input.run.id };
  return {
    source: await matchAdds(deps, {
      ...common,
      from: sides.source.service,
      to: sides.destination.service,
      provider: sides.destination.provider,
      tracks: plan.newOnSource,
    }),
    destination: await matchAdds(deps, {
      ...common,
      from: sides.destination.service,
      to: sides.source.service,
      provider: sides.source.provider,
      tracks: plan.newOnDestination,
    }),
  };
}

/** The run's lists as the API shows them (a preview: what it would do). */
const runLists = (decision: Decision) => ({
  added: decision.adds.destination.map((track) => named(track)),
  addedToSource: decision.adds.source.map((track) => named(track)),
  removed: decision.removes.destination.map((track) => named(track)),
  removedFromSource: decision.removes.source.map((track) => named(track)),
  listedRemovals: decision.listed,
  notAdded: decision.notAdded,
  conflicts: decision.conflicts,
  unchanged: decision.unchanged,
});

/** A two-way run, steps 1 to 8 (see above). */
export async function runTwoWay(deps: AppDeps, input: TwoWayRunInput, context: TwoWayJobContext) {
  const { run, sync, finish } = input;
  const progress = (phase: string, message: string) =>
    context.progress({ done: 0, total: 0, phase, message }).catch(() => undefined);
  await progress('reading', 'Reading both playlists…');
  const resuming = context.job.attempts > 1 || context.state !== undefined;
  const sides = await readSides(deps, sync, resuming);
  // A resumed run that had checkpointed may have written already: its read is not a change made
  // outside Crossfade, and the run's own version (after writing) holds both attempts' writes.
  if (context.state === undefined) await recordSideReads(deps, sync, sides);
  const confirmed = run.removalsConfirmed;
  const collapsed = run.dryRun || confirmed ? null : collapsedReadStop(sides, sync.twoWayBase);
  if (collapsed) {
    await finish({ status: 'needs_confirmation', error: collapsed });
    return { runId: run.id, needsConfirmation: true };
  }
  const plan = planMerge(sync.twoWayBase, {
    source: sides.source.tracks,
    destination: sides.destination.tracks,
  });
  await progress(
    'matching',
    `Matching ${plan.newOnSource.length + plan.newOnDestination.length} new tracks…`,
  );
  const matched = await matchBothWays(deps, input, sides, plan);
  const decision = decideWrites(sides, plan, matched, sync.removals);
  const lists = runLists(decision);
  if (run.dryRun) {
    await finish({ status: 'succeeded', ...lists, error: null });
    return { runId: run.id, dryRun: true };
  }
  const tooMany = confirmed ? null : removalStop(sides, decision);
  if (tooMany) {
    await finish({ status: 'needs_confirmation', ...lists, error: tooMany });
    return { runId: run.id, needsConfirmation: true };
  }
  const planned = plannedWrites(sides, decision, context.state);
  await context.checkpoint(planned, { done: 0, total: 0, phase: 'writing' });
  await progress('writing', 'Writing both playlists…');
  const written = await writeBothSides(deps, input, sides, decision, planned, context);
  const counts = {
    source: sides.source.tracks.length + decision.adds.source.length - decision.removes.source.length,
    destination:
      sides.destination.tracks.length +
      decision.adds.destination.length -
      decision.removes.destination.length,
  };
  await updateSync(deps.db, sync.id, {
    twoWayBase: nextBase(
      written.entries,
      written.rebuilt ? { ...counts, [written.rebuilt]: written.rebuiltCount } : counts,
    ),
    sourcePlaylistName: sides.source.name,
    nextRunAt: nextRunAfter(sync.schedule, new Date()),
  });
  const named2 = (tracks: SyncSideTrack[]) => tracks.map((track) => named(track));
  await finish({
    status: 'succeeded',
    ...lists,
    // Reported from what the run (with any earlier attempt) set out to write.
    added: named2(written.writes.destination.added),
    addedToSource: named2(written.writes.source.added),
    removed: named2(written.writes.destination.removed),
    removedFromSource: named2(written.writes.source.removed),
    listedRemovals: written.rebuilt ? [] : lists.listedRemovals,
    verifiedTracks: written.verified,
    verificationMissing: written.missing,
    writes: written.writes,
    error: null,
  });
  return { runId: run.id, added: decision.adds.destination.length + decision.adds.source.length };
}

/** Step 7 and 8: writes on both sides (or the rebuild), then the read-back of every side written. */
async function writeBothSides(
  deps: AppDeps,
  input: TwoWayRunInput,
  sides: Sides,
  decision: Decision,
  planned: TwoWayState,
  context: TwoWayJobContext,
) {
  const writes: SyncRunWrites = { source: { ...planned.source }, destination: { ...planned.destination } };
  let entries = decision.entries;
  let rebuilt: Side | null = null;
  let rebuiltCount = 0;
  const rebuildSide = input.run.rebuild ? appleSide(sides) : null;
  for (const side of ['destination', 'source'] as const) {
    if (side === rebuildSide) continue;
    const playlistId = await applyToSide(deps, input.sync, sides[side], decision, context);
    writes[side].playlistId = playlistId;
    sides[side].playlistId = playlistId;
  }
  let verified = 0;
  const missing: Awaited<ReturnType<typeof verifyDestination>>['missing'] = [];
  for (const side of ['destination', 'source'] as const) {
    const playlistId = sides[side].playlistId;
    if (side === rebuildSide || !playlistId || writes[side].added.length === 0) continue;
    const result = await verifyDestination(
      sides[side].provider,
      playlistId,
      writes[side].added.map((track, position) => ({ position, track: asTrack(track) })),
      { beforeWrite: context.holdLease },
    );
    verified += result.verified;
    missing.push(...result.missing);
  }
  if (rebuildSide) {
    // The Apple side's adds of this run are part of the merged state the new playlist holds.
    const result = await rebuildAppleSide(deps, input.sync, input.run, sides, entries);
    writes[result.side] = {
      service: 'apple',
      playlistId: result.playlistId,
      added: result.tracks,
      removed: [],
      ...(result.rebuiltFrom ? { rebuiltFrom: result.rebuiltFrom } : {}),
    };
    // What was listed (on the Apple side only) is not in the new playlist: the base forgets it.
    entries = entries.filter((entry) => entry.source && entry.destination);
    rebuilt = result.side;
    rebuiltCount = result.tracks.length;
    verified += result.verification.verified;
    missing.push(...result.verification.missing);
  }
  await recordSideWrites(deps, input, sides, writes);
  return { writes, entries, rebuilt, rebuiltCount, verified, missing };
}

/** Both sides as read are versions of their playlists' history (decision 0030). */
async function recordSideReads(deps: AppDeps, sync: SyncRecord, sides: Sides) {
  for (const side of ['source', 'destination'] as const) {
    const { playlistId, service, name, tracks } = sides[side];
    if (!playlistId) continue;
    await history.read(deps, {
      userId: sync.userId,
      service,
      playlistId,
      contents: {
        playlist: { id: playlistId, name, trackCount: tracks.length },
        entries: tracks.map((track, position) => ({ position, kind: 'track' as const, track })),
      },
      cause: 'sync',
    });
  }
}

/**
 * The side an undo of this run takes back: the one that can change in place (Spotify; the destination if
 * both are), since an Apple Music playlist can only be undone into a new one. Its version carries the run's
 * origin; the other side's version carries that origin with the side's name, so it stays in the history.
 */
const undoSide = (sides: Sides): Side =>
  sides.destination.service === 'spotify' || sides.source.service !== 'spotify' ? 'destination' : 'source';

/** Every side this run wrote is a new version of its playlist, read once more with its client. */
async function recordSideWrites(deps: AppDeps, input: TwoWayRunInput, sides: Sides, writes: SyncRunWrites) {
  const main = undoSide(sides);
  for (const side of ['source', 'destination'] as const) {
    const written = writes[side];
    const playlistId = written.playlistId;
    if (!playlistId || (written.added.length === 0 && written.removed.length === 0)) continue;
    const origin = syncRunOrigin(input.sync.id, input.run.id);
    await history.wrote(deps, {
      userId: input.sync.userId,
      service: sides[side].service,
      playlistId,
      provider: sides[side].provider,
      cause: 'sync',
      origin: side === main ? origin : `${origin}:${side}`,
    });
  }
}
