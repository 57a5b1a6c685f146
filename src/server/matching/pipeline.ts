import { NOT_PLAYABLE_HERE_REASON } from '../../shared/api/transfer';
import { chunk, mapWithConcurrency } from '../concurrency';
import type { MusicProvider, NormalizedTrack, TrackQuery } from '../providers/types';
import { type CachedLookup, lookupCacheKey, type MatchCache } from './cache';
import { type PreparedTrack, prepareTrack } from './prepare';
import {
  ACCEPT_THRESHOLD,
  type MatchStatus,
  REVIEW_THRESHOLD,
  rankCandidates,
  type ScoredCandidate,
  type ScoringOptions,
  statusFor,
  unmatchedReasons,
  VERSION_MISMATCH_CAP,
} from './score';
import { buildStrategies, queryKey, RESCUE_SEARCHES, type SearchStrategyName } from './strategies';

export interface TrackMatch {
  sourceId: string;
  source: NormalizedTrack;
  /** The proposed match (accepted or for review); null when unmatched, even if candidates were found. */
  best: ScoredCandidate | null;
  /** Top candidates, best first, each with its version labels (for "choose another version"). */
  candidates: ScoredCandidate[];
  /** The top candidate's confidence (0 when there was none). */
  confidence: number;
  status: MatchStatus;
  /**
   * Why: the top candidate's reasons ("different version: live"), or "no candidates found", or that the
   * destination lists the recording only where the person cannot play it (`NOT_PLAYABLE_HERE_REASON`).
   */
  reasons: string[];
}

export interface TieBreakerAnswer {
  chosenId: string | null;
  confidence: number;
  reason: string;
}

/** Asked only when the top two candidates are both in the review band and close (an LLM, usually). */
export type TieBreaker = (
  source: NormalizedTrack,
  candidates: ScoredCandidate[],
) => Promise<TieBreakerAnswer | null>;

export interface MatchOptions {
  region?: string;
  cache?: MatchCache;
  onProgress?: (done: number, total: number) => void;
  tieBreaker?: TieBreaker;
  /** How many source tracks are searched at once (the provider's own limiter still applies). */
  concurrency?: number;
  /**
   * ISRCs of the tracks that come after these (a job matching a long playlist in chunks): they fill the
   * last ISRC batch, so every lookup call carries a full batch and the next chunk finds them in the cache.
   * Only useful with a `cache` that lives across the chunks.
   */
  isrcLookahead?: readonly string[];
  /** On by default; the benchmark turns it off to show that its figures then fail (see `ScoringOptions`). */
  versionDetection?: boolean;
}

export const MAX_CANDIDATES = 5;
export const SEARCH_LIMIT = 10;
/** Points between the top two review candidates below which the tie-breaker is asked. */
export const TIE_MARGIN = 5;
/** A tie-breaker can settle a choice but never claims more certainty than an exact match would have. */
const TIE_BREAKER_MAX_CONFIDENCE = 95;
const DEFAULT_CONCURRENCY = 4;
const CACHE_READS_PER_WORKER = 4;

function now(): string {
  return new Date().toISOString();
}

/** Every network answer goes through here: cached per service + region + request, identical requests shared. */
class LookupService {
  private readonly inFlight = new Map<string, Promise<NormalizedTrack[]>>();

  constructor(
    private readonly destination: MusicProvider,
    private readonly region: string | undefined,
    private readonly cache: MatchCache | undefined,
  ) {}

