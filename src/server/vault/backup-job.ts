import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { BACKUPS_KEPT_PER_SERVICE } from '../../shared/api/vault';
import { SERVICE_LABELS, type ServiceId, serviceIdSchema } from '../../shared/services';
import type { AppDeps } from '../app-context';
import { DomainError } from '../domain-errors';
import { recordBackupVersion } from '../history/playlist-history';
import { defineJob } from '../jobs/define-job';
import type { JobContext } from '../jobs/job-runner';
import { PermanentJobError, RetryLater } from '../jobs/job-runner';
import { ProviderError } from '../providers/http';
import type { MusicProvider } from '../providers/types';
import {
  type BackupPlaylistRead,
  connectedServices,
  insertBackup,
  planOfUser,
  pruneBackups,
  type UnreadablePlaylist,
} from './backup-store';

export const BACKUP_JOB = 'backup';

export const backupJobPayloadSchema = z.object({
  userId: z.uuid(),
  trigger: z.enum(['scheduled', 'manual']),
});
export type BackupJobPayload = z.infer<typeof backupJobPayloadSchema>;

/**
 * The checkpoint: services already saved, and the one in progress with the playlists read so far (each
 * with the version of its history that holds its tracks, decision 0038).
 */
const currentStateSchema = z.object({
  service: serviceIdSchema,
  /** Chosen before the insert, so a run that crashed after inserting does not save the backup twice. */
  backupId: z.string(),
  listed: z.array(z.object({ id: z.string(), name: z.string() })).nullable(),
  read: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      description: z.string().nullable(),
      skippedEntries: z.number().int().nonnegative(),
      trackCount: z.number().int().nonnegative(),
      versionId: z.string(),
    }) satisfies z.ZodType<BackupPlaylistRead>,
  ),
  unreadable: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      reason: z.string(),
    }) satisfies z.ZodType<UnreadablePlaylist>,
  ),
});

/**
 * A checkpoint saved before decision 0038 (`snapshotId`, playlists with their tracks) keeps the services
 * it finished; the one in progress starts over (its playlists are read again, nothing is saved twice).
 */
const olderState = z
  .object({
    finished: z.array(z.object({ service: serviceIdSchema, snapshotId: z.string() })),
    current: z.unknown(),
  })
  .transform((old) => ({
    finished: old.finished.map((done) => ({ service: done.service, backupId: done.snapshotId })),
    current: null,
  }));

const backupStateSchema = z.union([
  z.object({
    finished: z.array(z.object({ service: serviceIdSchema, backupId: z.string() })),
    current: currentStateSchema.nullable(),
  }),
  olderState,
]);
type BackupState = z.infer<typeof backupStateSchema>;

/** Provider failures that say this playlist cannot be read, as opposed to "try again later". */
const UNREADABLE_KINDS = new Set<ProviderError['kind']>(['forbidden', 'not_found', 'not_registered']);

/**
 * Vault+ backup of every connected service: one backup per service, each playlist's tracks a version of
 * its history. The job checkpoints after every playlist, so a run that dies resumes where it stopped.
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
    return { backups: state.finished };
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
    state.current = { service, backupId: randomUUID(), listed: null, read: [], unreadable: [] };
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
    const done = new Set([...current.read, ...current.unreadable].map((playlist) => playlist.id));
    if (done.has(entry.id)) continue;
    try {
      const contents = await withProviderRetry(() => provider.getPlaylist(entry.id));
      // Not through `history.read`, which logs a failure and goes on: a backup without its versions has
      // nothing in it, so a failure here fails the run (and the job retries from the checkpoint).
      const version = await recordBackupVersion(deps.db, {
        userId: run.userId,
        service,
        playlistId: entry.id,
        name: contents.playlist.name,
        entries: contents.entries,
        mode: 'read',
        cause: 'backup',
        origin: `backup:${current.backupId}`,
      });
      const trackCount = contents.entries.filter((item) => item.kind === 'track').length;
      current.read.push({
        id: entry.id,
        name: contents.playlist.name,
        description: contents.playlist.description ?? null,
        skippedEntries: contents.entries.length - trackCount,
        trackCount,
        versionId: version.id,
      });
    } catch (error) {
      if (!(error instanceof ProviderError && UNREADABLE_KINDS.has(error.kind))) throw error;
      current.unreadable.push({ id: entry.id, name: entry.name, reason: error.message });
    }
    await context.checkpoint(state, progress(current.read.length + current.unreadable.length, listed.length));
  }

  await insertBackup(deps.db, {
    id: current.backupId,
    userId: run.userId,
    service,
    trigger: run.trigger,
    playlists: current.read,
    unreadable: current.unreadable,
  });
  await pruneBackups(deps.db, run.userId, service, BACKUPS_KEPT_PER_SERVICE);
  state.finished.push({ service, backupId: current.backupId });
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

export const backupJob = defineJob({
  kind: BACKUP_JOB,
  payloadSchema: backupJobPayloadSchema,
  stateSchema: backupStateSchema,
  handler: createBackupJobHandler,
});
