import { createHash } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { rateLimitCounters } from '../db/schema';
import { rateLimited } from '../domain-errors';

/**
 * The one rate limiter (decision 0011). A limit allows `limit` units (requests, events, tracks) in any
 * rolling window of `windowMs` for one key (an address, an account, a link and address…). Counters live in
 * the database, so every process shares them: one row per tenth of a window (a slot), and a take counts
 * every slot that overlaps the last window, so no window of that length ever holds more than the limit
 * (a fixed window let twice the limit through across its boundary). A take runs in one transaction that
 * first writes the key's anchor row: PostgreSQL holds that row's lock until the end, so the takes of one
 * key run one after another in every process and two can never both take the last unit; a refused take
 * writes no units. Keys are stored hashed (no addresses or e-mail addresses in the table).
 */
export interface RateLimit {
  /** Names the limit; part of the counter's key. */
  bucket: string;
  /** Units allowed per window; 0 turns the limit off. */
  limit: number;
  windowMs: number;
  /** Said in the 429 before "Try again in …". */
  message: string;
}

/** Slots per window: a refusal may last up to a tenth of a window longer than an exact log would say. */
const SLOTS_PER_WINDOW = 10;
/** The anchor row's window start: its row lock serialises the takes of one key. */
const ANCHOR = new Date(0);

/** A wait in whole seconds, as Retry-After says it: at least 1. */
const retrySeconds = (waitMs: number) => Math.max(1, Math.ceil(waitMs / 1000));

/** Seconds to wait, or null when `cost` units were taken. */
export async function takeRateLimit(
  db: Database,
  rule: RateLimit,
  key: string,
  cost = 1,
  now = Date.now(),
): Promise<number | null> {
  if (rule.limit <= 0) return null;
  if (cost > rule.limit) return retrySeconds(rule.windowMs);
  const slotMs = slotOf(rule);
  const slotStart = now - (now % slotMs);
  const expiresAt = new Date(slotStart + slotMs + rule.windowMs);
  const keyHash = hashKey(key);
  const target = [rateLimitCounters.bucket, rateLimitCounters.keyHash, rateLimitCounters.windowStart];
  const wait = await db.transaction(async (tx) => {
    await tx
      .insert(rateLimitCounters)
      .values({ bucket: rule.bucket, keyHash, windowStart: ANCHOR, count: 0, expiresAt })
      .onConflictDoUpdate({ target, set: { expiresAt } });
    const slots = await slotsInWindow(tx, rule, keyHash, now);
    const waitMs = waitForRoom(slots, rule, slotMs, cost, now);
    if (waitMs !== null) return retrySeconds(waitMs);
    await tx
      .insert(rateLimitCounters)
      .values({ bucket: rule.bucket, keyHash, windowStart: new Date(slotStart), count: cost, expiresAt })
      .onConflictDoUpdate({ target, set: { count: sql`${rateLimitCounters.count} + ${cost}` } });
    return null;
  });
  if (Math.random() < 0.02) await deleteExpired(db, now);
  return wait;
}

/**
 * For counts kept after the fact (failed sign-ins): seconds until `cost` more units would fit, or null
 * when they fit now. Takes nothing.
 */
export async function rateLimitWait(
  db: Database,
  rule: RateLimit,
  key: string,
  cost = 1,
  now = Date.now(),
): Promise<number | null> {
  if (rule.limit <= 0) return null;
  const slotMs = slotOf(rule);
  const waitMs = waitForRoom(await slotsInWindow(db, rule, hashKey(key), now), rule, slotMs, cost, now);
  return waitMs === null ? null : retrySeconds(waitMs);
}

/** Counts `cost` units whatever the limit (a failure has happened); answers the units now in the window. */
export async function countUnits(
  db: Database,
  rule: RateLimit,
  key: string,
  cost = 1,
  now = Date.now(),
): Promise<number> {
  const slotMs = slotOf(rule);
  const slotStart = now - (now % slotMs);
  const keyHash = hashKey(key);
  await db
    .insert(rateLimitCounters)
    .values({
      bucket: rule.bucket,
      keyHash,
      windowStart: new Date(slotStart),
      count: cost,
      expiresAt: new Date(slotStart + slotMs + rule.windowMs),
    })
    .onConflictDoUpdate({
      target: [rateLimitCounters.bucket, rateLimitCounters.keyHash, rateLimitCounters.windowStart],
      set: { count: sql`${rateLimitCounters.count} + ${cost}` },
    });
  if (Math.random() < 0.02) await deleteExpired(db, now);
  return (await slotsInWindow(db, rule, keyHash, now)).reduce((sum, slot) => sum + slot.count, 0);
}

/** Forgets everything counted for one key of one limit. */
export async function forgetKey(db: Database, bucket: string, key: string) {
  await db
    .delete(rateLimitCounters)
    .where(and(eq(rateLimitCounters.bucket, bucket), eq(rateLimitCounters.keyHash, hashKey(key))));
}

const slotOf = (rule: RateLimit) => Math.max(1, Math.ceil(rule.windowMs / SLOTS_PER_WINDOW));

/** Every slot of a key that overlaps (now - window, now], oldest first (never the anchor row). */
function slotsInWindow(db: Database, rule: RateLimit, keyHash: string, now: number) {
  return db
    .select({ start: rateLimitCounters.windowStart, count: rateLimitCounters.count })
    .from(rateLimitCounters)
    .where(
      and(
        eq(rateLimitCounters.bucket, rule.bucket),
        eq(rateLimitCounters.keyHash, keyHash),
        gt(rateLimitCounters.windowStart, new Date(Math.max(0, now - rule.windowMs - slotOf(rule)))),
      ),
    )
    .orderBy(rateLimitCounters.windowStart);
}

/** Milliseconds until `cost` more units fit in the window, or null when they fit now. */
function waitForRoom(
  slots: { start: Date; count: number }[],
  rule: RateLimit,
  slotMs: number,
  cost: number,
  now: number,
): number | null {
  let used = slots.reduce((sum, slot) => sum + slot.count, 0);
  if (used + cost <= rule.limit) return null;
  // The oldest slots leave the window one by one (a slot has left once its end is a window ago).
  for (const slot of slots) {
    used -= slot.count;
    if (used + cost <= rule.limit) return slot.start.getTime() + slotMs + rule.windowMs - now;
  }
  return rule.windowMs;
}

/** Takes `cost` units or throws the 429, with `Retry-After` and the rule's message. */
export async function enforceRateLimit(db: Database, rule: RateLimit, key: string, cost = 1) {
  const wait = await takeRateLimit(db, rule, key, cost);
  if (wait !== null) throw tooManyRequests(rule.message, wait);
}

export function tooManyRequests(message: string, waitSeconds: number) {
  return rateLimited(`${message} Try again in ${describeWait(waitSeconds)}.`, waitSeconds);
}

export function describeWait(seconds: number) {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  if (seconds < 90 * 60) return `${Math.ceil(seconds / 60)} minutes`;
  return `${Math.ceil(seconds / 3600)} hours`;
}

async function deleteExpired(db: Database, now: number) {
  await db.delete(rateLimitCounters).where(lt(rateLimitCounters.expiresAt, new Date(now)));
}

/** How a key is stored (exported for tests that check what a deletion leaves). */
export const hashKey = (key: string) => createHash('sha256').update(key).digest('base64url').slice(0, 32);

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
