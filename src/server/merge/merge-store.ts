import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { mergedPlaylists, mergeInvitations, users } from '../db/schema';

/** The SQL of friend merge: merged playlists and the invitations they may come from. */

export type NewMergedPlaylist = typeof mergedPlaylists.$inferInsert;
export type NewMergeInvitation = typeof mergeInvitations.$inferInsert;
export type InvitationClaim = Pick<
  typeof mergeInvitations.$inferInsert,
  'mergedPlaylistId' | 'friendUserId' | 'friendPlaylist'
>;

/** Stores a merged playlist; its id. */
export async function insertMergedPlaylist(db: Database, values: NewMergedPlaylist): Promise<string> {
  const [row] = await db.insert(mergedPlaylists).values(values).returning({ id: mergedPlaylists.id });
  if (!row) throw new Error('merged playlist insert returned no row');
  return row.id;
}

/** The merged playlist (the id must be a uuid). */
export async function findMergedPlaylist(db: Database, id: string) {
  const [row] = await db.select().from(mergedPlaylists).where(eq(mergedPlaylists.id, id));
  return row;
}

export async function setMergedPlaylistPublic(db: Database, id: string, isPublic: boolean) {
  await db.update(mergedPlaylists).set({ public: isPublic }).where(eq(mergedPlaylists.id, id));
}

export async function deleteMergedPlaylist(db: Database, id: string) {
  await db.delete(mergedPlaylists).where(eq(mergedPlaylists.id, id));
}

/** The person's newest merged playlists, with their stored tracks. */
export function listRecentMergedTracks(db: Database, userId: string, limit: number) {
  return db
    .select({ id: mergedPlaylists.id, tracks: mergedPlaylists.tracks })
    .from(mergedPlaylists)
    .where(eq(mergedPlaylists.userId, userId))
    .orderBy(desc(mergedPlaylists.createdAt))
    .limit(limit);
}

/** Who sent and who answered an invitation. */
export async function findInvitationParties(db: Database, invitationId: string) {
  const [invitation] = await db
    .select({ inviterId: mergeInvitations.inviterId, friendUserId: mergeInvitations.friendUserId })
    .from(mergeInvitations)
    .where(eq(mergeInvitations.id, invitationId));
  return invitation;
}

/** Stores an invitation; its id. */
export async function insertInvitation(db: Database, values: NewMergeInvitation): Promise<string> {
  const [row] = await db.insert(mergeInvitations).values(values).returning({ id: mergeInvitations.id });
  if (!row) throw new Error('invitation insert returned no row');
  return row.id;
}

/** The invitation whose token hashes to `tokenHash`, with its inviter's name and address. */
export async function findInvitationByTokenHash(db: Database, tokenHash: string) {
  const [found] = await db
    .select({ invitation: mergeInvitations, inviterName: users.username, inviterEmail: users.email })
    .from(mergeInvitations)
    .innerJoin(users, eq(users.id, mergeInvitations.inviterId))
    .where(eq(mergeInvitations.tokenHash, tokenHash));
  return found;
}

/** Marks a pending invitation merged; false when someone answered it first. */
export async function claimPendingInvitation(
  db: Database,
  invitationId: string,
  claim: InvitationClaim,
): Promise<boolean> {
  const claimed = await db
    .update(mergeInvitations)
    .set({ status: 'merged', ...claim })
    .where(and(eq(mergeInvitations.id, invitationId), eq(mergeInvitations.status, 'pending')))
    .returning({ id: mergeInvitations.id });
  return claimed.length > 0;
}

/** The invitations the person sent, newest first. */
export function listSentInvitations(db: Database, inviterId: string, limit: number) {
  return db
    .select()
    .from(mergeInvitations)
    .where(eq(mergeInvitations.inviterId, inviterId))
    .orderBy(desc(mergeInvitations.createdAt))
    .limit(limit);
}
