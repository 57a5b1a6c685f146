import { and, asc, desc, eq, getTableColumns, gte, isNotNull, ne, not, or, type SQL, sql } from 'drizzle-orm';
import type { MatchRequest, MatchRowFilter, MatchStatus, MatchSummary } from '../../shared/api/transfer';
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

/**
 * The owned-set read as a prepared statement, one per database handle: every match view answer sends it
 * (decision 0032), and building its SQL each time was a tenth of such an answer's CPU; PostgreSQL parses
 * and plans it once per connection.
 */
const ownedMatchSetQueries = new WeakMap<Database, ReturnType<typeof prepareOwnedMatchSet>>();
const prepareOwnedMatchSet = (db: Database) =>
  db
    .select(matchSetColumns)
    .from(matchSets)
    .where(and(eq(matchSets.id, sql.placeholder('id')), eq(matchSets.userId, sql.placeholder('userId'))))
    .prepare('find_owned_match_set');

/** The person's own set, or undefined (also for an id that is not a uuid). */
export async function findOwnedMatchSet(
  db: Database,
  userId: string,
  matchSetId: string,
): Promise<MatchSetRecord | undefined> {
  if (!isUuid(matchSetId)) return undefined;
  let query = ownedMatchSetQueries.get(db);
  if (!query) {
    query = prepareOwnedMatchSet(db);
    ownedMatchSetQueries.set(db, query);
  }
  const [set] = await query.execute({ id: matchSetId, userId });
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

/** Which rows of a set a page shows: one status, the rows a transfer leaves out, or all (undefined). */
export interface RowFilter {
  status?: MatchRowFilter | undefined;
  includeUnmatched?: boolean | undefined;
}

/**
 * The rows a transfer of the set leaves out, as `tracksToAdd` (match-rows.ts) decides: skipped ones, and
 * unmatched ones and review ones nobody accepted, unless the unmatched are included and a candidate exists.
 */
function notAddedCondition(includeUnmatched: boolean): SQL | undefined {
  const undecided = or(
    eq(matchRows.status, 'unmatched'),
    and(eq(matchRows.status, 'review'), ne(matchRows.decidedBy, 'person')),
  );
  const closestAdded = sql`(${ne(matchRows.decidedBy, 'person')} and jsonb_array_length(${matchRows.candidates}) > 0)`;
  return or(
    eq(matchRows.status, 'skipped'),
    includeUnmatched ? and(undecided, not(closestAdded)) : undecided,
  );
}

function filterCondition(filter: RowFilter): SQL | undefined {
  if (filter.status === undefined) return undefined;
  if (filter.status === 'not-added') return notAddedCondition(filter.includeUnmatched ?? false);
  return eq(matchRows.status, filter.status);
}

/**
 * At most `limit` rows of a set from position `from` on, in source order, those `filter` lets through
 * (issue 25: the review page and the streamed view read a page at a time by the primary key).
 */
export async function listMatchRowsFrom(
  db: Database,
  matchSetId: string,
  from: number,
  limit: number,
  filter: RowFilter = {},
): Promise<MatchRowRecord[]> {
  return db
    .select()
    .from(matchRows)
    .where(and(eq(matchRows.matchSetId, matchSetId), gte(matchRows.position, from), filterCondition(filter)))
    .orderBy(asc(matchRows.position))
    .limit(limit);
}

/** How many rows of a set `filter` lets through, counted in SQL. */
export async function countMatchRows(db: Database, matchSetId: string, filter: RowFilter): Promise<number> {
  const [counted] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(matchRows)
    .where(and(eq(matchRows.matchSetId, matchSetId), filterCondition(filter)));
  return counted?.count ?? 0;
}

/** The counts of a whole set by one aggregate over its rows (no row is read into memory). */
export async function summarizeMatchRows(db: Database, matchSetId: string): Promise<MatchSummary> {
  const count = (status: MatchStatus) =>
    sql<number>`count(*) filter (where ${matchRows.status} = ${status})`.mapWith(Number);
  const [summary] = await db
    .select({
      total: sql<number>`count(*)`.mapWith(Number),
      accepted: count('accepted'),
      review: count('review'),
      unmatched: count('unmatched'),
      skipped: count('skipped'),
      averageConfidence: sql<number>`coalesce(round(avg(${matchRows.confidence})), 0)`.mapWith(Number),
    })
    .from(matchRows)
    .where(eq(matchRows.matchSetId, matchSetId));
  return summary ?? { total: 0, accepted: 0, review: 0, unmatched: 0, skipped: 0, averageConfidence: 0 };
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
