import { createHash } from 'node:crypto';
import type { Database } from '../db/client';
import { rateLimited } from '../domain-errors';
import {
  addUnits,
  deleteExpiredCounters,
  deleteKey,
  type Slot,
  slotsSince,
  takeUnits,
} from './rate-limit-store';

/**
 * The one rate limiter (decision 0011). A limit allows `limit` units (requests, events, tracks) in any
 * rolling window of `windowMs` for one key (an address, an account, a link and address…). Counters live in
 * the database, so every process shares them: one row per tenth of a window (a slot), and a take counts
 * every slot that overlaps the last window, so no window of that length ever holds more than the limit
 * (a fixed window let twice the limit through across its boundary). A take runs in one transaction that
 * first writes the key's anchor row: PostgreSQL holds that row's lock until the end, so the takes of one
 * key run one after another in every process and two can never both take the last unit; a refused take
 * writes no units. Keys are stored hashed (no addresses or e-mail addresses in the table). The SQL is in
 * rate-limit-store.ts.
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
  const wait = await takeUnits(
    db,
    {
      bucket: rule.bucket,
      keyHash: hashKey(key),
      since: windowSince(rule, now),
      slotStart: new Date(slotStart),
      cost,
      expiresAt: new Date(slotStart + slotMs + rule.windowMs),
    },
    (slots) => {
      const waitMs = waitForRoom(slots, rule, slotMs, cost, now);
      return waitMs === null ? null : retrySeconds(waitMs);
    },
  );
  if (Math.random() < 0.02) await deleteExpiredCounters(db, new Date(now));
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
  const slots = await slotsSince(db, { bucket: rule.bucket, keyHash: hashKey(key) }, windowSince(rule, now));
  const waitMs = waitForRoom(slots, rule, slotOf(rule), cost, now);
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
  const counted = { bucket: rule.bucket, keyHash: hashKey(key) };
  await addUnits(db, {
    ...counted,
    slotStart: new Date(slotStart),
    cost,
    expiresAt: new Date(slotStart + slotMs + rule.windowMs),
  });
  if (Math.random() < 0.02) await deleteExpiredCounters(db, new Date(now));
  return (await slotsSince(db, counted, windowSince(rule, now))).reduce((sum, slot) => sum + slot.count, 0);
}

/** Forgets everything counted for one key of one limit. */
export async function forgetKey(db: Database, bucket: string, key: string) {
  await deleteKey(db, { bucket, keyHash: hashKey(key) });
}

const slotOf = (rule: RateLimit) => Math.max(1, Math.ceil(rule.windowMs / SLOTS_PER_WINDOW));

/** Slots starting after this overlap (now - window, now]: the ones a take counts (never the anchor row). */
const windowSince = (rule: RateLimit, now: number) =>
  new Date(Math.max(0, now - rule.windowMs - slotOf(rule)));

/** Milliseconds until `cost` more units fit in the window, or null when they fit now. */
function waitForRoom(
  slots: Slot[],
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

/** How a key is stored (exported for tests that check what a deletion leaves). */
export const hashKey = (key: string) => createHash('sha256').update(key).digest('base64url').slice(0, 32);

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
