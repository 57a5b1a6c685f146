import { and, asc, desc, eq, gt, gte, inArray, isNotNull, like, lt, lte, or, sql } from 'drizzle-orm';
import type { HistoryCause } from '../../shared/api/history';
import type { ServiceId } from '../../shared/services';
import type { Database } from '../db/client';
import { playlistHistories, playlistVersions } from '../db/schema';
import { isUuid } from '../db/uuid';
import type { AvailabilityChange, NewVersionParts, StoredListParts } from './history-codec';

/** The only SQL on `playlist_histories` and `playlist_versions` (decision 0030). */

export interface HistoryKey {
  userId: string;
  service: ServiceId;
  playlistId: string;
}

export type HistoryRow = typeof playlistHistories.$inferSelect;

const keyIs = (key: HistoryKey) =>
  and(
    eq(playlistHistories.userId, key.userId),
    eq(playlistHistories.service, key.service),
    eq(playlistHistories.playlistId, key.playlistId),
  );

export async function findHistory(db: Database, key: HistoryKey): Promise<HistoryRow | undefined> {
  const [row] = await db.select().from(playlistHistories).where(keyIs(key));
  return row;
}

export async function findHistoryById(db: Database, id: string): Promise<HistoryRow | undefined> {
  const [row] = await db.select().from(playlistHistories).where(eq(playlistHistories.id, id));
  return row;
}

/**
 * Runs `use` in a transaction holding the history's row lock (created if new), so two readers of one
 * playlist (a sync and a backup) append their versions one after the other.
 */
export async function withHistoryLocked<T>(
  db: Database,
  key: HistoryKey & { name: string },
  use: (tx: Database, history: HistoryRow) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx
      .insert(playlistHistories)
      .values({ userId: key.userId, service: key.service, playlistId: key.playlistId, name: key.name })
      .onConflictDoNothing();
    const [history] = await tx.select().from(playlistHistories).where(keyIs(key)).for('update');
    if (!history) throw new Error('the playlist history row vanished');
    return use(tx, history);
  });
}

/** The track details first held by versions `afterSeq` < seq <= `uptoSeq` (as encodeTracks wrote them), in order. */
export async function loadNewTracks(
  db: Database,
  historyId: string,
  afterSeq: number,
  uptoSeq: number,
): Promise<string[]> {
  const rows = await db
    .select({ newTracks: playlistVersions.newTracks })
    .from(playlistVersions)
    .where(
      and(
        eq(playlistVersions.historyId, historyId),
        gt(playlistVersions.seq, afterSeq),
        lte(playlistVersions.seq, uptoSeq),
        isNotNull(playlistVersions.newTracks),
      ),
    )
    .orderBy(asc(playlistVersions.seq));
  return rows.flatMap((row) => (row.newTracks ? [row.newTracks] : []));
}

/**
 * What replaying version `seq` needs: the versions from the newest keyframe up to it (lists), and every
 * change of availability up to it (few versions have any).
 */
export async function loadVersionParts(
  db: Database,
  historyId: string,
  seq: number,
): Promise<{ lists: StoredListParts[]; availability: AvailabilityChange[] }> {
  const mine = eq(playlistVersions.historyId, historyId);
  const [keyframe] = await db
    .select({ seq: sql<number>`max(${playlistVersions.seq})` })
    .from(playlistVersions)
    .where(and(mine, lte(playlistVersions.seq, seq), isNotNull(playlistVersions.keyframe)));
  const from = keyframe?.seq ?? 1;
  const [lists, availability] = await Promise.all([
    db
      .select({ seq: playlistVersions.seq, keyframe: playlistVersions.keyframe, ops: playlistVersions.ops })
      .from(playlistVersions)
      .where(and(mine, gte(playlistVersions.seq, from), lte(playlistVersions.seq, seq)))
      .orderBy(asc(playlistVersions.seq)),
    db
      .select({
        becameUnavailable: playlistVersions.becameUnavailable,
        becameAvailable: playlistVersions.becameAvailable,
      })
      .from(playlistVersions)
      .where(
        and(
          mine,
          lte(playlistVersions.seq, seq),
          or(
            sql`jsonb_array_length(${playlistVersions.becameUnavailable}) > 0`,
            sql`jsonb_array_length(${playlistVersions.becameAvailable}) > 0`,
          ),
        ),
      )
      .orderBy(asc(playlistVersions.seq)),
  ]);
  return { lists, availability };
}

