import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ServiceId } from '../../shared/services';
import type { Database } from '../db/client';
import { matchCache } from '../db/schema';
import type { CachedLookup } from '../matching/cache';

/** The SQL of the shared lookup cache (`match_cache`): catalog answers per service and region. */

export interface StoredLookup {
  key: string;
  value: CachedLookup;
  createdAt: Date;
}

/** The stored answers of these keys (at most a few hundred at a time: one `IN` list). */
export async function readLookups(
  db: Database,
  service: ServiceId,
  region: string,
  keys: string[],
): Promise<StoredLookup[]> {
  return db
    .select({ key: matchCache.lookupKey, value: matchCache.value, createdAt: matchCache.createdAt })
    .from(matchCache)
    .where(
      and(
        eq(matchCache.service, service),
        eq(matchCache.region, region),
        inArray(matchCache.lookupKey, keys),
      ),
    );
}

/** Writes these answers in one statement, replacing older answers of the same keys. */
export async function writeLookups(
  db: Database,
  service: ServiceId,
  region: string,
  entries: [string, CachedLookup][],
): Promise<void> {
  if (entries.length === 0) return;
  const createdAt = new Date();
  await db
    .insert(matchCache)
    .values(entries.map(([lookupKey, value]) => ({ service, region, lookupKey, value, createdAt })))
    .onConflictDoUpdate({
      target: [matchCache.service, matchCache.region, matchCache.lookupKey],
      set: { value: sql.raw('excluded.value'), createdAt },
    });
}
