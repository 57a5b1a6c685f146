import { z } from 'zod';
import { FOLLOWED_PLAYLIST_MESSAGE } from '../../shared/api/transfer';
import { parseCollectionId } from '../../shared/library-ids';
import { SERVICE_LABELS, type ServiceId } from '../../shared/services';
import { createMatchingTieBreaker } from '../ai/matching-tie-breaker';
import type { AppDeps } from '../app-context';
import { history } from '../history/history-hooks';
import { defineJob } from '../jobs/define-job';
import type { JobContext } from '../jobs/job-runner';
import { PermanentJobError } from '../jobs/job-runner';
import { albumTrackMatch } from '../matching/albums';
import { lookupCacheKey } from '../matching/cache';
import { normalizeIsrc } from '../matching/isrc';
import { matchTracks } from '../matching/pipeline';
import { loadSourcePlaylist } from '../playlists/source-playlists';
import { ProviderError } from '../providers/http';
import type { MusicProvider, PlaylistEntry } from '../providers/types';
import { DatabaseMatchCache } from './db-match-cache';
import { classifyJobError, JOB_INLINE_WAIT_MS } from './job-errors';
import { matchSavedAlbum, pairedByPosition, sourceAlbumInfo } from './library-collections';
import { rowFromMatch, rowFromSkippedEntry } from './match-rows';
import { loadRules, ruledRow, ruleKeyOf } from './match-rules';
import {
  deleteMatchRows,
  deleteSourceEntries,
  findMatchSet,
  insertMatchRows,
  insertSourceEntries,
  listSourceEntries,
  type MatchSetRecord,
  updateMatchSet,
} from './match-set-store';
import { SourceFeed } from './source-feed';

/** Searches answer per country, so matching waits until the person has said which one is theirs. */
export const unknownRegionMessage = (service: ServiceId) =>
  `${SERVICE_LABELS[service]} did not tell us which country your account is in, and what it can play depends on it. Choose your country on the Account page, then match again.`;

export const MATCH_JOB = 'match';

const matchJobPayloadSchema = z.object({ matchSetId: z.uuid() });
type MatchJobPayload = z.infer<typeof matchJobPayloadSchema>;

/**
 * Rows are stored in chunks; a resumed run skips chunks already stored. A multiple of Apple's 25-ISRC
 * batch; the ISRC lookups also run ahead into the next chunk (`isrcLookahead`), so no batch goes out part-full.
 */
const CHUNK = 200;
/** How far ahead a chunk's last ISRC batch may reach for ISRCs to fill it (a few batches of the largest size). */
const ISRC_LOOKAHEAD = 100;
/**
 * Progress between checkpoints is written at most this often: one write per matched track made the
 * database, not the service, set the pace of a 10,000-track run. People watch the bar; 4 updates a second is smooth.
 */
const PROGRESS_INTERVAL_MS = 250;

/** The checkpoint: rows stored so far, in source order. */
const matchJobStateSchema = z.object({ storedUpTo: z.number().int().nonnegative() });
type MatchJobState = z.infer<typeof matchJobStateSchema>;

const READING_MESSAGE = 'Reading the playlist…';

/** A source the person can never read fails with why and what to do instead (no "try again"). */
function sourceReadError(error: unknown, service: string, spotifyMode: string): unknown {
  const developmentMode = service === 'spotify' && spotifyMode === 'development';
  if (developmentMode && error instanceof ProviderError && error.kind === 'forbidden') {
    return new PermanentJobError(FOLLOWED_PLAYLIST_MESSAGE);
  }
  return error;
}

type TrackEntry = Extract<PlaylistEntry, { kind: 'track' }>;
type RuleMap = Awaited<ReturnType<typeof loadRules>>;

/** Entries kept per query when an old set's stored copy moves into `match_source_entries`. */
const KEEP_BATCH = 1_000;

/**
 * The source's entries: read from the service once (a long playlist is counted in as it is read), or the
 * stored copy a resumed or requeued run works from. A fresh read keeps its entries page by page in the
 * store and advances `feed`, so matching begins with the first pages (the destination's rate window starts
 * with its first call); a library collection's read holds none of them itself (issue 25). Once the read is
 * whole and kept, the set says its length (`stored`). No checkpoint comes before that: a resumed run works
 * from the kept copy.
 */