  async isrcs(
    isrcs: string[],
    concurrency: number,
    lookahead: readonly string[] = [],
  ): Promise<Map<string, NormalizedTrack[]>> {
    const found = new Map<string, NormalizedTrack[]>();
    const missing = await this.uncachedIsrcs(isrcs, concurrency, found);
    const batchSize = Math.max(1, this.destination.isrcBatchSize);
    // Fill the last batch with the next tracks' ISRCs: the call costs the same, and they are then known.
    const wanted = new Set(missing);
    const ahead = [...new Set(lookahead)].filter((isrc) => !wanted.has(isrc));
    for (let start = 0; missing.length % batchSize !== 0 && start < ahead.length; ) {
      const slice = ahead.slice(start, start + batchSize - (missing.length % batchSize));
      start += slice.length;
      missing.push(...(await this.uncachedIsrcs(slice, concurrency, new Map())));
    }
    const batches = chunk(missing, batchSize);
    await mapWithConcurrency(batches, concurrency, async (batch) => {
      const answer = await this.destination.lookupIsrcs(
        batch,
        this.region ? { region: this.region } : undefined,
      );
      for (const isrc of batch) {
        const tracks = answer.get(isrc) ?? [];
        found.set(isrc, tracks);
        await this.remember({ kind: 'isrc', isrc }, tracks);
      }
    });
    return found;
  }

  /** Puts the cached answers into `found` and returns the ISRCs the cache does not know, in order. */
  private async uncachedIsrcs(
    isrcs: readonly string[],
    concurrency: number,
    found: Map<string, NormalizedTrack[]>,
  ): Promise<string[]> {
    const cache = this.cache;
    if (cache) {
      // A database cache answers many small reads faster in parallel than one after another.
      await mapWithConcurrency(isrcs, concurrency * CACHE_READS_PER_WORKER, async (isrc) => {
        const cached = await cache.get(
          lookupCacheKey(this.destination.service, this.region, { kind: 'isrc', isrc }),
        );
        if (cached) found.set(isrc, cached.tracks);
      });
    }
    return isrcs.filter((isrc) => !found.has(isrc));
  }

  search(built: TrackQuery): Promise<NormalizedTrack[]> {
    // Two strategies' queries that the service reads alike are one search, one call and one cache entry.
    const query = this.destination.searchAs?.(built) ?? built;
    const key = queryKey(query);
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const promise = this.searchUncached(query);
    this.inFlight.set(key, promise);
    // A failed search must not be remembered as the answer for the rest of the run.
    promise.catch(() => this.inFlight.delete(key));
    return promise;
  }

  private async searchUncached(query: TrackQuery): Promise<NormalizedTrack[]> {
    const cacheKey = lookupCacheKey(this.destination.service, this.region, { kind: 'search', query });
    const cached = await this.cache?.get(cacheKey);
    if (cached) return cached.tracks;
    const tracks = await this.destination.searchTracks(query, {
      limit: SEARCH_LIMIT,
      ...(this.region ? { region: this.region } : {}),
    });
    await this.remember({ kind: 'search', query }, tracks);
    return tracks;
  }

  private async remember(
    request: { kind: 'isrc'; isrc: string } | { kind: 'search'; query: TrackQuery },
    tracks: NormalizedTrack[],
  ): Promise<void> {
    if (!this.cache) return;
    const value: CachedLookup = { tracks, fetchedAt: now() };
    await this.cache.set(lookupCacheKey(this.destination.service, this.region, request), value);
  }
}

function isAccepted(ranked: readonly ScoredCandidate[]): boolean {
  return (ranked[0]?.confidence ?? 0) >= ACCEPT_THRESHOLD;
}

/**
 * How the destination's ISRC answer proves it has no recording under the track's ISRC that the person can
 * play: it answered that code with nothing in this region (`'empty'`), or only with songs it lists but cannot stream there (Apple's songs
 * without `playParams`, Spotify's `is_playable: false`), which are never candidates. An ISRC identifies a
 * recording, so only one thing can still find it: the same recording filed under another code (a
 * remaster's or compilation's ISRC, or none), which the most precise search, title + primary artist,
 * finds, or when that page is crowded by look-alikes, the album the source names (for a name in another
 * script, also its Latin form and the album).
 * The broader searches (simplified title, title alone, the title as written) exist for tracks whose ISRC
 * is unknown; after this answer they would only bring other recordings (decisions 0044 and 0051). A track
 * without an ISRC, or whose lookup found playable songs that were not accepted, proves nothing (null) and
 * tries them all.
 */
