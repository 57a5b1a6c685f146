import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { BACKUPS_KEPT_PER_SERVICE } from '../../shared/api/vault';
import { SERVICE_LABELS, type ServiceId, serviceIdSchema } from '../../shared/services';
import type { AppDeps } from '../app-context';
import { DomainError } from '../domain-errors';
import { history } from '../history/history-hooks';
import { defineJob } from '../jobs/define-job';
import type { JobContext } from '../jobs/job-runner';
import { PermanentJobError, RetryLater } from '../jobs/job-runner';
import { ProviderError } from '../providers/http';
import { normalizedTrackSchema } from '../providers/normalized-track-schema';
import type { MusicProvider, NormalizedTrack } from '../providers/types';
import type { StoredBackupContents, StoredBackupPlaylist, UnreadablePlaylist } from './backup-contents';
import { connectedServices, insertSnapshot, planOfUser, pruneSnapshots } from './backup-store';

export const BACKUP_JOB = 'backup';

export const backupJobPayloadSchema = z.object({
  userId: z.uuid(),
  trigger: z.enum(['scheduled', 'manual']),
});
export type BackupJobPayload = z.infer<typeof backupJobPayloadSchema>;

/** The checkpoint: services already saved, and the one in progress with the playlists read so far. */
const backupStateSchema = z.object({
  finished: z.array(z.object({ service: serviceIdSchema, snapshotId: z.string() })),
  current: z
    .object({
      service: serviceIdSchema,
      /** Chosen before the insert, so a run that crashed after inserting does not save the snapshot twice. */
      snapshotId: z.string(),
      listed: z.array(z.object({ id: z.string(), name: z.string() })).nullable(),
      playlists: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          description: z.string().nullable(),
          tracks: z.array(normalizedTrackSchema),
          skippedEntries: z.number().int().nonnegative(),
        }) satisfies z.ZodType<StoredBackupPlaylist>,
      ),
      unreadable: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          reason: z.string(),
        }) satisfies z.ZodType<UnreadablePlaylist>,
      ),
    })
    .nullable(),
});
type BackupState = z.infer<typeof backupStateSchema>;

/** Provider failures that say this playlist cannot be read, as opposed to "try again later". */
const UNREADABLE_KINDS = new Set<ProviderError['kind']>(['forbidden', 'not_found', 'not_registered']);

/**
 * Vault+ backup of every connected service: each playlist with its tracks goes into one snapshot per
 * service. The job checkpoints after every playlist, so a run that dies resumes where it stopped.
 */
export function createBackupJobHandler(deps: AppDeps) {
  return async ({ userId, trigger }: BackupJobPayload, context: JobContext<BackupState>) => {
    const plan = await planOfUser(deps.db, userId);
    if (!plan) throw new PermanentJobError('This account no longer exists.');
    if (plan !== 'vault') throw new PermanentJobError('Backups are a Vault+ feature: see /pricing.');

    const connected = await connectedServices(deps.db, userId);
    const state: BackupState = context.state ?? { finished: [], current: null };
    const pending = connected.filter((service) => !state.finished.some((done) => done.service === service));
    if (connected.length === 0) {
      throw new PermanentJobError('Connect Spotify or Apple Music to back up your playlists.');
    }

    for (const service of pending) {
      let provider: MusicProvider;
      try {
        provider = await deps.providers.forUser(userId, service);
      } catch (error) {
        // Disconnected while the job waited: nothing to back up there.
        if (error instanceof DomainError) continue;
        throw error;
      }
      await backUpService(deps, context, state, { userId, trigger, service, provider });
    }
    return { snapshots: state.finished };
  };
}

async function backUpService(
  deps: AppDeps,
  context: JobContext<BackupState>,
  state: BackupState,
  run: { userId: string; trigger: BackupJobPayload['trigger']; service: ServiceId; provider: MusicProvider },
) {
  const { service, provider } = run;
  const label = SERVICE_LABELS[service];
  if (state.current?.service !== service) {
    state.current = { service, snapshotId: randomUUID(), listed: null, playlists: [], unreadable: [] };
  }
  const current = state.current;
  const progress = (done: number, total: number) => ({
    done,
    total,
    phase: 'backing_up',
    message: `Backing up your ${label} playlists (${done} of ${total})`,
  });

  if (!current.listed) {
    const playlists = await withProviderRetry(() => provider.listPlaylists());
    current.listed = playlists.map((playlist) => ({ id: playlist.id, name: playlist.name }));
    await context.checkpoint(state, progress(0, current.listed.length));
  }

  const listed = current.listed;
  for (const entry of listed) {
    if (context.signal.aborted) throw context.signal.reason ?? new Error('The backup was stopped.');
    const done = new Set([...current.playlists, ...current.unreadable].map((playlist) => playlist.id));
    if (done.has(entry.id)) continue;
    try {
      const contents = await withProviderRetry(() => provider.getPlaylist(entry.id));
      await history.read(deps, {
        userId: run.userId,
        service,
        playlistId: entry.id,
        contents,
        cause: 'backup',
        origin: `backup:${current.snapshotId}`,
      });
      const tracks: NormalizedTrack[] = [];
      let skippedEntries = 0;
      for (const item of contents.entries) {
        if (item.kind === 'track') tracks.push(withoutAvailability(item.track));
        else skippedEntries++;
      }
      current.playlists.push({
        id: entry.id,
        name: contents.playlist.name,
        description: contents.playlist.description ?? null,
        tracks,
        skippedEntries,
      });
    } catch (error) {
      if (!(error instanceof ProviderError && UNREADABLE_KINDS.has(error.kind))) throw error;
      current.unreadable.push({ id: entry.id, name: entry.name, reason: error.message });
    }
    await context.checkpoint(
      state,
      progress(current.playlists.length + current.unreadable.length, listed.length),
    );
  }

  const contents: StoredBackupContents = { playlists: current.playlists, unreadable: current.unreadable };
  await insertSnapshot(deps.db, {
    id: current.snapshotId,
    userId: run.userId,
    service,
    trigger: run.trigger,
    contents,
  });
  await pruneSnapshots(deps.db, run.userId, service, BACKUPS_KEPT_PER_SERVICE);
  state.finished.push({ service, snapshotId: current.snapshotId });
  state.current = null;
  await context.checkpoint(state, progress(listed.length, listed.length));
}

/** A long rate-limit wait gives the worker slot back instead of sleeping in it. */
async function withProviderRetry<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProviderError && error.kind === 'rate_limited') {
      throw new RetryLater(error.retryAfterMs ?? 30_000, error.message);
    }
    if (error instanceof ProviderError && error.kind === 'reconnect_required') {
      throw new PermanentJobError(error.message);
    }
    throw error;
  }
}

/** Availability describes the moment of the backup in one region; the restore checks it afresh. */
function withoutAvailability(track: NormalizedTrack): NormalizedTrack {
  const { availability: _availability, ...rest } = track;
  return rest;
}

export const backupJob = defineJob({
  kind: BACKUP_JOB,
  payloadSchema: backupJobPayloadSchema,
  stateSchema: backupStateSchema,
  handler: createBackupJobHandler,
});
