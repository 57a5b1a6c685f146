import { and, asc, desc, eq, exists, notInArray } from 'drizzle-orm';
import type { BackupDetail, BackupSummary } from '../../shared/api/vault';
import type { ServiceId } from '../../shared/services';
import type { AppDeps } from '../app-context';
import type { Database } from '../db/client';
import { backupSnapshots, providerConnections, users } from '../db/schema';
import { isUuid } from '../db/uuid';
import { notFound } from '../domain-errors';
import type { StoredBackupContents } from './backup-contents';
import { toBackupDetail, toBackupSummary } from './backup-contents';

/** The only SQL of Vault+ backups: snapshots, and who is due one. */

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

export async function loadSnapshot(deps: AppDeps, userId: string, snapshotId: string) {
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

/** Deletes every backup of a person (issue 22: 30 days after leaving Vault+). Answers how many. */
export async function deleteBackupsOfUser(db: Database, userId: string): Promise<number> {
  const deleted = await db
    .delete(backupSnapshots)
    .where(eq(backupSnapshots.userId, userId))
    .returning({ id: backupSnapshots.id });
  return deleted.length;
}

/** The person's plan (undefined when the account is gone). */
export async function planOfUser(db: Database, userId: string) {
  const [user] = await db.select({ plan: users.plan }).from(users).where(eq(users.id, userId));
  return user?.plan;
}

/** The services the person has connected, in a stable order. */
export async function connectedServices(db: Database, userId: string): Promise<ServiceId[]> {
  const rows = await db
    .select({ service: providerConnections.service })
    .from(providerConnections)
    .where(eq(providerConnections.userId, userId))
    .orderBy(asc(providerConnections.service));
  return rows.map((row) => row.service);
}

/** Saves a snapshot once: its id is chosen before, so a resumed run does not save it twice. */
export async function insertSnapshot(
  db: Database,
  snapshot: {
    id: string;
    userId: string;
    service: ServiceId;
    trigger: 'scheduled' | 'manual';
    contents: StoredBackupContents;
  },
) {
  const { contents } = snapshot;
  await db
    .insert(backupSnapshots)
    .values({
      ...snapshot,
      playlistCount: contents.playlists.length,
      trackCount: contents.playlists.reduce((sum, playlist) => sum + playlist.tracks.length, 0),
    })
    .onConflictDoNothing({ target: backupSnapshots.id });
}

/** Keeps the newest `kept` snapshots of a person's service, so a year of daily backups does not pile up. */
export async function pruneSnapshots(db: Database, userId: string, service: ServiceId, kept: number) {
  const mine = and(eq(backupSnapshots.userId, userId), eq(backupSnapshots.service, service));
  const newest = await db
    .select({ id: backupSnapshots.id })
    .from(backupSnapshots)
    .where(mine)
    .orderBy(desc(backupSnapshots.createdAt))
    .limit(kept);
  if (newest.length < kept) return;
  await db.delete(backupSnapshots).where(
    and(
      mine,
      notInArray(
        backupSnapshots.id,
        newest.map((row) => row.id),
      ),
    ),
  );
}

/** Vault+ members with at least one connected service: who the daily backup is for. */
export async function vaultMembersWithConnections(db: Database): Promise<string[]> {
  const members = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.plan, 'vault'),
        exists(
          db
            .select({ userId: providerConnections.userId })
            .from(providerConnections)
            .where(eq(providerConnections.userId, users.id)),
        ),
      ),
    );
  return members.map((member) => member.id);
}
