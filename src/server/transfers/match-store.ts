import { and, asc, desc, eq, getTableColumns, isNotNull, ne, sql } from 'drizzle-orm';
import type { MatchRequest } from '../../shared/api/transfer';
import type { ServiceId } from '../../shared/services';
import type { Database } from '../db/client';
import { matchRows, matchSets } from '../db/schema';
import { isUuid } from '../db/uuid';

/**
 * The SQL of match runs: a person's match sets and their rows (the match job writes its own). Every write
 * here bumps the set's `version` through the triggers of migration match_view_version (decision 0032).
 */

export type MatchRowRecord = typeof matchRows.$inferSelect;
export type MatchRowUpdate = Partial<typeof matchRows.$inferInsert>;

/** Every column but the stored source entries, which only the match job needs (and which can be large). */
const { sourceEntries: _sourceEntries, ...matchSetColumns } = getTableColumns(matchSets);

export type MatchSetRecord = Omit<typeof matchSets.$inferSelect, 'sourceEntries'>;

export async function insertMatchSet(
  db: Database,
  values: {
    userId: string;
    sourceService: ServiceId;
    destinationService: ServiceId;
    sourcePlaylistId: string;
    sourcePlaylistName: string;
  },
): Promise<MatchSetRecord> {
  const [set] = await db.insert(matchSets).values(values).returning(matchSetColumns);
  if (!set) throw new Error('match set insert returned no row');
  return set;
}

export async function setMatchSetJob(db: Database, matchSetId: string, jobId: string) {
  await db.update(matchSets).set({ jobId }).where(eq(matchSets.id, matchSetId));
}

/** The person's own set, or undefined (also for an id that is not a uuid). */
export async function findOwnedMatchSet(
  db: Database,
  userId: string,
  matchSetId: string,
): Promise<MatchSetRecord | undefined> {
  if (!isUuid(matchSetId)) return undefined;
  const [set] = await db
    .select(matchSetColumns)
    .from(matchSets)
    .where(and(eq(matchSets.id, matchSetId), eq(matchSets.userId, userId)));
  return set;
}

/** The newest finished match run of this playlist. */
export async function findLatestReadySet(
  db: Database,
  userId: string,
  request: MatchRequest,
): Promise<MatchSetRecord | undefined> {
  const [set] = await db
    .select(matchSetColumns)
    .from(matchSets)
    .where(
      and(
        eq(matchSets.userId, userId),
        eq(matchSets.sourcePlaylistId, request.playlistId),
        eq(matchSets.sourceService, request.sourceService),
        eq(matchSets.destinationService, request.destinationService),
        eq(matchSets.status, 'ready'),
      ),
    )
    .orderBy(desc(matchSets.createdAt))
    .limit(1);
  return set;
}

export async function listMatchRows(db: Database, matchSetId: string): Promise<MatchRowRecord[]> {
  return db
    .select()
    .from(matchRows)
    .where(eq(matchRows.matchSetId, matchSetId))
    .orderBy(asc(matchRows.position));
}

export async function findMatchRow(
  db: Database,
  matchSetId: string,
  position: number,
): Promise<MatchRowRecord | undefined> {
  const [row] = await db
    .select()
    .from(matchRows)
    .where(and(eq(matchRows.matchSetId, matchSetId), eq(matchRows.position, position)));
  return row;
}

export async function updateMatchRow(
  db: Database,
  matchSetId: string,
  position: number,
  update: MatchRowUpdate,
): Promise<MatchRowRecord | undefined> {
  const [row] = await db
    .update(matchRows)
    .set(update)
    .where(and(eq(matchRows.matchSetId, matchSetId), eq(matchRows.position, position)))
    .returning();
  return row;
}

/**
 * "Accept all in review" in one statement: every row the engine left in review with a pick becomes the
 * person's decision, keeping its own score and reasons. Answers how many rows it changed.
 */
export async function acceptReviewRows(db: Database, matchSetId: string, reason: string): Promise<number> {
  const accepted = await db
    .update(matchRows)
    .set({
      status: 'accepted',
      decidedBy: 'person',
      reasons: sql`jsonb_build_array(${reason}::text) || ${matchRows.reasons}`,
    })
    .where(
      and(
        eq(matchRows.matchSetId, matchSetId),
        eq(matchRows.status, 'review'),
        ne(matchRows.decidedBy, 'person'),
        isNotNull(matchRows.chosenId),
      ),
    )
    .returning({ position: matchRows.position });
  return accepted.length;
}
