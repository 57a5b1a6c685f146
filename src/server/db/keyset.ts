import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/**
 * Keyset paging by (time, id), for reads that go a page at a time through a list that may be long
 * (decision 0042). The cursor is where a page stopped: the last row's time exactly as stored (as text: a
 * JavaScript date would drop the microseconds and read that row again) and its id.
 */
export interface KeysetCursor {
  at: string;
  id: string | number;
}

/** A page of rows, and the cursor to read the next one from (null: this page was the last). */
export interface KeysetPage<T> {
  rows: T[];
  next: KeysetCursor | null;
}

/** Selected beside a row's own fields: what its cursor is made of. */
export const cursorColumns = (at: PgColumn, id: PgColumn) => ({
  cursorAt: sql<string>`${at}::text`,
  cursorId: id,
});

/** The rows after the cursor in (at, id) order; every row when there is none. */
export const afterCursor = (at: PgColumn, id: PgColumn, cursor: KeysetCursor | undefined): SQL | undefined =>
  cursor ? sql`(${at}, ${id}) > (${cursor.at}::timestamptz, ${cursor.id})` : undefined;

/** A page read with `cursorColumns` and `limit`: its rows without the cursor fields, and the next cursor. */
export function toKeysetPage<R extends { cursorAt: string; cursorId: unknown }>(
  rows: R[],
  limit: number,
): KeysetPage<Omit<R, 'cursorAt' | 'cursorId'>> {
  const last = rows.at(-1);
  return {
    rows: rows.map(({ cursorAt: _at, cursorId: _id, ...row }) => row),
    next: last && rows.length >= limit ? { at: last.cursorAt, id: last.cursorId as string | number } : null,
  };
}
