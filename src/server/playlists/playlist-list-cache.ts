import { LRUCache } from 'lru-cache';
import type { PlaylistSummary as PlaylistDto } from '../../shared/api/playlists';
import type { ServiceId } from '../../shared/services';
import type { Database } from '../db/client';
import { READ_CACHE_MS } from '../db/read-cache';
import type { KnownTrackCount, MusicProvider, PlaylistSummary } from '../providers/types';

/**
 * A person's playlist list on a service (step 2), kept per process for PLAYLISTS_CACHE_SECONDS (decision
 * 0032). The key names the connection (account and when it was authorised), so a reconnect to another
 * account never sees the old list. After the answer expires the service is asked again, but a playlist
 * whose change marker (Spotify's `snapshot_id`, Apple's `lastModifiedDate`) is the same keeps the length
 * counted before: Apple's list carries no lengths and costs a call per playlist otherwise.
 * Both maps are bounded: the oldest unread people go first.
 */
const MAX_LISTS = 5_000;
const MAX_LIST_BYTES = 64 * 1024 * 1024;
const MAX_PEOPLE_WITH_COUNTS = 10_000;
const COUNTS_TTL_MS = 24 * 60 * 60_000;
/**
 * Apple's marker is to the second: a length counted within this long of the marker's time may predate a
 * second change in that same second, so it is counted again next time.
 */
const MARKER_RESOLUTION_MS = 2_000;

export interface CachedList {
  entries: PlaylistDto[];
  /** `entries` as JSON without the brackets (empty for none), ready to be joined with other entries. */
  inner: string;
  /** `entries` as UTF-8 JSON, written as it is when the person has no imported files. */
  json: Uint8Array<ArrayBuffer>;
}

interface CountedLength extends KnownTrackCount {
  countedAt: number;
}

export interface ListKey {
  userId: string;
  service: ServiceId;
  providerUserId: string | null;
  authorizedAt: Date;
}

export class PlaylistListCache {
  private readonly lists = new LRUCache<string, CachedList>({
    max: MAX_LISTS,
    maxSize: MAX_LIST_BYTES,
    sizeCalculation: (list) => Math.max(1, list.inner.length * 2 + list.json.byteLength),
  });
  /** Reads under way: concurrent readers of an expired list share one. Bounded by the people reading. */
  private readonly loading = new Map<string, Promise<CachedList>>();
  /** Bumped by `forget`: a read begun before a write is not kept after it. */
  private generation = 0;
  private readonly counts = new LRUCache<string, Map<string, CountedLength>>({
    max: MAX_PEOPLE_WITH_COUNTS,
    ttl: COUNTS_TTL_MS,
  });

  /**
   * Which account each person's connection names, for READ_CACHE_MS and only while this process has
   * written no connection (the rule of the session cache, decision 0018): a read of a kept list then costs
   * no query for the connection and no decryption of its tokens.
   */
  private readonly connections = new LRUCache<string, { key: ListKey; generation: number }>({
    max: MAX_LISTS,
    ttl: READ_CACHE_MS,
  });

  constructor(private readonly ttlMs: number) {}

  knownConnection(userId: string, service: ServiceId, generation: number): ListKey | undefined {
    const known = this.connections.get(`${userId}:${service}`);
    return known?.generation === generation ? known.key : undefined;
  }

  rememberConnection(key: ListKey, generation: number) {
    this.connections.set(`${key.userId}:${key.service}`, { key, generation });
  }

