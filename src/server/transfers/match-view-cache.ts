import { LRUCache } from 'lru-cache';
import type { Database } from '../db/client';

/**
 * The serialised view of ready match sets, per process (decision 0032). An entry is keyed by the set's id
 * and carries the set's `version` (bumped by database triggers on every change of the set or its rows,
 * whoever makes it), so a read compares one small row with its copy instead of reading, validating and
 * serialising 200 rows again. Bounded by total size; the oldest unread entries go first.
 */
const MAX_BYTES = 32 * 1024 * 1024;
/** A view bigger than this (a 10,000-track set is several megabytes) is built on every read, never kept. */
const MAX_ENTRY_BYTES = 4 * 1024 * 1024;

interface CachedView {
  userId: string;
  version: number;
  /** The view as UTF-8 JSON: what is written to the socket, encoded once. */
  json: Uint8Array<ArrayBuffer>;
}

export class MatchViewCache {
  private readonly entries = new LRUCache<string, CachedView>({
    maxSize: MAX_BYTES,
    maxEntrySize: MAX_ENTRY_BYTES,
    sizeCalculation: (entry) => Math.max(1, entry.json.byteLength),
  });

  /** The cached JSON of this set at this version for this person, if any. */
  get(matchSetId: string, userId: string, version: number): Uint8Array<ArrayBuffer> | undefined {
    const entry = this.entries.get(matchSetId);
    return entry && entry.version === version && entry.userId === userId ? entry.json : undefined;
  }

  set(matchSetId: string, userId: string, version: number, json: Uint8Array<ArrayBuffer>) {
    if (json.byteLength > MAX_ENTRY_BYTES) return;
    this.entries.set(matchSetId, { userId, version, json });
  }

  get size() {
    return this.entries.size;
  }
}

const caches = new WeakMap<Database, MatchViewCache>();

/** One cache per database handle: an app (and each test server) keeps its own. */
export function matchViewCache(db: Database): MatchViewCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new MatchViewCache();
    caches.set(db, cache);
  }
  return cache;
}
