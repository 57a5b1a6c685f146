import type { ServiceId } from '../../shared/services';
import type { NormalizedTrack, TrackQuery } from '../providers/types';
import { queryKey } from './strategies';

/** What one ISRC lookup or one search returned; an empty list is a remembered failure. */
export interface CachedLookup {
  tracks: NormalizedTrack[];
  /** ISO timestamp, so the store can expire old answers. */
  fetchedAt: string;
}

/** Catalog answers are not user data: one cache serves every user (the database implementation lives elsewhere). */
export interface MatchCache {
  get(key: string): Promise<CachedLookup | undefined>;
  set(key: string, value: CachedLookup): Promise<void>;
}

export type CachedRequest = { kind: 'isrc'; isrc: string } | { kind: 'search'; query: TrackQuery };

/** One key per service + region + request: answers differ between storefronts. */
export function lookupCacheKey(
  service: ServiceId,
  region: string | undefined,
  request: CachedRequest,
): string {
  const regionPart = region ? region.toLowerCase() : '-';
  const requestPart = request.kind === 'isrc' ? `isrc:${request.isrc}` : `search:${queryKey(request.query)}`;
  return `${service}:${regionPart}:${requestPart}`;
}

/** For tests and one-off runs (the CLI, benchmarks). */
export class MemoryMatchCache implements MatchCache {
  private readonly entries = new Map<string, CachedLookup>();

  async get(key: string): Promise<CachedLookup | undefined> {
    return this.entries.get(key);
  }

  async set(key: string, value: CachedLookup): Promise<void> {
    this.entries.set(key, value);
  }

  get size(): number {
    return this.entries.size;
  }
}
