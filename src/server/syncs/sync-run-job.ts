import { eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  SYNC_PLAN_MESSAGE,
  SYNC_REMOVAL_CONFIRM_SHARE,
  type SyncTrack,
  syncTrackSchema,
} from '../../shared/api/syncs';
import { SERVICE_LABELS } from '../../shared/services';
import { createMatchingTieBreaker } from '../ai/matching-tie-breaker';
import type { AppDeps } from '../app-context';
import { syncRuns, syncs, users } from '../db/schema';
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
import type { MusicProvider, NormalizedTrack, PlaylistEntry } from '../providers/types';
import { DatabaseMatchCache } from '../transfers/db-match-cache';
import { findMarkedPlaylist } from '../transfers/destination-progress';
import { classifyJobError, JOB_INLINE_WAIT_MS } from '../transfers/job-errors';
import { unknownRegionMessage } from '../transfers/match-job';
import { type MatchRowRecord, rowFromMatch, rowFromSkippedEntry } from '../transfers/match-rows';
import { loadRules, ruledRow, ruleKeyOf } from '../transfers/match-rules';
import { tracksToAdd } from '../transfers/transfer-job';
import { verifyDestination } from '../transfers/verify-destination';
import { nextRunAfter } from './sync-interval';

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

export const syncMarker = (syncId: string) => `crossfade-sync:${syncId.slice(0, 8)}`;

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
  planned: z.object({
    keys: z.array(z.string()),
    added: z.array(syncTrackSchema),
    expected: z.array(z.object({ position: z.number().int().nonnegative(), track: normalizedTrackSchema })),
    removedKeys: z.array(z.string()),
    removed: z.array(syncTrackSchema),
  }),
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

