import { asc, count, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
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

/** The person's rows of every table the export lists, read at once. */
export async function readExportRows(db: Database, userId: string) {
  const [
    connections,
    transferRows,
    sets,
    imports,
    exports,
    invitations,
    merged,
    linkRows,
    events,
    outbox,
    rules,
    syncRows,
    syncRunRows,
    batchRows,
  ] = await Promise.all([
    db
      .select({
        service: providerConnections.service,
        providerUserId: providerConnections.providerUserId,
        displayName: providerConnections.displayName,
        region: providerConnections.region,
        authorizedAt: providerConnections.authorizedAt,
        updatedAt: providerConnections.updatedAt,
      })
      .from(providerConnections)
      .where(eq(providerConnections.userId, userId)),
    db.select().from(transfers).where(eq(transfers.userId, userId)).orderBy(asc(transfers.createdAt)),
    db.select().from(matchSets).where(eq(matchSets.userId, userId)).orderBy(asc(matchSets.createdAt)),
    db
      .select()
      .from(importedPlaylists)
      .where(eq(importedPlaylists.userId, userId))
      .orderBy(asc(importedPlaylists.createdAt)),
    db
      .select({
        id: savedExports.id,
        format: savedExports.format,
        fileName: savedExports.fileName,
        contentType: savedExports.contentType,
        sizeBytes: savedExports.sizeBytes,
        playlistName: savedExports.playlistName,
        createdAt: savedExports.createdAt,
      })
      .from(savedExports)
      .where(eq(savedExports.userId, userId))
      .orderBy(asc(savedExports.createdAt)),
    db
      .select({
        id: mergeInvitations.id,
        friendEmail: mergeInvitations.friendEmail,
        inviterPlaylist: mergeInvitations.inviterPlaylist,
        friendPlaylist: mergeInvitations.friendPlaylist,
        status: mergeInvitations.status,
        mergedPlaylistId: mergeInvitations.mergedPlaylistId,
        createdAt: mergeInvitations.createdAt,
        expiresAt: mergeInvitations.expiresAt,
      })
      .from(mergeInvitations)
      .where(eq(mergeInvitations.inviterId, userId)),
    db.select().from(mergedPlaylists).where(eq(mergedPlaylists.userId, userId)),
    db.select().from(links).where(eq(links.userId, userId)).orderBy(asc(links.createdAt)),
    db
      .select({
        event: analyticsEvents.event,
        properties: analyticsEvents.properties,
        occurredAt: analyticsEvents.occurredAt,
      })
      .from(analyticsEvents)
      .where(eq(analyticsEvents.userId, userId))
      .orderBy(asc(analyticsEvents.occurredAt)),
    db
      .select({
        recipient: outboxMessages.recipient,
        subject: outboxMessages.subject,
        createdAt: outboxMessages.createdAt,
      })
      .from(outboxMessages)
      .where(eq(outboxMessages.senderId, userId)),
    db.select().from(matchRules).where(eq(matchRules.userId, userId)).orderBy(asc(matchRules.createdAt)),
    db.select().from(syncs).where(eq(syncs.userId, userId)).orderBy(asc(syncs.createdAt)),
    db.select().from(syncRuns).where(eq(syncRuns.userId, userId)).orderBy(asc(syncRuns.createdAt)),
    db.select().from(batches).where(eq(batches.userId, userId)).orderBy(asc(batches.createdAt)),
  ]);
  return {
    connections,
    transfers: transferRows,
    matchSets: sets,
    imports,
    exports,
    invitations,
    merged,
    links: linkRows,
    events,
    outbox,
    rules,
    syncs: syncRows,
    syncRuns: syncRunRows,
    batches: batchRows,
  };
}

export type ExportRows = Awaited<ReturnType<typeof readExportRows>>;

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
