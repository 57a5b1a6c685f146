import { and, asc, count, eq, getTableColumns, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { afterCursor, cursorColumns, type KeysetCursor, toKeysetPage } from '../db/keyset';
import {
  analyticsEvents,
  batches,
  importedPlaylists,
  linkSignups,
  links,
  linkViews,
  matchRows,
  matchRules,
  matchSets,
  mergedPlaylists,
  mergeInvitations,
  outboxMessages,
  providerConnections,
  savedExports,
  syncRuns,
  syncs,
  transfers,
  users,
} from '../db/schema';

/** The SQL of the account area: the person's row, their connections, and what "Download my data" reads. */

export type UserRow = typeof users.$inferSelect;

export async function findUserRow(db: Database, userId: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  return user;
}

/** Connected services as /account shows them (no tokens). */
export function listProfileConnections(db: Database, userId: string) {
  return db
    .select({
      service: providerConnections.service,
      displayName: providerConnections.displayName,
      region: providerConnections.region,
      authorizedAt: providerConnections.authorizedAt,
    })
    .from(providerConnections)
    .where(eq(providerConnections.userId, userId))
    .orderBy(asc(providerConnections.service));
}

export async function savePublicProfile(db: Database, userId: string, publicProfile: boolean) {
  await db.update(users).set({ publicProfile }).where(eq(users.id, userId));
}

/** Whether the person chose a public profile (undefined: no such person). */
export async function findPublicProfile(
  db: Database,
  userId: string,
): Promise<{ id: string; publicProfile: boolean } | undefined> {
  const [user] = await db
    .select({ id: users.id, publicProfile: users.publicProfile })
    .from(users)
    .where(eq(users.id, userId));
  return user;
}

export async function findUsername(db: Database, userId: string): Promise<string | undefined> {
  const [user] = await db.select({ username: users.username }).from(users).where(eq(users.id, userId));
  return user?.username;
}

/** Every table holding a person's rows references `users` ON DELETE CASCADE: this removes them all. */
export async function deleteUserRow(tx: Database, userId: string): Promise<void> {
  await tx.delete(users).where(eq(users.id, userId));
}

// ── "Download my data" ───────────────────────────────────────────────────────────────────────────────

/** The person's connected services, without tokens (at most one row per service). */
export function listExportConnections(db: Database, userId: string) {
  return db
    .select({
      service: providerConnections.service,
      providerUserId: providerConnections.providerUserId,
      displayName: providerConnections.displayName,
      region: providerConnections.region,
      authorizedAt: providerConnections.authorizedAt,
      updatedAt: providerConnections.updatedAt,
    })
    .from(providerConnections)
    .where(eq(providerConnections.userId, userId));
}

// What the download lists of transfers and match sets, without the large JSON it does not show (the CSV
// snapshot, a match set's source entries): a page holds rows, not whole playlists.
const { csvSnapshot: _snapshot, ...transferColumns } = getTableColumns(transfers);
const { sourceEntries: _entries, ...matchSetColumns } = getTableColumns(matchSets);

/** One reader per list of "Download my data": a page of the person's rows after `cursor`, oldest first. */
export const exportPages = {
  transfers: async (db: Database, userId: string, cursor: KeysetCursor | undefined, limit: number) =>
    toKeysetPage(
      await db
        .select({ ...transferColumns, ...cursorColumns(transfers.createdAt, transfers.id) })
        .from(transfers)
        .where(and(eq(transfers.userId, userId), afterCursor(transfers.createdAt, transfers.id, cursor)))
        .orderBy(asc(transfers.createdAt), asc(transfers.id))
        .limit(limit),
      limit,
    ),
  matchSets: async (db: Database, userId: string, cursor: KeysetCursor | undefined, limit: number) =>
    toKeysetPage(
      await db
        .select({ ...matchSetColumns, ...cursorColumns(matchSets.createdAt, matchSets.id) })
        .from(matchSets)
        .where(and(eq(matchSets.userId, userId), afterCursor(matchSets.createdAt, matchSets.id, cursor)))
        .orderBy(asc(matchSets.createdAt), asc(matchSets.id))
        .limit(limit),
      limit,
    ),
  imports: async (db: Database, userId: string, cursor: KeysetCursor | undefined, limit: number) =>
    toKeysetPage(
      await db
        .select({
          id: importedPlaylists.id,
          name: importedPlaylists.name,
          originService: importedPlaylists.originService,
          createdAt: importedPlaylists.createdAt,
          tracks: importedPlaylists.tracks,
          ...cursorColumns(importedPlaylists.createdAt, importedPlaylists.id),
        })
        .from(importedPlaylists)
        .where(
          and(
            eq(importedPlaylists.userId, userId),
            afterCursor(importedPlaylists.createdAt, importedPlaylists.id, cursor),
          ),
        )
        .orderBy(asc(importedPlaylists.createdAt), asc(importedPlaylists.id))
        .limit(limit),
      limit,
    ),
  exports: async (db: Database, userId: string, cursor: KeysetCursor | undefined, limit: number) =>
    toKeysetPage(
      await db
        .select({
          id: savedExports.id,
          format: savedExports.format,
          fileName: savedExports.fileName,
          contentType: savedExports.contentType,
          sizeBytes: savedExports.sizeBytes,
          playlistName: savedExports.playlistName,
          createdAt: savedExports.createdAt,
          ...cursorColumns(savedExports.createdAt, savedExports.id),
        })
        .from(savedExports)
        .where(
          and(eq(savedExports.userId, userId), afterCursor(savedExports.createdAt, savedExports.id, cursor)),
        )
        .orderBy(asc(savedExports.createdAt), asc(savedExports.id))
        .limit(limit),
      limit,
    ),
  invitations: async (db: Database, userId: string, cursor: KeysetCursor | undefined, limit: number) =>
    toKeysetPage(
      await db
        .select({
          id: mergeInvitations.id,
          friendEmail: mergeInvitations.friendEmail,
          inviterPlaylist: mergeInvitations.inviterPlaylist,
          friendPlaylist: mergeInvitations.friendPlaylist,
          status: mergeInvitations.status,
          mergedPlaylistId: mergeInvitations.mergedPlaylistId,
          createdAt: mergeInvitations.createdAt,
          expiresAt: mergeInvitations.expiresAt,
          ...cursorColumns(mergeInvitations.createdAt, mergeInvitations.id),
        })
        .from(mergeInvitations)
        .where(
          and(
            eq(mergeInvitations.inviterId, userId),
            afterCursor(mergeInvitations.createdAt, mergeInvitations.id, cursor),
          ),
        )
        .orderBy(asc(mergeInvitations.createdAt), asc(mergeInvitations.id))
        .limit(limit),
      limit,
    ),
  merged: async (db: Database, userId: string, cursor: KeysetCursor | undefined, limit: number) =>
    toKeysetPage(
      await db
        .select({
          ...getTableColumns(mergedPlaylists),
          ...cursorColumns(mergedPlaylists.createdAt, mergedPlaylists.id),
        })
        .from(mergedPlaylists)
        .where(
          and(
            eq(mergedPlaylists.userId, userId),
            afterCursor(mergedPlaylists.createdAt, mergedPlaylists.id, cursor),
          ),
        )
        .orderBy(asc(mergedPlaylists.createdAt), asc(mergedPlaylists.id))
        .limit(limit),
      limit,
    ),
  links: async (db: Database, userId: string, cursor: KeysetCursor | undefined, limit: number) =>
    toKeysetPage(
      await db
        .select({ ...getTableColumns(links), ...cursorColumns(links.createdAt, links.id) })
        .from(links)
        .where(and(eq(links.userId, userId), afterCursor(links.createdAt, links.id, cursor)))
        .orderBy(asc(links.createdAt), asc(links.id))
        .limit(limit),
      limit,
    ),
  events: async (db: Database, userId: string, cursor: KeysetCursor | undefined, limit: number) =>
    toKeysetPage(
      await db
        .select({
          event: analyticsEvents.event,
          properties: analyticsEvents.properties,
          occurredAt: analyticsEvents.occurredAt,
          ...cursorColumns(analyticsEvents.occurredAt, analyticsEvents.id),
        })
        .from(analyticsEvents)
        .where(
          and(
            eq(analyticsEvents.userId, userId),
            afterCursor(analyticsEvents.occurredAt, analyticsEvents.id, cursor),
          ),
        )
        .orderBy(asc(analyticsEvents.occurredAt), asc(analyticsEvents.id))
        .limit(limit),
      limit,
    ),
  outbox: async (db: Database, userId: string, cursor: KeysetCursor | undefined, limit: number) =>
    toKeysetPage(
      await db
        .select({
          recipient: outboxMessages.recipient,
          subject: outboxMessages.subject,
          createdAt: outboxMessages.createdAt,
          ...cursorColumns(outboxMessages.createdAt, outboxMessages.id),
        })
        .from(outboxMessages)
        .where(
          and(
            eq(outboxMessages.senderId, userId),
            afterCursor(outboxMessages.createdAt, outboxMessages.id, cursor),
          ),
        )
        .orderBy(asc(outboxMessages.createdAt), asc(outboxMessages.id))
        .limit(limit),
      limit,
    ),
  rules: async (db: Database, userId: string, cursor: KeysetCursor | undefined, limit: number) =>
    toKeysetPage(
      await db
        .select({ ...getTableColumns(matchRules), ...cursorColumns(matchRules.createdAt, matchRules.id) })
        .from(matchRules)
        .where(and(eq(matchRules.userId, userId), afterCursor(matchRules.createdAt, matchRules.id, cursor)))
        .orderBy(asc(matchRules.createdAt), asc(matchRules.id))
        .limit(limit),
      limit,
    ),
  syncs: async (db: Database, userId: string, cursor: KeysetCursor | undefined, limit: number) =>
    toKeysetPage(
      await db
        .select({ ...getTableColumns(syncs), ...cursorColumns(syncs.createdAt, syncs.id) })
        .from(syncs)
        .where(and(eq(syncs.userId, userId), afterCursor(syncs.createdAt, syncs.id, cursor)))
        .orderBy(asc(syncs.createdAt), asc(syncs.id))
        .limit(limit),
      limit,
    ),
  /** The runs of one of the person's syncs. */
  syncRuns: async (db: Database, syncId: string, cursor: KeysetCursor | undefined, limit: number) =>
    toKeysetPage(
      await db
        .select({ ...getTableColumns(syncRuns), ...cursorColumns(syncRuns.createdAt, syncRuns.id) })
        .from(syncRuns)
        .where(and(eq(syncRuns.syncId, syncId), afterCursor(syncRuns.createdAt, syncRuns.id, cursor)))
        .orderBy(asc(syncRuns.createdAt), asc(syncRuns.id))
        .limit(limit),
      limit,
    ),
  batches: async (db: Database, userId: string, cursor: KeysetCursor | undefined, limit: number) =>
    toKeysetPage(
      await db
        .select({ ...getTableColumns(batches), ...cursorColumns(batches.createdAt, batches.id) })
        .from(batches)
        .where(and(eq(batches.userId, userId), afterCursor(batches.createdAt, batches.id, cursor)))
        .orderBy(asc(batches.createdAt), asc(batches.id))
        .limit(limit),
      limit,
    ),
};

export type ExportRow<K extends keyof typeof exportPages> = Awaited<
  ReturnType<(typeof exportPages)[K]>
>['rows'][number];

/** Rows per match set, and the person's own decisions per set. */
export async function matchSetCounts(db: Database, setIds: string[]) {
  if (setIds.length === 0) return { rows: [], decisions: [] };
  const [rows, decisions] = await Promise.all([
    db
      .select({ id: matchRows.matchSetId, n: count() })
      .from(matchRows)
      .where(inArray(matchRows.matchSetId, setIds))
      .groupBy(matchRows.matchSetId),
    db
      .select({ id: matchRows.matchSetId, decidedBy: matchRows.decidedBy, n: count() })
      .from(matchRows)
      .where(inArray(matchRows.matchSetId, setIds))
      .groupBy(matchRows.matchSetId, matchRows.decidedBy),
  ]);
  return { rows, decisions };
}

/** Views and signups per sniper link. */
export async function linkCounts(db: Database, linkIds: string[]) {
  if (linkIds.length === 0) return { views: [], signups: [] };
  const [views, signups] = await Promise.all([
    db
      .select({ id: linkViews.linkId, n: count() })
      .from(linkViews)
      .where(inArray(linkViews.linkId, linkIds))
      .groupBy(linkViews.linkId),
    db
      .select({ id: linkSignups.linkId, n: count() })
      .from(linkSignups)
      .where(inArray(linkSignups.linkId, linkIds))
      .groupBy(linkSignups.linkId),
  ]);
  return { views, signups };
}
