import { and, desc, eq } from 'drizzle-orm';
import type { BackupDetail, BackupSummary, RestoreResponse } from '../../shared/api/vault';
import { SERVICE_LABELS, type ServiceId } from '../../shared/services';
import type { AppDeps } from '../app-context';
import type { Database } from '../db/client';
import { backupSnapshots } from '../db/schema';
import { isUuid } from '../db/uuid';
import { notFound } from '../domain-errors';
import { enqueue } from '../jobs/define-job';
import { findActiveJob } from '../jobs/job-store';
import { saveImportedPlaylist } from '../playlists/source-playlists';
import { parseBackupContents, toBackupDetail, toBackupSummary } from './backup-contents';
import { backupJob } from './backup-job';

/**
 * Starts a backup the person asked for. A second click while a backup is under way follows that one
 * instead of starting another.
 */
export async function requestManualBackup(deps: AppDeps, userId: string): Promise<{ jobId: string }> {
  const running = await findActiveJob(deps.db, { userId, kind: backupJob.kind });
  if (running) return { jobId: running.id };
  const job = await enqueue(deps.db, backupJob, {
    userId,
    payload: { userId, trigger: 'manual' },
    maxAttempts: 3,
  });
  deps.jobs.poke();
  return { jobId: job.id };
}

export async function listBackups(deps: AppDeps, userId: string): Promise<BackupSummary[]> {
  const rows = await deps.db
    .select({
      id: backupSnapshots.id,
      service: backupSnapshots.service,
      trigger: backupSnapshots.trigger,
      playlistCount: backupSnapshots.playlistCount,
      trackCount: backupSnapshots.trackCount,
      createdAt: backupSnapshots.createdAt,
    })
    .from(backupSnapshots)
    .where(eq(backupSnapshots.userId, userId))
    .orderBy(desc(backupSnapshots.createdAt));
  return rows.map(toBackupSummary);
}

async function loadSnapshot(deps: AppDeps, userId: string, snapshotId: string) {
  const [row] = isUuid(snapshotId)
    ? await deps.db
        .select()
        .from(backupSnapshots)
        .where(and(eq(backupSnapshots.id, snapshotId), eq(backupSnapshots.userId, userId)))
    : [];
  if (!row) throw notFound('That backup does not exist (any more).');
  return row;
}

export async function getBackup(deps: AppDeps, userId: string, snapshotId: string): Promise<BackupDetail> {
  return toBackupDetail(await loadSnapshot(deps, userId, snapshotId));
}

/**
 * Restores one playlist of a snapshot through the normal transfer pipeline: its tracks become an imported
 * playlist, which the wizard then matches, lets the person review, and creates on the destination.
 */
export async function restoreBackupPlaylist(
  deps: AppDeps,
  userId: string,
  snapshotId: string,
  input: { playlistId: string; destinationService: ServiceId },
): Promise<RestoreResponse> {
  const row = await loadSnapshot(deps, userId, snapshotId);
  const playlist = parseBackupContents(row.contents).playlists.find(
    (candidate) => candidate.id === input.playlistId,
  );
  if (!playlist) throw notFound('That playlist is not in this backup.');
  const day = row.createdAt.toISOString().slice(0, 10);
  const name = `${playlist.name} (${SERVICE_LABELS[row.service]} backup ${day})`;
  const id = await saveImportedPlaylist(deps, {
    userId,
    name,
    originService: row.service,
    tracks: playlist.tracks,
  });
  return {
    playlist: { id, name, trackCount: playlist.tracks.length },
    sourceService: row.service,
    destinationService: input.destinationService,
  };
}

/** Deletes every backup of a person (issue 22: 30 days after leaving Vault+). Answers how many. */
export async function deleteBackupsOfUser(db: Database, userId: string): Promise<number> {
  const deleted = await db
    .delete(backupSnapshots)
    .where(eq(backupSnapshots.userId, userId))
    .returning({ id: backupSnapshots.id });
  return deleted.length;
}