function readSourceEntries(
  deps: AppDeps,
  set: MatchSetRecord,
  context: JobContext<MatchJobState>,
  feed: SourceFeed,
): Promise<unknown> {
  if (set.sourceLength !== null) {
    feed.advance(set.sourceLength);
    feed.end();
    return Promise.resolve();
  }
  const legacy = set.sourceEntries;
  if (legacy) return keepLegacyCopy(deps, set.id, legacy, feed);
  let readWrittenAt = 0;
  let heard = 0;
  let keeping: Promise<void> = Promise.resolve();
  /** Keeps entries in order, one write after another; the feed advances once they are stored. */
  const keep = (entries: readonly PlaylistEntry[]) => {
    if (entries.length === 0) return;
    heard += entries.length;
    const upTo = heard;
    keeping = keeping.then(async () => {
      await insertSourceEntries(deps.db, set.id, entries);
      feed.advance(upTo);
    });
    // Awaited once the read ends; this only keeps a failure from being reported as unhandled meanwhile.
    keeping.catch(() => undefined);
  };
  const read = (async () => {
    // Rows and entries an earlier run stored from a read it never kept belong to that read, not to this one.
    await deleteMatchRows(deps.db, set.id);
    await deleteSourceEntries(deps.db, set.id);
    const source = await loadSourcePlaylist(deps, set.userId, set.sourceService, set.sourcePlaylistId, {
      onPage: (read, total) => {
        feed.total = total;
        if (feed.matching || Date.now() - readWrittenAt < PROGRESS_INTERVAL_MS) return;
        readWrittenAt = Date.now();
        const message = READING_MESSAGE;
        void context
          .progress({ done: read, total: total ?? read, phase: 'reading', message })
          .catch(() => {});
      },
      onEntries: keep,
      beforePage: () => feed.roomToRead(heard),
      // A library collection has no history to record (history-hooks.ts): nothing needs it whole.
      entriesHeardOnly: parseCollectionId(set.sourcePlaylistId) !== null,
    }).catch((error: unknown) => {
      throw sourceReadError(error, set.sourceService, deps.config.SPOTIFY_MODE);
    });
    // What the read gave without it being heard (an imported file) is kept now.
    keep(source.entries.slice(heard));
    await keeping;
    feed.end();
    return source;
  })();
  read.catch((error: unknown) => feed.fail(error));
  const stored = read.then(async (source) => {
    await history.read(deps, {
      userId: set.userId,
      service: set.sourceService,
      playlistId: set.sourcePlaylistId,
      contents: source,
      cause: 'transfer',
    });
    await updateMatchSet(deps.db, set.id, {
      sourcePlaylistName: source.playlist.name,
      sourceLength: feed.kept,
    });
  });
  stored.catch(() => undefined);
  return stored;
}

/** A set matched before entries were kept one by one: its stored copy moves into the store first. */
async function keepLegacyCopy(deps: AppDeps, matchSetId: string, entries: PlaylistEntry[], feed: SourceFeed) {
  try {
    for (let start = 0; start < entries.length; start += KEEP_BATCH) {
      await insertSourceEntries(deps.db, matchSetId, entries.slice(start, start + KEEP_BATCH));
    }
    feed.advance(entries.length);
    feed.end();
    await updateMatchSet(deps.db, matchSetId, { sourceLength: entries.length, sourceEntries: null });
  } catch (error) {
    feed.fail(error);
    throw error;
  }
}

/** A saved album (issue 14) is matched as an album first; its tracks found on that album need no search. */
async function matchAlbumOnce(
  deps: AppDeps,
  set: MatchSetRecord,
  entries: PlaylistEntry[],
  destination: MusicProvider,
  region: string,
): Promise<MatchSetRecord['albumMatch']> {
  const collection = parseCollectionId(set.sourcePlaylistId);
  if (collection?.kind !== 'album' || set.albumMatch) return set.albumMatch;
  const source = await deps.providers.forUser(set.userId, set.sourceService, {
    maxInlineWaitMs: JOB_INLINE_WAIT_MS,
    askedAt: set.createdAt,
  });
  const tracks = entries.flatMap((entry) => (entry.kind === 'track' ? [entry.track] : []));
  const albumMatch = await matchSavedAlbum(
    await sourceAlbumInfo(source, collection.albumId, tracks),
    destination,
    region,
  );
  await updateMatchSet(deps.db, set.id, { albumMatch });
  return albumMatch;
}

/** What every chunk of one run is matched with. */
interface ChunkMatching {
  set: MatchSetRecord;
  destination: MusicProvider;
  region: string;
  cache: DatabaseMatchCache;
  tieBreaker: ReturnType<typeof createMatchingTieBreaker>;
  albumMatch: MatchSetRecord['albumMatch'];
  onAlbum: ReturnType<typeof pairedByPosition>;
  rules: RuleMap;
}

/**
 * The rows of one chunk, in source order: tracks found on a matched album, the others through the
 * matching pipeline, the person's rules over both, and a row for each entry that is no track.
 */
