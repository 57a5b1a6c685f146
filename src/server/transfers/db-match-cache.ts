import { LRUCache } from 'lru-cache';
import type { ServiceId } from '../../shared/services';
import type { Database } from '../db/client';
import type { CachedLookup, MatchCache } from '../matching/cache';
import { readLookups, writeLookups } from './match-cache-store';

/** Catalogs change: an answer older than this is asked again. */
const MAX_AGE_MS = 14 * 24 * 60 * 60_000;
const WRITE_BATCH = 500;
/**
 * Answers a job keeps in memory (hits and misses, most recently used): a few chunks' worth (a chunk asks at
 * most a few hundred keys), so a 100,000-track job holds no more than a 1,000-track one (issue 25). A key
 * let go is read from the database again if it is asked for again.
 */
const KEPT_ANSWERS = 5_000;
/** An LRU cache holds objects: a miss is kept as this. */
const MISS = { miss: true } as const;

/**
 * The matching engine's lookup cache in the database, per service and region and shared by everyone:
 * catalog answers are not personal, so the second person moving a popular song costs no API call.
 *
 * One query per lookup would cost more than the lookups save on a 10,000-track playlist, so a match job
 * prefetches the keys it is about to need in one query and writes its answers in batches (`flush`).
 */
export class DatabaseMatchCache implements MatchCache {
  private readonly known = new LRUCache<string, CachedLookup | typeof MISS>({ max: KEPT_ANSWERS });
  private pending = new Map<string, CachedLookup>();

  constructor(
    private readonly db: Database,
    private readonly service: ServiceId,
    private readonly region: string,
  ) {}

  /** Loads these keys in one query; afterwards `get` answers them (hit or miss) from memory. */
  async prefetch(keys: string[]): Promise<void> {
    const wanted = [...new Set(keys)].filter((key) => !this.known.has(key));
    for (let start = 0; start < wanted.length; start += WRITE_BATCH) {
      const slice = wanted.slice(start, start + WRITE_BATCH);
      const rows = await readLookups(this.db, this.service, this.region, slice);
      for (const key of slice) this.known.set(key, MISS);
      for (const row of rows) {
        if (Date.now() - row.createdAt.getTime() <= MAX_AGE_MS) this.known.set(row.key, row.value);
      }
    }
  }

  async get(key: string): Promise<CachedLookup | undefined> {
    if (!this.known.has(key)) await this.prefetch([key]);
    const known = this.known.get(key);
    return known === undefined || 'miss' in known ? undefined : known;
  }

  async set(key: string, value: CachedLookup): Promise<void> {
    this.known.set(key, value);
    this.pending.set(key, value);
    if (this.pending.size >= WRITE_BATCH) await this.flush();
  }

  /** Writes the answers gathered since the last flush. */
  async flush(): Promise<void> {
    const entries = [...this.pending];
    this.pending = new Map();
    for (let start = 0; start < entries.length; start += WRITE_BATCH) {
      await writeLookups(this.db, this.service, this.region, entries.slice(start, start + WRITE_BATCH));
    }
  }
}
