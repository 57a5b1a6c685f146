import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { rateLimitCounters } from '../db/schema';

/**
 * The SQL of the one rate limiter (rate-limit.ts, decision 0011): one row per limit, hashed key and slot,
 * and one anchor row per key (window start 1970-01-01) whose row lock serialises the takes of that key.
 */
export interface Slot {
  start: Date;
  count: number;
}

interface KeyOf {
  bucket: string;
  keyHash: string;
}

/** The anchor row's window start: its row lock serialises the takes of one key. */
const ANCHOR = new Date(0);
const target = [rateLimitCounters.bucket, rateLimitCounters.keyHash, rateLimitCounters.windowStart];

/**
 * One take, in one transaction: lock the key (upsert its anchor row), read its slots since `since`, let
 * `decide` say whether the units fit, and add them to the slot at `slotStart` only if they do. PostgreSQL
 * holds the anchor's lock to the end, so two takes of one key never both take the last unit; a refused
 * take writes no units. Answers what `decide` answered (null: taken).
 */
export function takeUnits<T>(
  db: Database,
  key: KeyOf & { since: Date; slotStart: Date; cost: number; expiresAt: Date },
  decide: (slots: Slot[]) => T | null,
): Promise<T | null> {
  const { bucket, keyHash, expiresAt } = key;
  return db.transaction(async (tx) => {
    await tx
      .insert(rateLimitCounters)
      .values({ bucket, keyHash, windowStart: ANCHOR, count: 0, expiresAt })
      .onConflictDoUpdate({ target, set: { expiresAt } });
    const refusal = decide(await slotsSince(tx, key, key.since));
    if (refusal !== null) return refusal;
    await tx
      .insert(rateLimitCounters)
      .values({ bucket, keyHash, windowStart: key.slotStart, count: key.cost, expiresAt })
      .onConflictDoUpdate({ target, set: { count: sql`${rateLimitCounters.count} + ${key.cost}` } });
    return null;
  });
}

/** Adds units to one slot, whatever the limit (counts kept after the fact). */
export async function addUnits(
  db: Database,
  key: KeyOf & { slotStart: Date; cost: number; expiresAt: Date },
) {
  await db
    .insert(rateLimitCounters)
    .values({
      bucket: key.bucket,
      keyHash: key.keyHash,
      windowStart: key.slotStart,
      count: key.cost,
      expiresAt: key.expiresAt,
    })
    .onConflictDoUpdate({ target, set: { count: sql`${rateLimitCounters.count} + ${key.cost}` } });
}

/** Every slot of a key that starts after `since`, oldest first (never the anchor row). */
export function slotsSince(db: Database, key: KeyOf, since: Date): Promise<Slot[]> {
  return db
    .select({ start: rateLimitCounters.windowStart, count: rateLimitCounters.count })
    .from(rateLimitCounters)
    .where(
      and(
        eq(rateLimitCounters.bucket, key.bucket),
        eq(rateLimitCounters.keyHash, key.keyHash),
        gt(rateLimitCounters.windowStart, since),
      ),
    )
    .orderBy(rateLimitCounters.windowStart);
}

/** Forgets everything counted for one key of one limit. */
export async function deleteKey(db: Database, key: KeyOf) {
  await db
    .delete(rateLimitCounters)
    .where(and(eq(rateLimitCounters.bucket, key.bucket), eq(rateLimitCounters.keyHash, key.keyHash)));
}

export async function deleteExpiredCounters(db: Database, now: Date) {
  await db.delete(rateLimitCounters).where(lt(rateLimitCounters.expiresAt, now));
}