export async function insertVersion(
  tx: Database,
  history: HistoryRow,
  input: {
    name: string;
    cause: HistoryCause;
    origin: string | null;
    at?: Date;
    parts: NewVersionParts;
  },
): Promise<{ id: string; seq: number }> {
  const seq = history.lastSeq + 1;
  const { parts } = input;
  const [row] = await tx
    .insert(playlistVersions)
    .values({
      historyId: history.id,
      userId: history.userId,
      seq,
      cause: input.cause,
      origin: input.origin,
      trackCount: parts.trackCount,
      keyframe: parts.keyframe,
      ops: parts.ops,
      newTracks: parts.newTracks,
      added: parts.added,
      removed: parts.removed,
      becameUnavailable: parts.becameUnavailable,
      becameAvailable: parts.becameAvailable,
      ...(input.at ? { createdAt: input.at } : {}),
    })
    .returning({ id: playlistVersions.id });
  await tx
    .update(playlistHistories)
    .set({ lastSeq: seq, name: input.name })
    .where(eq(playlistHistories.id, history.id));
  if (!row) throw new Error('the version was not stored');
  return { id: row.id, seq };
}

export const versionSummaryColumns = {
  id: playlistVersions.id,
  historyId: playlistVersions.historyId,
  seq: playlistVersions.seq,
  cause: playlistVersions.cause,
  origin: playlistVersions.origin,
  trackCount: playlistVersions.trackCount,
  added: playlistVersions.added,
  removed: playlistVersions.removed,
  becameUnavailable: playlistVersions.becameUnavailable,
  createdAt: playlistVersions.createdAt,
};
export type VersionSummaryRow = {
  id: string;
  historyId: string;
  seq: number;
  cause: HistoryCause;
  origin: string | null;
  trackCount: number;
  added: number[];
  removed: number[];
  becameUnavailable: number[];
  createdAt: Date;
};

/** A page of versions, newest first: older than `beforeSeq`, not before `since`. */
export async function listVersions(
  db: Database,
  historyId: string,
  page: { beforeSeq?: number; since?: Date; limit: number },
): Promise<VersionSummaryRow[]> {
  const conditions = [eq(playlistVersions.historyId, historyId)];
  if (page.beforeSeq !== undefined) conditions.push(lt(playlistVersions.seq, page.beforeSeq));
  if (page.since) conditions.push(gte(playlistVersions.createdAt, page.since));
  return db
    .select(versionSummaryColumns)
    .from(playlistVersions)
    .where(and(...conditions))
    .orderBy(desc(playlistVersions.seq))
    .limit(page.limit);
}

/** Whether versions older than `since` exist (hidden by the plan). */
export async function hasVersionsBefore(db: Database, historyId: string, since: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: playlistVersions.id })
    .from(playlistVersions)
    .where(and(eq(playlistVersions.historyId, historyId), lt(playlistVersions.createdAt, since)))
    .limit(1);
  return row !== undefined;
}

/** One of the person's versions (never another person's: unknown ids and theirs read as absent). */
export async function findVersion(
  db: Database,
  userId: string,
  versionId: string,
): Promise<VersionSummaryRow | undefined> {
  if (!isUuid(versionId)) return undefined;
  const [row] = await db
    .select(versionSummaryColumns)
    .from(playlistVersions)
    .where(and(eq(playlistVersions.id, versionId), eq(playlistVersions.userId, userId)));
  return row;
}

/**
 * The versions one writer recorded on every playlist it wrote: origin `origin` (the side an undo writes in
 * place) or `origin:<side>` (a two-way run's other side), the newest per playlist, newest first.
 */
