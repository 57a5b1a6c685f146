import type { BackupDetail, RestoreResponse } from '../../shared/api/vault';
import { SERVICE_LABELS, type ServiceId } from '../../shared/services';
import type { AppDeps } from '../app-context';
import { notFound } from '../domain-errors';
import { enqueue } from '../jobs/define-job';
import { findActiveJob } from '../jobs/job-store';
import { saveImportedPlaylist } from '../playlists/source-playlists';
import { readBackupPlaylists, toBackupDetail } from './backup-contents';
import { backupJob } from './backup-job';
import { loadBackup } from './backup-store';

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

/** A backup with every playlist's tracks (GET /api/vault/backups/:id and its download). */
export async function getBackup(deps: AppDeps, userId: string, backupId: string): Promise<BackupDetail> {
  const row = await loadBackup(deps.db, userId, backupId);
  return toBackupDetail(row, await readBackupPlaylists(deps.db, row.id));
}

/**
 * Restores one playlist of a backup through the normal transfer pipeline: its tracks (read from the
 * version of the playlist's history the backup links) become an imported playlist, which the wizard then
 * matches, lets the person review, and creates on the destination.
 */
export async function restoreBackupPlaylist(
  deps: AppDeps,
  userId: string,
  backupId: string,
  input: { playlistId: string; destinationService: ServiceId },
): Promise<RestoreResponse> {
  const row = await loadBackup(deps.db, userId, backupId);
  const playlist = (await readBackupPlaylists(deps.db, row.id, input.playlistId)).find(
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