async function matchChunk(
  run: ChunkMatching,
  chunk: PlaylistEntry[],
  /** The ISRCs of the entries after the chunk, for its last ISRC batch (`ISRC_LOOKAHEAD`). */
  isrcLookahead: string[],
  onProgress: (done: number) => void,
) {
  const { set, onAlbum, rules } = run;
  const tracks = chunk.filter(
    (entry): entry is TrackEntry => entry.kind === 'track' && !onAlbum.has(entry.position),
  );
  const albumMatched = run.albumMatch?.match;
  const albumRows = albumMatched
    ? chunk.flatMap((entry) => {
        const pair = onAlbum.get(entry.position);
        if (entry.kind !== 'track' || !pair) return [];
        return [{ entry, match: albumTrackMatch(entry.track, pair, albumMatched) }];
      })
    : [];
  const matches = await matchTracks(
    tracks.map((entry) => entry.track),
    run.destination,
    {
      region: run.region,
      cache: run.cache,
      tieBreaker: run.tieBreaker,
      isrcLookahead,
      onProgress,
    },
  );
  const matched = tracks.map((entry, index) => {
    const match = matches[index];
    if (!match) throw new Error('matching returned fewer results than sources');
    return { entry, match };
  });
  return [
    ...[...matched, ...albumRows].map(({ entry, match }) => {
      const row = rowFromMatch(set.id, entry.position, match);
      const rule = rules.size > 0 ? rules.get(ruleKeyOf(entry.track)) : undefined;
      return rule ? ruledRow(row, rule) : row;
    }),
    ...chunk.flatMap((entry) => (entry.kind === 'skipped' ? [rowFromSkippedEntry(set.id, entry)] : [])),
  ];
}

const isrcsOf = (entries: readonly PlaylistEntry[]) =>
  entries.flatMap((entry) => {
    const isrc = entry.kind === 'track' ? normalizeIsrc(entry.track.isrc) : null;
    return isrc ? [isrc] : [];
  });

/** The destination client, the person's rules and a saved album's match: what every chunk is matched with. */
async function prepareMatching(
  deps: AppDeps,
  set: MatchSetRecord,
  feed: SourceFeed,
  onRateLimit: (waitMs: number) => void,
): Promise<ChunkMatching> {
  const connection = await deps.providers.connections.get(set.userId, set.destinationService);
  // Never a silent `us`: a Spotify account whose country is unknown waits for the person to say it.
  const region = connection?.region;
  if (!region) throw new PermanentJobError(unknownRegionMessage(set.destinationService));
  const destination = await deps.providers.forUser(set.userId, set.destinationService, {
    maxInlineWaitMs: JOB_INLINE_WAIT_MS,
    askedAt: set.createdAt,
    onRateLimit: ({ waitMs }) => onRateLimit(waitMs),
  });
  // The person's remembered fixes (issue 14) decide their rows over the engine's answer.
  const rules = await loadRules(deps.db, {
    userId: set.userId,
    sourceService: set.sourceService,
    destinationService: set.destinationService,
  });
  // A saved album is matched whole first, which needs all of its (few) tracks; other sources stream.
  const isAlbum = parseCollectionId(set.sourcePlaylistId)?.kind === 'album';
  if (isAlbum) await feed.waitFor(Number.POSITIVE_INFINITY);
  const entries = isAlbum ? await listSourceEntries(deps.db, set.id, 0, feed.kept) : [];
  const albumMatch = isAlbum ? await matchAlbumOnce(deps, set, entries, destination, region) : set.albumMatch;
  const onAlbum = pairedByPosition(
    albumMatch,
    entries.flatMap((entry) => (entry.kind === 'track' ? [entry] : [])),
  );
  return {
    set,
    destination,
    region,
    cache: new DatabaseMatchCache(deps.db, set.destinationService, region),
    tieBreaker: createMatchingTieBreaker(deps.ai),
    albumMatch,
    onAlbum,
    rules,
  };
}

