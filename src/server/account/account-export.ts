import { asc, count, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import {
  analyticsEvents,
  backupSnapshots,
  batches,
  importedPlaylists,
  matchRows,
  matchRules,
  matchSets,
  mergedPlaylists,
  mergeInvitations,
  outboxMessages,
  providerConnections,
  savedExports,
  shareLinkSignups,
  shareLinks,
  shareLinkViews,
  syncRuns,
  syncs,
  transfers,
  users,
} from '../db/schema';
import { notFound } from '../domain-errors';
import { listJobsOfUser } from '../jobs/job-queue';

/**
 * "Download my data": everything Crossfade keeps about a person, in one JSON document. Secrets are left
 * out (password hash, provider tokens, invitation tokens), and so are blobs that are downloadable on
 * their own (saved export files, backup contents: listed with their sizes and counts).
 */
export async function buildAccountExport(db: Database, userId: string, now = new Date()) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw notFound('This account no longer exists.');

  const [
    connections,
    transferRows,
    sets,
    imports,
    exports,
    backups,
    invitations,
    merged,
    links,
    events,
    jobRows,
    outbox,
    rules,
    syncRows,
    syncRunRows,
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
        id: backupSnapshots.id,
        service: backupSnapshots.service,
        trigger: backupSnapshots.trigger,
        playlistCount: backupSnapshots.playlistCount,
        trackCount: backupSnapshots.trackCount,
        createdAt: backupSnapshots.createdAt,
      })
      .from(backupSnapshots)
      .where(eq(backupSnapshots.userId, userId))
      .orderBy(asc(backupSnapshots.createdAt)),
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
    db.select().from(shareLinks).where(eq(shareLinks.userId, userId)).orderBy(asc(shareLinks.createdAt)),
    db
      .select({
        event: analyticsEvents.event,
        properties: analyticsEvents.properties,
        occurredAt: analyticsEvents.occurredAt,
      })
      .from(analyticsEvents)
      .where(eq(analyticsEvents.userId, userId))
      .orderBy(asc(analyticsEvents.occurredAt)),
    listJobsOfUser(db, userId),
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
  ]);

  const batchRows = await db
    .select()
    .from(batches)
    .where(eq(batches.userId, userId))
    .orderBy(asc(batches.createdAt));
  const setIds = sets.map((set) => set.id);
  const linkIds = links.map((link) => link.id);
  const [rowCounts, viewCounts, signupCounts] = await Promise.all([
    setIds.length
      ? db
          .select({ id: matchRows.matchSetId, rows: count() })
          .from(matchRows)
          .where(inArray(matchRows.matchSetId, setIds))
          .groupBy(matchRows.matchSetId)
      : [],
    linkIds.length
      ? db
          .select({ id: shareLinkViews.linkId, n: count() })
          .from(shareLinkViews)
          .where(inArray(shareLinkViews.linkId, linkIds))
          .groupBy(shareLinkViews.linkId)
      : [],
    linkIds.length
      ? db
          .select({ id: shareLinkSignups.linkId, n: count() })
          .from(shareLinkSignups)
          .where(inArray(shareLinkSignups.linkId, linkIds))
          .groupBy(shareLinkSignups.linkId)
      : [],
  ]);
  const countOf = (rows: { id: string; n?: number; rows?: number }[], id: string) => {
    const row = rows.find((candidate) => candidate.id === id);
    return row ? Number(row.n ?? row.rows ?? 0) : 0;
  };
  const decisionCounts = setIds.length
    ? await db
        .select({ id: matchRows.matchSetId, decidedBy: matchRows.decidedBy, n: count() })
        .from(matchRows)
        .where(inArray(matchRows.matchSetId, setIds))
        .groupBy(matchRows.matchSetId, matchRows.decidedBy)
    : [];

  return {
    exportedAt: now.toISOString(),
    about:
      'Everything Crossfade stores about you. Passwords and service tokens are stored only in protected form and are not included.',
    profile: {
      id: user.id,
      username: user.username,
      email: user.email,
      plan: user.plan,
      publicProfile: user.publicProfile,
      createdAt: user.createdAt.toISOString(),
    },
    connections,
    transfers: transferRows.map((row) => ({
      id: row.id,
      name: row.name,
      sourceService: row.sourceService,
      destinationService: row.destinationService,
      sourcePlaylistId: row.sourcePlaylistId,
      status: row.status,
      destinationUrl: row.destinationUrl,
      totalTracks: row.totalTracks,
      matchedTracks: row.matchedTracks,
      unmatchedTracks: row.unmatchedTracks,
      addedTracks: row.addedTracks,
      overallConfidence: row.overallConfidence,
      verifiedTracks: row.verifiedTracks,
      verificationMissing: row.verificationMissing,
      includeUnmatched: row.includeUnmatched,
      error: row.error,
      createdAt: row.createdAt,
      completedAt: row.completedAt,
    })),
    matchSets: sets.map((set) => ({
      id: set.id,
      sourceService: set.sourceService,
      destinationService: set.destinationService,
      sourcePlaylistId: set.sourcePlaylistId,
      sourcePlaylistName: set.sourcePlaylistName,
      status: set.status,
      createdAt: set.createdAt,
      rows: countOf(rowCounts, set.id),
      yourChoices: decisionCounts
        .filter((row) => row.id === set.id && row.decidedBy === 'person')
        .reduce((sum, row) => sum + Number(row.n), 0),
    })),
    batches: batchRows.map((batch) => ({
      id: batch.id,
      sourceService: batch.sourceService,
      destinationService: batch.destinationService,
      status: batch.status,
      playlists: batch.items,
      createdAt: batch.createdAt,
    })),
    matchRules: rules.map((rule) => ({
      id: rule.id,
      sourceService: rule.sourceService,
      destinationService: rule.destinationService,
      sourceKey: rule.sourceKey,
      source: rule.source,
      action: rule.action,
      destination: rule.destination,
      createdAt: rule.createdAt,
      updatedAt: rule.updatedAt,
    })),
    // Syncs (issue 14) with every run's history: what each added, removed and listed.
    syncs: syncRows.map((sync) => ({
      ...sync,
      runs: syncRunRows.filter((run) => run.syncId === sync.id),
    })),
    imports: imports.map((row) => ({
      id: row.id,
      name: row.name,
      originService: row.originService,
      createdAt: row.createdAt,
      tracks: row.tracks,
    })),
    exports,
    backups,
    merges: { invitations, mergedPlaylists: merged },
    links: links.map((link) => ({
      id: link.id,
      slug: link.slug,
      name: link.name,
      targetUrl: link.targetUrl,
      target: link.target,
      active: link.active,
      createdAt: link.createdAt,
      views: countOf(viewCounts, link.id),
      signups: countOf(signupCounts, link.id),
    })),
    jobs: jobRows,
    messagesSent: outbox,
    analyticsEvents: events,
  };
}

export type AccountExport = Awaited<ReturnType<typeof buildAccountExport>>;
