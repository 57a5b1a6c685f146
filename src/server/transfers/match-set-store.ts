import { and, asc, eq, gt, gte, lt } from 'drizzle-orm';
import type { Database } from '../db/client';
import { matchRows, matchSets, matchSourceEntries } from '../db/schema';
import type { PlaylistEntry } from '../providers/types';

/**
 * The SQL of match sets and their rows as the match and transfer jobs use them (what the review pages
 * read and change is in match-service.ts until it moves here).
 */

export type MatchSetRecord = typeof matchSets.$inferSelect;
export type MatchSetChanges = Partial<Omit<typeof matchSets.$inferInsert, 'id' | 'userId'>>;
export type NewMatchRow = typeof matchRows.$inferInsert;

export async function findMatchSet(db: Database, matchSetId: string): Promise<MatchSetRecord | undefined> {
  const [set] = await db.select().from(matchSets).where(eq(matchSets.id, matchSetId));
  return set;
}

export async function updateMatchSet(db: Database, matchSetId: string, changes: MatchSetChanges) {
  await db.update(matchSets).set(changes).where(eq(matchSets.id, matchSetId));
}

/** Stores a chunk of rows; a row already stored (a chunk written twice on resume) is kept as it was. */
export async function insertMatchRows(db: Database, rows: NewMatchRow[]) {
  if (rows.length > 0) await db.insert(matchRows).values(rows).onConflictDoNothing();
}

/** Forgets every row of a match set (rows of a source read that was never kept). */
export async function deleteMatchRows(db: Database, matchSetId: string) {
  await db.delete(matchRows).where(eq(matchRows.matchSetId, matchSetId));
}

/** Keeps entries of a source being read; one already kept (a page written twice) stays as it was. */
export async function insertSourceEntries(
  db: Database,
  matchSetId: string,
  entries: readonly PlaylistEntry[],
) {
  if (entries.length === 0) return;
  await db
    .insert(matchSourceEntries)
    .values(entries.map((entry) => ({ matchSetId, position: entry.position, entry })))
    .onConflictDoNothing();
}

/** The kept source entries at positions `from` (inclusive) to `to` (exclusive), in order. */
export async function listSourceEntries(
  db: Database,
  matchSetId: string,
  from: number,
  to: number,
): Promise<PlaylistEntry[]> {
  const rows = await db
    .select({ entry: matchSourceEntries.entry })
    .from(matchSourceEntries)
    .where(
      and(
        eq(matchSourceEntries.matchSetId, matchSetId),
        gte(matchSourceEntries.position, from),
        lt(matchSourceEntries.position, to),
      ),
    )
    .orderBy(asc(matchSourceEntries.position));
  return rows.map((row) => row.entry);
}

/** Forgets the kept entries of a source read that was never whole. */
export async function deleteSourceEntries(db: Database, matchSetId: string) {
  await db.delete(matchSourceEntries).where(eq(matchSourceEntries.matchSetId, matchSetId));
}

/** At most `limit` rows of a match set after position `after` (-1: from the first), in source order. */
export function listMatchRowsPage(db: Database, matchSetId: string, after: number, limit: number) {
  return db
    .select()
    .from(matchRows)
    .where(and(eq(matchRows.matchSetId, matchSetId), gt(matchRows.position, after)))
    .orderBy(asc(matchRows.position))
    .limit(limit);
}

/** A match set's rows in source order. */
export function listMatchRowsInOrder(db: Database, matchSetId: string) {
  return db
    .select()
    .from(matchRows)
    .where(eq(matchRows.matchSetId, matchSetId))
    .orderBy(asc(matchRows.position));
}

/**
 * What a transfer needs of its match set: when the person asked for it (the start of their move) and the
 * album it matched as a whole (a saved album's transfer), if any.
 */
export async function matchSetForTransfer(db: Database, matchSetId: string) {
  const [set] = await db
    .select({ startedAt: matchSets.createdAt, albumMatch: matchSets.albumMatch })
    .from(matchSets)
    .where(eq(matchSets.id, matchSetId));
  return { startedAt: set?.startedAt, albumMatch: set?.albumMatch ?? null };
}