export function createSyncRunJobHandler(deps: AppDeps) {
  return async ({ runId }: SyncRunPayload, context: JobContext<SyncRunState>) => {
    const [run] = await deps.db.select().from(syncRuns).where(eq(syncRuns.id, runId));
    if (!run) throw new PermanentJobError('The sync run no longer exists.');
    const [sync] = await deps.db.select().from(syncs).where(eq(syncs.id, run.syncId));
    if (!sync) throw new PermanentJobError('The sync no longer exists.');
    const [owner] = await deps.db.select({ plan: users.plan }).from(users).where(eq(users.id, sync.userId));
    const finish = async (change: Partial<typeof syncRuns.$inferInsert>) => {
      await deps.db
        .update(syncRuns)
        .set({ ...change, completedAt: new Date() })
        .where(eq(syncRuns.id, runId));
    };
    try {
      // A run queued before a downgrade does not run on the Free plan.
      if (owner?.plan === 'free') throw new PermanentJobError(SYNC_PLAN_MESSAGE);
      await deps.db.update(syncRuns).set({ status: 'running' }).where(eq(syncRuns.id, runId));
      const progress = (phase: string, message?: string) =>
        context
          .progress({ done: 0, total: 0, phase, ...(message ? { message } : {}) })
          .catch(() => undefined);
      await progress('reading', 'Reading the playlists…');

      // 1. The source, and the destination as it is now.
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
      await history.readSyncPair(deps, sync, source, { playlistId, entries });
      const present = destinationIndex(entries);

      // 2. Which source tracks are already there, by recording.
      const synced = new Map(sync.synced.map((recording) => [recording.sourceKey, recording]));
      const sourceTracks = source.entries.flatMap((entry) => (entry.kind === 'track' ? [entry] : []));
      const sourceKeys = new Set<string>();
      const keep: SyncedRecording[] = [];
      const toMatch: typeof sourceTracks = [];
      // The same recording twice in the source is added once; the second is listed, so the run's figures
      // (added, already there, not added) account for every track of the source.
      const repeated: typeof sourceTracks = [];
      for (const entry of sourceTracks) {
        const key = ruleKeyOf(entry.track);
        if (sourceKeys.has(key)) {
          repeated.push(entry);
          continue;
        }
        sourceKeys.add(key);
        const known = synced.get(key);
        const sameIsrc = normalizeIsrc(entry.track.isrc)
          ? present.find({ isrc: entry.track.isrc })
          : undefined;
        if (
          known &&
          present.holds({ id: known.destinationId, uri: known.destinationUri, isrc: known.isrc })
        ) {
          keep.push(known);
        } else if (sameIsrc) {
          // Already there under the same ISRC (added by hand, or under another id of the recording).
          keep.push(recordingOf(key, sameIsrc));
        } else {
          toMatch.push(entry);
        }
      }

      // 3. Match what is new, as a transfer would (the person's rules decide their rows).
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
      const rows = toMatch.map((entry, index) => {
        const match = matches[index];
        if (!match) throw new Error('matching returned fewer results than sources');
        // Rows as a match run stores them (the run's id stands in for a match set: they are never stored).
        const row = rowFromMatch(run.id, entry.position, match);
        const rule = rules.get(ruleKeyOf(entry.track));
        return (rule ? ruledRow(row, rule) : row) as unknown as MatchRowRecord;
      });
      const selected = tracksToAdd(rows, false);
      const chosenPositions = new Set(selected.map((item) => item.row.position));
      // Entries that are not songs (local files, episodes, unavailable) are listed with why, as in a transfer.
      const skippedRows = source.entries.flatMap((entry) =>
        entry.kind === 'skipped' ? [rowFromSkippedEntry(run.id, entry) as unknown as MatchRowRecord] : [],
      );
      const notAdded = [
        ...[...rows, ...skippedRows]
          .filter((row) => !chosenPositions.has(row.position))
          .map((row) => ({
            position: row.position,
            track: named(
              row.source,
              row.status === 'skipped'
                ? row.decidedBy === 'person'
                  ? 'Your rule: not on this service'
                  : (row.reasons[0] ?? 'Not a song')
                : row.status === 'review'
                  ? 'No confident match: review it in a transfer to make a rule'
                  : 'Not found',
            ),
          })),
        ...repeated.map((entry) => ({
          position: entry.position,
          track: named(entry.track, REPEATED_IN_SOURCE),
        })),
      ]
        .sort((a, b) => a.position - b.position)
        .map((item) => item.track);
      const toAdd: { key: string; position: number; source: NormalizedTrack; track: NormalizedTrack }[] = [];
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

      // 4. Removals: what this sync put in that the source no longer holds, still in the destination.
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
      const added = toAdd.map((item) => named(item.track));
      const removed = removals.map((recording) => named(recording));
      const planned = { added, removed, listedRemovals, notAdded, unchanged: keep.length };

      if (run.dryRun) {
        await finish({ status: 'succeeded', ...planned, error: null });
        return { runId, dryRun: true };
      }
      const removalLimit = Math.max(0, present.trackCount) * SYNC_REMOVAL_CONFIRM_SHARE;
      if (removals.length > 0 && removals.length > removalLimit && !run.removalsConfirmed) {
        await finish({
          status: 'needs_confirmation',
          ...planned,
          error: `This run would remove ${removals.length} of the ${present.trackCount} tracks in the playlist (more than ${Math.round(SYNC_REMOVAL_CONFIRM_SHARE * 100)} %). Confirm to go on.`,
        });
        return { runId, needsConfirmation: true };
      }

      // What this run sets out to write, checkpointed first; a resumed run keeps what its first attempt planned.
      const previous = context.state?.planned;
      const plannedKeys = new Set(previous?.keys ?? []);
      const plannedRemovedKeys = new Set(previous?.removedKeys ?? []);
      const freshAdds = toAdd.filter((item) => !plannedKeys.has(item.key));
      const freshRemovals = removals.filter((recording) => !plannedRemovedKeys.has(recording.sourceKey));
      const plan: SyncRunState['planned'] = {
        keys: [...plannedKeys, ...freshAdds.map((item) => item.key)],
        added: [...(previous?.added ?? []), ...freshAdds.map((item) => named(item.track))],
        expected: [
          ...(previous?.expected ?? []),
          ...freshAdds.map((item) => ({ position: item.position, track: item.track })),
        ],
        removedKeys: [...plannedRemovedKeys, ...freshRemovals.map((recording) => recording.sourceKey)],
        removed: [...(previous?.removed ?? []), ...freshRemovals.map((recording) => named(recording))],
      };
      await context.checkpoint({ planned: plan } satisfies SyncRunState, {
        done: 0,
        total: plan.expected.length,
        phase: 'adding',
      });
      const planKeys = new Set(plan.keys);

      // Writes: create the destination on the first real run, add in source order, remove, read back.
      if (!playlistId) {
        await progress('creating', 'Creating the playlist…');
        const created = await destination.createPlaylist(
          source.playlist.name,
          `Kept in sync with ${SERVICE_LABELS[sync.sourceService]} by Crossfade (${syncMarker(sync.id)})`,
        );
        playlistId = created.id;
        await deps.db
          .update(syncs)
          .set({ destinationPlaylistId: created.id, destinationUrl: created.url || null })
          .where(eq(syncs.id, sync.id));
      }
      const targetId = playlistId;
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
      let readBack: { name: string; entries: PlaylistEntry[] } | null = null;
      const verification =
        plan.expected.length === 0
          ? { verified: 0, missing: [] }
          : await verifyDestination(destination, targetId, plan.expected, {
              onPhase: (phase) => progress(phase),
              beforeWrite: context.holdLease,
              onRead: (read) => {
                readBack = { name: source.playlist.name, entries: read };
              },
            });
      await history.wrote(deps, {
        userId: sync.userId,
        service: sync.destinationService,
        playlistId: targetId,
        provider: destination,
        cause: 'sync',
        origin: syncRunOrigin(sync.id, runId),
        readBack,
      });
      const removedKeys = new Set(removals.map((recording) => recording.sourceKey));
      const nextSynced = [
        ...keep,
        ...toAdd.map((item) => recordingOf(item.key, item.track)),
        // Listed removals stay known, so the next run lists them again until they are gone.
        ...gone.filter((recording) => !removedKeys.has(recording.sourceKey)),
      ];
      await deps.db
        .update(syncs)
        .set({
          synced: nextSynced,
          sourcePlaylistName: source.playlist.name,
          nextRunAt: nextRunAfter(sync.schedule, new Date()),
        })
        .where(eq(syncs.id, sync.id));
      await finish({
        status: 'succeeded',
        ...planned,
        added: plan.added,
        removed: plan.removed,
        // Recordings this run added in an earlier attempt are its additions, not "already there".
        unchanged: keep.filter((recording) => !planKeys.has(recording.sourceKey)).length,
        verifiedTracks: plan.expected.length === 0 ? null : verification.verified,
        verificationMissing: verification.missing,
        error: null,
      });
      return { runId, added: toAdd.length, removed: removals.length };
    } catch (error) {
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
      throw classified;
    }
  };
}

export const syncRunJob = defineJob({
  kind: SYNC_RUN_JOB,
  payloadSchema: syncRunPayloadSchema,
  stateSchema: syncRunStateSchema,
  handler: createSyncRunJobHandler,
});
