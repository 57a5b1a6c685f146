import type { SessionUser } from '../../shared/api/auth';
import type { ServiceId } from '../../shared/services';

/**
 * A short-lived in-process cache of what every signed-in request reads: the session's user and the
 * services that person has connected. Without it each request costs one or two database round trips,
 * which on the embedded database is most of a request's time (decision 0018).
 *
 * Freshness:
 * - In this process a cached answer never outlives a change. Every write to `users`, `sessions` or
 *   `provider_connections` made through this process's database handle (the routes, the jobs, a test's
 *   direct `db.update(users)`) clears the whole cache when it is issued (`noteQuery`, fed by Drizzle's
 *   query logger), once more when a transaction ends soon after such a write (on PostgreSQL another
 *   connection sees the old row until the commit), and revoking a session or deleting an account clears it again once the write is done.
 *   A read that was in flight across a write does not store its answer (`generation`).
 * - Another process's change (a sign-out through another API process, `crossfade plan set`) is seen
 *   after at most READ_CACHE_MS.
 * - Nothing is kept past the session's own expiry, and at most MAX_ENTRIES answers of each kind.
 */
export const READ_CACHE_MS = 2000;
const MAX_ENTRIES = 10_000;

/** Statements that change what the cache holds (Drizzle's, with quoted names, and hand-written SQL). */
const WATCHED_WRITE =
  /^\s*(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+(?:"?public"?\.)?"?(?:users|sessions|provider_connections)(?![\w$])/i;
/** The end of a transaction: a watched write inside it is only visible to other connections from here. */
const TRANSACTION_END = /^\s*(?:commit|rollback|end)\b/i;
/** How long after a watched write the end of any transaction clears the cache once more. */
const WRITE_COMMIT_WINDOW_MS = 30_000;

interface Entry<T> {
  value: T;
  until: number;
}

export class ReadCache {
  /** Bumped by every clear: an answer read across a clear is not stored. */
  generation = 0;
  private readonly sessions = new Map<string, Entry<SessionUser>>();
  private readonly connections = new Map<string, Entry<ServiceId[]>>();

  /** Until when the end of a transaction may be the commit of a watched write. */
  private writeMayCommitUntil = 0;

  /**
   * Called with the text of every statement this process sends, before it runs. A write inside a
   * transaction (PostgreSQL, several connections) is not visible to other connections until it commits:
   * a read between the write and its commit would cache the old row, so the commit clears again.
   */
  noteQuery(query: string): void {
    if (WATCHED_WRITE.test(query)) {
      this.clear();
      this.writeMayCommitUntil = Date.now() + WRITE_COMMIT_WINDOW_MS;
    } else if (TRANSACTION_END.test(query) && Date.now() < this.writeMayCommitUntil) this.clear();
  }

  clear(): void {
    this.generation++;
    this.sessions.clear();
    this.connections.clear();
  }

  session(tokenHash: string): SessionUser | undefined {
    return fresh(this.sessions, tokenHash);
  }

  storeSession(tokenHash: string, user: SessionUser, expiresAt: Date, readAt: number): void {
    if (readAt !== this.generation) return;
    put(this.sessions, tokenHash, user, Math.min(Date.now() + READ_CACHE_MS, expiresAt.getTime()));
  }

  connected(userId: string): ServiceId[] | undefined {
    const services = fresh(this.connections, userId);
    return services ? [...services] : undefined;
  }

  storeConnected(userId: string, services: ServiceId[], readAt: number): void {
    if (readAt !== this.generation) return;
    put(this.connections, userId, [...services], Date.now() + READ_CACHE_MS);
  }
}

function fresh<T>(map: Map<string, Entry<T>>, key: string): T | undefined {
  const entry = map.get(key);
  if (!entry) return undefined;
  if (entry.until <= Date.now()) {
    map.delete(key);
    return undefined;
  }
  return entry.value;
}

function put<T>(map: Map<string, Entry<T>>, key: string, value: T, until: number): void {
  if (map.size >= MAX_ENTRIES) map.clear();
  map.set(key, { value, until });
}

const caches = new WeakMap<object, ReadCache>();

/** The cache of a database handle opened by `openDatabase`; undefined (no caching) for any other. */
export function readCacheOf(db: object): ReadCache | undefined {
  return caches.get(db);
}

export function attachReadCache(db: object, cache: ReadCache): void {
  caches.set(db, cache);
}
