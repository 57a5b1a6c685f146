import { z } from 'zod';
import { type RestoreResult, restorePlanSchema } from '../../shared/api/history';
import type { AppDeps } from '../app-context';
import { defineJob } from '../jobs/define-job';
import type { JobContext } from '../jobs/job-runner';
import { PermanentJobError } from '../jobs/job-runner';
import type { MusicProvider, NormalizedTrack, PlaylistEntry } from '../providers/types';
import { findMarkedPlaylist, settledProgress } from '../transfers/destination-progress';
import { classifyJobError, JOB_INLINE_WAIT_MS } from '../transfers/job-errors';
import { verifyDestination } from '../transfers/verify-destination';
import { history } from './history-hooks';
import { findOwnVersion, planRestore } from './restore-plan';

/**
 * A restore or an undo as a durable job (decision 0030): the plan (what the playlist holds afterwards) is
 * made on the first run and checkpointed; Spotify is rewritten in place (cleared unless what is there is
 * already the start of the plan, then added in order), Apple Music gets a new playlist, created once
 * (found again by the marker in its description). Every write is read back ("verified N of N") and the
 * result recorded as a version with cause `restore`.
 */
export const RESTORE_JOB = 'history-restore';

const payloadSchema = z.object({
  userId: z.uuid(),
  versionId: z.uuid(),
  mode: z.enum(['restore', 'undo']),
});
type RestorePayload = z.infer<typeof payloadSchema>;

const storedTrackSchema = z.object({
  id: z.string(),
  uri: z.string(),
  name: z.string(),
  artists: z.array(z.string()),
  album: z.string(),
  isrc: z.string().exactOptional(),
  durationMs: z.number().exactOptional(),
});

const stateSchema = z.object({
  plan: restorePlanSchema,
  target: z.array(storedTrackSchema),
  /** The playlist written: the same one, or (Apple) the new one once created. */
  playlistId: z.string().nullable(),
  playlistUrl: z.string().nullable(),
});
type RestoreState = z.infer<typeof stateSchema>;

export const restoreMarker = (jobId: string) => `crossfade-restore:${jobId.slice(0, 8)}`;

const asTrack = (track: RestoreState['target'][number]): NormalizedTrack => ({
  durationMs: 0,
  ...track,
});

/** Spotify: what is there is kept when it is the start of the plan; otherwise cleared first. */
async function writeInPlace(
  provider: MusicProvider,
  playlistId: string,
  uris: string[],
  context: JobContext,
) {
  const there = (await provider.getPlaylist(playlistId)).entries.flatMap((entry) =>
    entry.kind === 'track' ? [entry.track.uri] : [],
  );
  let kept =
    there.length <= uris.length && there.every((uri, index) => uris[index] === uri) ? there.length : 0;
  if (kept === 0 && there.length > 0) {
    if (!provider.removeTracks) throw new PermanentJobError('This playlist cannot have tracks removed.');
    await context.holdLease();
    await provider.removeTracks(playlistId, [...new Set(there)]);
    kept = 0;
  }
  if (kept < uris.length)
    await provider.addTracks(playlistId, uris.slice(kept), undefined, context.holdLease);
}

/** Apple Music: a new playlist, created once, filled in order (a resumed run goes on after what is there). */
async function writeNew(
  provider: MusicProvider,
  state: RestoreState,
  context: JobContext<RestoreState>,
  uris: string[],
): Promise<{ id: string; url: string | null }> {
  const marker = restoreMarker(context.job.id);
  let id = state.playlistId;
  let url = state.playlistUrl;
  if (!id) {
    const found = context.job.attempts > 1 ? await findMarkedPlaylist(provider, marker) : undefined;
    const created = found
      ? { id: found.id, url: found.url ?? '' }
      : await provider.createPlaylist(
          state.plan.newPlaylistName ?? 'Restored playlist',
          `${state.plan.why ?? ''} (${marker})`.trim(),
        );
    id = created.id;
    url = created.url || null;
    await context.checkpoint({ ...state, playlistId: id, playlistUrl: url });
  }
  const there = context.job.attempts > 1 ? await settledProgress(provider, id, uris, 0) : 0;
  if (there < uris.length) await provider.addTracks(id, uris.slice(there), undefined, context.holdLease);
  return { id, url };
}

export function createRestoreJobHandler(deps: AppDeps) {
  return async (payload: RestorePayload, context: JobContext<RestoreState>): Promise<RestoreResult> => {
    try {
      const { version, history: owner } = await findOwnVersion(deps.db, payload.userId, payload.versionId);
      const provider = await deps.providers.forUser(payload.userId, owner.service, {
        maxInlineWaitMs: JOB_INLINE_WAIT_MS,
      });
      let state = context.state;
      if (!state) {
        const contents = await provider.getPlaylist(owner.playlistId);
        await history.read(deps, { ...owner, contents, cause: 'restore' });
        const planned = await planRestore(
          deps.db,
          { ...payload, version, name: owner.name, service: owner.service, playlistId: owner.playlistId },
          provider,
          contents,
        );
        state = {
          plan: planned.plan,
          target: planned.target,
          playlistId: provider.appendOnly ? null : owner.playlistId,
          playlistUrl: contents.playlist.url ?? null,
        };
        await context.checkpoint(state, { done: 0, total: state.target.length, phase: 'restoring' });
      }
      const uris = state.target.map((track) => track.uri);
      let written: { id: string; url: string | null };
      if (provider.appendOnly || !state.playlistId) {
        written = await writeNew(provider, state, context, uris);
      } else {
        await writeInPlace(provider, state.playlistId, uris, context);
        written = { id: state.playlistId, url: state.playlistUrl };
      }
      await context.progress({ done: uris.length, total: uris.length, phase: 'verifying' });
      let readBack: { name: string; entries: PlaylistEntry[] } | null = null;
      const verification = await verifyDestination(
        provider,
        written.id,
        state.target.map((track, position) => ({ position, track: asTrack(track) })),
        {
          beforeWrite: context.holdLease,
          onRead: (entries) => {
            readBack = { name: state?.plan.newPlaylistName ?? owner.name, entries };
          },
        },
      );
      const versionId = await history.wrote(deps, {
        userId: payload.userId,
        service: owner.service,
        playlistId: written.id,
        provider,
        cause: 'restore',
        origin: `restore:${context.job.id}`,
        readBack,
      });
      return {
        playlistId: written.id,
        playlistUrl: written.url,
        verified: verification.verified,
        total: uris.length,
        versionId,
      };
    } catch (error) {
      throw classifyJobError(error);
    }
  };
}

export const restoreJob = defineJob({
  kind: RESTORE_JOB,
  payloadSchema,
  stateSchema,
  handler: createRestoreJobHandler,
});
