import { and, eq, gt, lt } from 'drizzle-orm';
import type { Database } from '../db/client';
import { loginFailures } from '../db/schema';

/**
 * Slows down password guessing: after `maxFailures` failed sign-ins for one username (or five times as
 * many from one address),
 * within the window, further attempts are refused until the oldest failure leaves the window. Stored in
 * the database so every app process shares the count.
 */
const ADDRESS_FACTOR = 5;

export interface ThrottleSettings {
  maxFailures: number;
  windowMs: number;
}

export async function retryAfterSeconds(
  db: Database,
  usernameKey: string,
  clientAddress: string,
  settings: ThrottleSettings,
): Promise<number | null> {
  const since = new Date(Date.now() - settings.windowMs);
  // One address may fail more often than one username: several people can share an address (NAT).
  const checks = [
    { condition: eq(loginFailures.usernameKey, usernameKey), limit: settings.maxFailures },
    {
      condition: eq(loginFailures.clientAddress, clientAddress),
      limit: settings.maxFailures * ADDRESS_FACTOR,
    },
  ];
  for (const { condition, limit } of checks) {
    const rows = await db
      .select({ at: loginFailures.at })
      .from(loginFailures)
      .where(and(condition, gt(loginFailures.at, since)))
      .orderBy(loginFailures.at);
    if (rows.length >= limit) {
      // The attempt that must leave the window before another is allowed.
      const blocking = rows[rows.length - limit];
      if (blocking)
        return Math.max(1, Math.ceil((blocking.at.getTime() + settings.windowMs - Date.now()) / 1000));
    }
  }
  return null;
}

export async function recordFailure(
  db: Database,
  usernameKey: string,
  clientAddress: string,
  windowMs: number,
) {
  await db.insert(loginFailures).values({ usernameKey, clientAddress });
  await db.delete(loginFailures).where(lt(loginFailures.at, new Date(Date.now() - windowMs * 2)));
}

export async function clearFailures(db: Database, usernameKey: string) {
  await db.delete(loginFailures).where(eq(loginFailures.usernameKey, usernameKey));
}