  /**
   * The cached list, or the one `load` reads (kept for the TTL unless the TTL is 0). `fresh` (a request's
   * `Cache-Control: no-cache`) reads it again whatever is kept; lengths still come from the markers.
   */
  async get(key: ListKey, load: () => Promise<PlaylistDto[]>, fresh = false): Promise<CachedList> {
    const build = async (): Promise<CachedList> => {
      const entries = await load();
      const json = JSON.stringify(entries);
      return { entries, inner: json.slice(1, -1), json: new TextEncoder().encode(json) };
    };
    if (this.ttlMs === 0) return build();
    const id = listKey(key);
    const cached = fresh ? undefined : this.lists.get(id);
    if (cached) return cached;
    let pending = fresh ? undefined : this.loading.get(id);
    if (!pending) {
      const generation = this.generation;
      pending = build()
        .then((list) => {
          if (generation === this.generation) this.lists.set(id, list, { ttl: this.ttlMs });
          return list;
        })
        .finally(() => {
          if (this.loading.get(id) === started) this.loading.delete(id);
        });
      const started = pending;
      this.loading.set(id, started);
    }
    return pending;
  }

  /** Lengths counted earlier whose marker still says nothing changed since. */
  knownCounts(key: ListKey): Map<string, KnownTrackCount> {
    const known = new Map<string, KnownTrackCount>();
    for (const [id, counted] of this.counts.get(countsKey(key)) ?? []) {
      const markerTime = Date.parse(counted.changeMarker);
      const settled = Number.isNaN(markerTime) || counted.countedAt - markerTime >= MARKER_RESOLUTION_MS;
      if (settled) known.set(id, counted);
    }
    return known;
  }

  /**
   * Remembers the lengths of this listing under their markers (only the playlists listed now); a length
   * taken from `reused` keeps the time it was counted.
   */
  rememberCounts(
    key: ListKey,
    playlists: PlaylistSummary[],
    reused: ReadonlyMap<string, KnownTrackCount>,
    now: number,
  ) {
    const previous = this.counts.get(countsKey(key));
    const next = new Map<string, CountedLength>();
    for (const playlist of playlists) {
      if (!playlist.changeMarker || playlist.trackCountUnknown) continue;
      const before = previous?.get(playlist.id);
      const kept = reused.get(playlist.id)?.changeMarker === playlist.changeMarker && before;
      next.set(playlist.id, {
        changeMarker: playlist.changeMarker,
        trackCount: playlist.trackCount,
        countedAt: kept ? before.countedAt : now,
      });
    }
    this.counts.set(countsKey(key), next);
  }

  /** Forgets a person's lists in this process (after Crossfade itself changed their playlists). */
  forget(userId: string) {
    this.generation++;
    for (const key of [...this.loading.keys()]) if (key.startsWith(`${userId}:`)) this.loading.delete(key);
    for (const key of [...this.lists.keys()]) if (key.startsWith(`${userId}:`)) this.lists.delete(key);
  }
}

const countsKey = (key: ListKey) => `${key.userId}:${key.service}:${key.providerUserId ?? ''}`;
const listKey = (key: ListKey) => `${countsKey(key)}:${key.authorizedAt.getTime()}`;

const caches = new WeakMap<Database, PlaylistListCache>();

/** One cache per database handle: an app (and each test server) keeps its own. */
export function playlistListCache(db: Database, ttlSeconds: number): PlaylistListCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new PlaylistListCache(ttlSeconds * 1000);
    caches.set(db, cache);
  }
  return cache;
}

/** Forgets a person's lists in this process, if it keeps any. */
export function forgetPlaylistLists(db: Database, userId: string) {
  caches.get(db)?.forget(userId);
}

/** The provider's calls that change the person's library or playlists. */
const WRITES = new Set<string>(['createPlaylist', 'addTracks', 'removeTracks', 'saveTracks', 'saveAlbums']);

/**
 * The same provider, calling `onWrite` before and after each of its writes (after, too, so a list read
 * while the write was under way is not kept).
 */
export function forgettingListsOnWrites(provider: MusicProvider, onWrite: () => void): MusicProvider {
  return new Proxy(provider, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (typeof property !== 'string' || !WRITES.has(property)) return value.bind(target);
      return async (...args: unknown[]) => {
        onWrite();
        try {
          return await value.apply(target, args);
        } finally {
          onWrite();
        }
      };
    },
  });
}