/** Matches a source playlist against the destination catalog, storing a row per entry in source order. */
export function createMatchJobHandler(deps: AppDeps) {
  return async ({ matchSetId }: MatchJobPayload, context: JobContext<MatchJobState>) => {
    const set = await findMatchSet(deps.db, matchSetId);
    if (!set) throw new PermanentJobError('The match run no longer exists.');
    let cache: DatabaseMatchCache | undefined;
    let storing: Promise<void> = Promise.resolve();
    /** Rows of this run are stored in order up to this position (checkpointed or not). */
    let storedSoFar = 0;
    // One chunk read beyond what the chunk being matched and its look-ahead need: the next is ready
    // when it is asked for, and the read takes no more of the process's time before then.
    const feed = new SourceFeed(CHUNK);
    /** The source's stored copy, written once the read is whole (see readSourceEntries). */
    const sourceStored = readSourceEntries(deps, set, context, feed);
    let sourceKept = false;
    void sourceStored.then(
      () => {
        sourceKept = true;
      },
      () => undefined,
    );
    try {
      const state = context.state ?? { storedUpTo: 0 };
      let doneSoFar = state.storedUpTo;
      const totalSoFar = () => Math.max(feed.total ?? 0, feed.kept);
      // While the rest of the source is still being read, the bar says so beside the matching.
      const progress = (done: number, extra: { waitingUntil?: string } = {}) =>
        context
          .progress({
            done,
            total: totalSoFar(),
            phase: 'matching',
            ...(feed.reading ? { message: READING_MESSAGE } : {}),
            ...extra,
          })
          .catch(() => undefined);
      let progressWrittenAt = 0;
      const matchedProgress = (done: number) => {
        if (Date.now() - progressWrittenAt < PROGRESS_INTERVAL_MS) return;
        progressWrittenAt = Date.now();
        void progress(done);
      };
      const run = await prepareMatching(deps, set, feed, (waitMs) => {
        void progress(doneSoFar, { waitingUntil: new Date(Date.now() + waitMs).toISOString() });
      });
      cache = run.cache;

      for (let start = state.storedUpTo; ; start += CHUNK) {
        await feed.waitFor(start + CHUNK + ISRC_LOOKAHEAD);
        if (start >= feed.kept) break;
        // Only this chunk and its look-ahead are in memory: the rest stays in the store (issue 25).
        const window = await listSourceEntries(deps.db, set.id, start, start + CHUNK + ISRC_LOOKAHEAD);
        const chunk = window.slice(0, CHUNK);
        feed.matching = true;
        const lookahead = isrcsOf(window.slice(CHUNK));
        // What the cache already knows of this chunk's ISRCs (and the look-ahead's), in one query.
        await run.cache.prefetch(
          [...isrcsOf(chunk), ...lookahead].map((isrc) =>
            lookupCacheKey(set.destinationService, run.region, { kind: 'isrc', isrc }),
          ),
        );
        const rows = await matchChunk(run, chunk, lookahead, (done) => {
          doneSoFar = start + done;
          matchedProgress(doneSoFar);
        });
        // The chunk is stored while the next one is matched: under a rate limit, a pause in the calls
        // for the database writes is time the service's budget goes unused. Chunks are still stored and
        // checkpointed one after another, in order, so a resumed run starts after the last whole chunk;
        // but no checkpoint before the source's copy is kept (a resumed run works from that copy).
        await storing;
        const storedUpTo = start + chunk.length;
        const writeCache = run.cache;
        storing = (async () => {
          await writeCache.flush();
          await insertMatchRows(deps.db, rows);
          storedSoFar = storedUpTo;
          if (!sourceKept) return;
          await context.checkpoint({ storedUpTo } satisfies MatchJobState, {
            done: storedUpTo,
            total: totalSoFar(),
            phase: 'matching',
          });
        })();
        // Awaited before the next chunk is stored, or in the catch below; this only keeps a failure
        // from being reported as unhandled in the meantime.
        storing.catch(() => undefined);
      }
      await storing;
      await sourceStored;
      const total = feed.kept;
      await context.checkpoint({ storedUpTo: total } satisfies MatchJobState, {
        done: total,
        total,
        phase: 'matching',
      });
      await updateMatchSet(deps.db, set.id, { status: 'ready' });
      return { matchSetId: set.id, total };
    } catch (error) {
      // The read is held back no longer: its copy is kept before the job gives up its turn.
      feed.release();
      // The chunk being stored finishes first (its checkpoint is the resume point). Answers paid for
      // before the failure (a long rate-limit wait requeues the job mid-chunk) are kept, so the next run
      // does not ask the service again.
      const stored = await storing.then(
        () => true,
        () => false,
      );
      const kept = await sourceStored.then(
        () => true,
        () => false,
      );
      await cache?.flush().catch(() => undefined);
      // Chunks stored while the read went on have no checkpoint (none comes before the copy is kept), and
      // with the read held back that can be most of them: now that the copy is kept, the last is the
      // resume point, so a requeued run does not match them again.
      if (stored && kept && storedSoFar > (context.state?.storedUpTo ?? 0)) {
        await context.checkpoint({ storedUpTo: storedSoFar }).catch(() => undefined);
      }
      const classified = classifyJobError(error);
      if (classified instanceof PermanentJobError) {
        await updateMatchSet(deps.db, set.id, { status: 'failed' });
      }
      throw classified;
    }
  };
}

export const matchJob = defineJob({
  kind: MATCH_JOB,
  payloadSchema: matchJobPayloadSchema,
  stateSchema: matchJobStateSchema,
  handler: createMatchJobHandler,
});