export async function findVersionsByOrigin(
  db: Database,
  userId: string,
  origin: string,
): Promise<VersionSummaryRow[]> {
  const rows = await db
    .select(versionSummaryColumns)
    .from(playlistVersions)
    .where(
      and(
        eq(playlistVersions.userId, userId),
        or(eq(playlistVersions.origin, origin), like(playlistVersions.origin, `${escapeLike(origin)}:%`)),
      ),
    )
    .orderBy(desc(playlistVersions.createdAt), desc(playlistVersions.seq));
  const seen = new Set<string>();
  return rows.filter((row) => !seen.has(row.historyId) && seen.add(row.historyId));
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

/** The person's versions in which a track was removed or became unavailable, newest first. */
export async function listVersionsWithLosses(
  db: Database,
  userId: string,
  page: { since?: Date; limit: number },
): Promise<VersionSummaryRow[]> {
  const lost = or(
    sql`jsonb_array_length(${playlistVersions.removed}) > 0`,
    sql`jsonb_array_length(${playlistVersions.becameUnavailable}) > 0`,
  );
  const conditions = [eq(playlistVersions.userId, userId), lost];
  if (page.since) conditions.push(gte(playlistVersions.createdAt, page.since));
  return db
    .select(versionSummaryColumns)
    .from(playlistVersions)
    .where(and(...conditions))
    .orderBy(desc(playlistVersions.createdAt))
    .limit(page.limit);
}

/** Bytes the history tables take on disk (the benchmark's figure). */
export async function historyTableBytes(db: Database): Promise<number> {
  const result = await db.execute(
    sql`select pg_total_relation_size('playlist_versions') + pg_total_relation_size('playlist_histories') as bytes`,
  );
  return Number((result as unknown as { rows: { bytes: string | number }[] }).rows[0]?.bytes ?? 0);
}

/** The version of a history one writer recorded (origin `origin`), the newest when there are several. */
export async function findVersionWithOrigin(
  db: Database,
  historyId: string,
  origin: string,
): Promise<{ id: string; seq: number } | undefined> {
  const [row] = await db
    .select({ id: playlistVersions.id, seq: playlistVersions.seq })
    .from(playlistVersions)
    .where(and(eq(playlistVersions.historyId, historyId), eq(playlistVersions.origin, origin)))
    .orderBy(desc(playlistVersions.seq))
    .limit(1);
  return row;
}

/** The version a history had at `at`: the newest recorded then or before (undefined when none was). */
export async function findVersionAt(
  db: Database,
  historyId: string,
  at: Date,
): Promise<{ id: string; seq: number } | undefined> {
  const [row] = await db
    .select({ id: playlistVersions.id, seq: playlistVersions.seq })
    .from(playlistVersions)
    .where(and(eq(playlistVersions.historyId, historyId), lte(playlistVersions.createdAt, at)))
    .orderBy(desc(playlistVersions.seq))
    .limit(1);
  return row;
}

/** Versions by id, with where each sits: its history, `seq`, and the playlist it is a version of. */
export async function findVersionsByIds(
  db: Database,
  ids: string[],
): Promise<{ id: string; historyId: string; seq: number; playlistId: string }[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      id: playlistVersions.id,
      historyId: playlistVersions.historyId,
      seq: playlistVersions.seq,
      playlistId: playlistHistories.playlistId,
    })
    .from(playlistVersions)
    .innerJoin(playlistHistories, eq(playlistHistories.id, playlistVersions.historyId))
    .where(inArray(playlistVersions.id, ids));
}

export async function findVersionBySeq(
  db: Database,
  historyId: string,
  seq: number,
): Promise<{ id: string; seq: number } | undefined> {
  const [row] = await db
    .select({ id: playlistVersions.id, seq: playlistVersions.seq })
    .from(playlistVersions)
    .where(and(eq(playlistVersions.historyId, historyId), eq(playlistVersions.seq, seq)));
  return row;
}
