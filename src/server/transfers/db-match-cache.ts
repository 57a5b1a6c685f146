import { and, eq } from 'drizzle-orm';
import type { ServiceId } from '../../shared/services';
import type { Database } from '../db/client';
import { matchCache } from '../db/schema';
import type { CachedLookup, MatchCache } from '../matching/cache';

/** Catalogs change: an answer older than this is asked again. */
const MAX_AGE_MS = 14 * 24 * 60 * 60_000;

/**
 * The matching engine's lookup cache in the database, per service and region and shared by everyone:
 * catalog answers are not personal, so the second person moving a popular song costs no API call.
 */
export class DatabaseMatchCache implements MatchCache {
  constructor(
    private readonly db: Database,
    private readonly service: ServiceId,
    private readonly region: string,
  ) {}

  async get(key: string): Promise<CachedLookup | undefined> {
    const [row] = await this.db
      .select({ value: matchCache.value, createdAt: matchCache.createdAt })
      .from(matchCache)
      .where(
        and(
          eq(matchCache.service, this.service),
          eq(matchCache.region, this.region),
          eq(matchCache.lookupKey, key),
        ),
      );
    if (!row || Date.now() - row.createdAt.getTime() > MAX_AGE_MS) return undefined;
    return row.value as CachedLookup;
  }

  async set(key: string, value: CachedLookup): Promise<void> {
    const row = { service: this.service, region: this.region, lookupKey: key, value, createdAt: new Date() };
    await this.db
      .insert(matchCache)
      .values(row)
      .onConflictDoUpdate({
        target: [matchCache.service, matchCache.region, matchCache.lookupKey],
        set: row,
      });
  }
}