function isrcProvesAbsence(
  source: PreparedTrack,
  isrcAnswers: Map<string, NormalizedTrack[]>,
): 'empty' | 'unplayable' | null {
  const answer = source.isrc ? isrcAnswers.get(source.isrc) : undefined;
  if (!answer?.every((track) => track.availability?.playable === false)) return null;
  return answer.length === 0 ? 'empty' : 'unplayable';
}

/** What the searches of one track have shown so far, for `worthSearching`. */
interface SearchState {
  /** The ISRC answer proved the recording absent under that code (`isrcProvesAbsence`). */
  readonly absent: boolean;
  /** A search has been sent for this track. */
  searched: boolean;
  /** Some search answered a full page with the title among it (`crowdedByLookAlikes`). */
  crowded: boolean;
}

/**
 * A full page that lists the title (covers, other recordings of it): the recording looked for may have
 * been crowded off it. A page with room to spare listed every match the service had; a full page of other
 * titles found nothing near the title at all.
 */
function crowdedByLookAlikes(source: PreparedTrack, answer: readonly NormalizedTrack[]): boolean {
  return (
    answer.length >= SEARCH_LIMIT && answer.some((track) => prepareTrack(track).coreKey === source.coreKey)
  );
}

/**
 * Whether a search is still worth its call. The rescue searches (`RESCUE_SEARCHES`: the title as written,
 * the title with the other credited names, the artist's list of songs) are for songs no other search
 * found well enough: only while nothing so far is worth a review. After the ISRC answer proved the
 * recording absent under that code, the title + artist search (and its Latin form, for a name in another
 * script) looks for it under another code; while nothing worth a review has come, the album it is on
 * follows only when a page was full of look-alikes (`crowdedByLookAlikes`) or the title is in another
 * script (romanizations that disagree). Every other search, the artist's list included, found nothing
 * more after such an answer (measured, decisions 0033 and 0044), so none is spent.
 */
function worthSearching(
  name: SearchStrategyName,
  source: PreparedTrack,
  ranked: readonly ScoredCandidate[],
  state: SearchState,
): boolean {
  const nothingWorthReview = (ranked[0]?.confidence ?? 0) < REVIEW_THRESHOLD;
  if (state.absent) {
    if (!state.searched || name === 'transliterated') return true;
    if (name === 'album') return nothingWorthReview && (state.crowded || source.otherScript);
    return false;
  }
  return RESCUE_SEARCHES.has(name) ? nothingWorthReview : true;
}

async function findCandidates(
  source: PreparedTrack,
  isrcAnswers: Map<string, NormalizedTrack[]>,
  lookups: LookupService,
  scoring: ScoringOptions,
): Promise<{ ranked: ScoredCandidate[]; listedUnplayable: boolean }> {
  const pool: NormalizedTrack[] = [];
  let ranked: ScoredCandidate[] = [];
  const absence = isrcProvesAbsence(source, isrcAnswers);
  const state: SearchState = {
    absent: absence !== null,
    searched: false,
    crowded: false,
  };
  for (const strategy of buildStrategies(source)) {
    if (strategy.kind === 'search' && !worthSearching(strategy.name, source, ranked, state)) continue;
    const answer =
      strategy.kind === 'isrc'
        ? (isrcAnswers.get(strategy.isrc) ?? [])
        : await lookups.search(strategy.query);
    if (strategy.kind === 'search') {
      state.searched = true;
      // Only an absent recording's album search asks (`worthSearching`): no other track prepares the page.
      if (state.absent && !state.crowded) state.crowded = crowdedByLookAlikes(source, answer);
    }
    // A track the person cannot play where they are (Spotify's `is_playable: false`, an Apple song without
    // `playParams`) is never a candidate, however well it matches.
    const found = answer.filter((track) => track.availability?.playable !== false);
    if (found.length > 0) {
      pool.push(...found);
      ranked = rankCandidates(source, pool, scoring);
      if (isAccepted(ranked)) break;
    }
  }
  // Listed only where the person cannot play it: the row says so if nothing else is found.
  return { ranked, listedUnplayable: absence === 'unplayable' };
}

