import { and, asc, desc, eq, exists, notInArray, sql } from 'drizzle-orm';
import type { BackupSummary } from '../../shared/api/vault';
import type { ServiceId } from '../../shared/services';
import type { AppDeps } from '../app-context';
import type { Database } from '../db/client';
import { backupPlaylists, backups, providerConnections, users } from '../db/schema';
import { isUuid } from '../db/uuid';
import { notFound } from '../domain-errors';

/** The only SQL of Vault+ backups: their headers, the playlists they link, and who is due one. */

/** One playlist a backup read: what its link row keeps, and how many tracks it had. */
export interface BackupPlaylistRead {
  id: string;
  name: string;
  description: string | null;
  skippedEntries: number;
  trackCount: number;
  versionId: string;
}

export interface UnreadablePlaylist {
  id: string;
  name: string;
  reason: string;
}

export type BackupRow = typeof backups.$inferSelect;
export type BackupPlaylistRow = typeof backupPlaylists.$inferSelect;

export function toBackupSummary(
  row: Pick<BackupRow, 'id' | 'service' | 'createdAt' | 'trigger' | 'playlistCount' | 'trackCount'>,
): BackupSummary {
  return {
    id: row.id,
    service: row.service,
    createdAt: row.createdAt.toISOString(),
    trigger: row.trigger,
    playlistCount: row.playlistCount,
    trackCount: row.trackCount,
  };
}

export async function listBackups(deps: AppDeps, userId: string): Promise<BackupSummary[]> {
  const rows = await deps.db
    .select({
      id: backups.id,
      service: backups.service,
      trigger: backups.trigger,
      playlistCount: backups.playlistCount,
      trackCount: backups.trackCount,
      createdAt: backups.createdAt,
    })
    .from(backups)
    .where(eq(backups.userId, userId))
    .orderBy(desc(backups.createdAt));
  return rows.map(toBackupSummary);
}

/** One of the person's backups (another person's, or an id that is none, reads as absent). */
export async function loadBackup(db: Database, userId: string, backupId: string): Promise<BackupRow> {
  const [row] = isUuid(backupId)
    ? await db
        .select()
        .from(backups)
        .where(and(eq(backups.id, backupId), eq(backups.userId, userId)))
    : [];
  if (!row) throw notFound('That backup does not exist (any more).');
  return row;
}

/** A backup's playlists in the order the service listed them, each with the version it links. */
export async function loadBackupPlaylists(db: Database, backupId: string): Promise<BackupPlaylistRow[]> {
  return db
    .select()
    .from(backupPlaylists)
    .where(eq(backupPlaylists.backupId, backupId))
    .orderBy(asc(backupPlaylists.position));
}

/**
 * Deletes every backup of a person (issue 22: 30 days after leaving Vault+), with their links to the
 * playlist versions; the versions stay, as the playlists' history. Answers how many.
 */
export async function deleteBackupsOfUser(db: Database, userId: string): Promise<number> {
  const deleted = await db.delete(backups).where(eq(backups.userId, userId)).returning({ id: backups.id });
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

/**
 * Saves a backup's header and its links once, in one transaction: its id is chosen before, so a resumed
 * run does not save it twice.
 */
export async function insertBackup(
  db: Database,
  backup: {
    id: string;
    userId: string;
    service: ServiceId;
    trigger: 'scheduled' | 'manual';
    playlists: BackupPlaylistRead[];
    unreadable: UnreadablePlaylist[];
  },
) {
  const { playlists, ...header } = backup;
  await db.transaction(async (tx) => {
    await tx
      .insert(backups)
      .values({
        ...header,
        playlistCount: playlists.length,
        trackCount: playlists.reduce((sum, playlist) => sum + playlist.trackCount, 0),
      })
      .onConflictDoNothing({ target: backups.id });
    await insertBackupPlaylists(tx, backup.id, playlists);
  });
}

/** A backup's links to the versions it holds, in order; those already there are left as they are. */
export async function insertBackupPlaylists(db: Database, backupId: string, playlists: BackupPlaylistRead[]) {
  if (playlists.length === 0) return;
  await db
    .insert(backupPlaylists)
    .values(
      playlists.map((playlist, position) => ({
        backupId,
        position,
        versionId: playlist.versionId,
        name: playlist.name,
        description: playlist.description,
        skippedEntries: playlist.skippedEntries,
      })),
    )
    .onConflictDoNothing();
}

/** Keeps the newest `kept` backups of a person's service, so a year of daily backups does not pile up. */
export async function pruneBackups(db: Database, userId: string, service: ServiceId, kept: number) {
  const mine = and(eq(backups.userId, userId), eq(backups.service, service));
  const newest = await db
    .select({ id: backups.id })
    .from(backups)
    .where(mine)
    .orderBy(desc(backups.createdAt))
    .limit(kept);
  if (newest.length < kept) return;
  await db.delete(backups).where(
    and(
      mine,
      notInArray(
        backups.id,
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

/**
 * The upgrade of decision 0038 (vault/backup-upgrade.ts): the backups whose `contents` column (dropped by
 * migration 0021) still holds their playlists, oldest first; none once the column is gone.
 */
export async function backupsWithContents(
  db: Database,
): Promise<{ id: string; userId: string; service: ServiceId; createdAt: Date }[]> {
  const column = await db.execute(
    sql`select 1 from information_schema.columns where table_schema = current_schema() and table_name = 'backups' and column_name = 'contents'`,
  );
  if (rowsOf(column).length === 0) return [];
  const rows = rowsOf<{ id: string; user_id: string; service: ServiceId; created_at: Date | string }>(
    await db.execute(sql`select id, user_id, service, created_at from backups order by created_at, id`),
  );
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    service: row.service,
    createdAt: new Date(row.created_at),
  }));
}

/** The old `contents` of one backup, as stored (parsed by `parseOldBackupContents`). */
export async function oldBackupContents(db: Database, backupId: string): Promise<unknown> {
  const rows = rowsOf<{ contents: unknown }>(
    await db.execute(sql`select contents from backups where id = ${backupId}`),
  );
  const contents = rows[0]?.contents;
  // node-postgres parses jsonb; PGlite does too, but a text answer is parsed here in case.
  return typeof contents === 'string' ? JSON.parse(contents) : contents;
}

/** Whether a backup has its links already (the upgrade of it finished). */
export async function hasBackupPlaylists(db: Database, backupId: string): Promise<boolean> {
  const [row] = await db
    .select({ position: backupPlaylists.position })
    .from(backupPlaylists)
    .where(eq(backupPlaylists.backupId, backupId))
    .limit(1);
  return row !== undefined;
}

function rowsOf<T = unknown>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