function buildMatch(source: PreparedTrack, ranked: ScoredCandidate[], listedUnplayable: boolean): TrackMatch {
  const top = ranked[0];
  const confidence = top?.confidence ?? 0;
  const status = top ? statusFor(confidence) : 'unmatched';
  return {
    sourceId: source.track.id,
    source: source.track,
    // Below the review band nothing is proposed; the candidates stay listed for "choose another version".
    best: top && status !== 'unmatched' ? top : null,
    candidates: ranked.slice(0, MAX_CANDIDATES),
    confidence,
    status,
    reasons:
      status !== 'unmatched'
        ? [...(top?.reasons ?? [])]
        : listedUnplayable
          ? [NOT_PLAYABLE_HERE_REASON, ...(top ? unmatchedReasons(top) : [])]
          : unmatchedReasons(top),
  };
}

async function applyTieBreaker(match: TrackMatch, tieBreaker: TieBreaker): Promise<TrackMatch> {
  const [first, second] = match.candidates;
  if (match.status !== 'review' || !first || !second) return match;
  if (second.confidence < REVIEW_THRESHOLD || second.confidence < first.confidence - TIE_MARGIN) return match;
  const answer = await tieBreaker(match.source, match.candidates);
  if (!answer) return match;
  const reason = `tie-breaker: ${answer.reason}`;
  if (answer.chosenId === null) {
    return {
      ...match,
      best: null,
      confidence: 0,
      status: 'unmatched',
      reasons: [...unmatchedReasons(first), reason],
    };
  }
  const chosen = match.candidates.find((c) => c.track.id === answer.chosenId);
  if (!chosen) return match;
  let confidence = Math.max(0, Math.min(TIE_BREAKER_MAX_CONFIDENCE, Math.round(answer.confidence)));
  if (!chosen.sameVersion) confidence = Math.min(confidence, VERSION_MISMATCH_CAP);
  return {
    ...match,
    best: chosen,
    candidates: [chosen, ...match.candidates.filter((c) => c !== chosen)],
    confidence,
    status: statusFor(confidence),
    reasons: [...chosen.reasons, reason],
  };
}

/**
 * Finds each source track on the destination service. ISRCs are looked up first in batches of the
 * provider's `isrcBatchSize`; the remaining strategies run per track and stop as soon as a candidate is
 * accepted; when the ISRC answer proved the recording absent, after the title + artist search and the
 * few searches that can still find it elsewhere (see `isrcProvesAbsence`, `worthSearching`).
 * Results keep the sources' order.
 */
export async function matchTracks(
  sources: NormalizedTrack[],
  destination: MusicProvider,
  options: MatchOptions = {},
): Promise<TrackMatch[]> {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const lookups = new LookupService(destination, options.region, options.cache);
  const scoring: ScoringOptions = { versionDetection: options.versionDetection !== false };
  const prepared = sources.map(prepareTrack);

  const isrcs = [...new Set(prepared.map((p) => p.isrc).filter((isrc): isrc is string => isrc !== null))];
  const isrcAnswers =
    isrcs.length > 0
      ? await lookups.isrcs(isrcs, concurrency, options.isrcLookahead)
      : new Map<string, NormalizedTrack[]>();

  const results: TrackMatch[] = new Array(sources.length);
  let done = 0;
  const indices = prepared.map((_, i) => i);
  await mapWithConcurrency(indices, concurrency, async (index) => {
    const source = prepared[index];
    if (!source) return;
    const found = await findCandidates(source, isrcAnswers, lookups, scoring);
    let match = buildMatch(source, found.ranked, found.listedUnplayable);
    if (options.tieBreaker) match = await applyTieBreaker(match, options.tieBreaker);
    results[index] = match;
    done++;
    options.onProgress?.(done, sources.length);
  });
  return results;
}
