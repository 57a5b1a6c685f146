import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { FOLLOWED_PLAYLIST_MESSAGE } from '../../shared/api/transfer';
import { parseCollectionId } from '../../shared/library-ids';
import { SERVICE_LABELS, type ServiceId } from '../../shared/services';
import { createMatchingTieBreaker } from '../ai/matching-tie-breaker';
import type { AppDeps } from '../app-context';
import { matchRows, matchSets } from '../db/schema';
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
import type { PlaylistEntry } from '../providers/types';
import { DatabaseMatchCache } from './db-match-cache';
import { classifyJobError, JOB_INLINE_WAIT_MS } from './job-errors';
import { matchSavedAlbum, pairedByPosition, sourceAlbumInfo } from './library-collections';
import { rowFromMatch, rowFromSkippedEntry } from './match-rows';
import { loadRules, ruledRow, ruleKeyOf } from './match-rules';

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

/** A source the person can never read fails with why and what to do instead (no "try again"). */
function sourceReadError(error: unknown, service: string, spotifyMode: string): unknown {
  const developmentMode = service === 'spotify' && spotifyMode === 'development';
  if (developmentMode && error instanceof ProviderError && error.kind === 'forbidden') {
    return new PermanentJobError(FOLLOWED_PLAYLIST_MESSAGE);
  }
  return error;
}

/** Matches a source playlist against the destination catalog, storing a row per entry in source order. */
export function createMatchJobHandler(deps: AppDeps) {
  return async ({ matchSetId }: MatchJobPayload, context: JobContext<MatchJobState>) => {
    const [set] = await deps.db.select().from(matchSets).where(eq(matchSets.id, matchSetId));
    if (!set) throw new PermanentJobError('The match run no longer exists.');
    let cache: DatabaseMatchCache | undefined;
    let storing: Promise<void> = Promise.resolve();
    /** The source's stored copy, written while the first chunk is matched (see below). */
    let sourceStored: Promise<unknown> = Promise.resolve();
    try {
      // The source is read from the service once; a resumed or requeued run works from the stored copy.
      let entries = set.sourceEntries;
      if (!entries) {
        // A long playlist takes a while to read (100 tracks a page): the person sees it counted in.
        let readWrittenAt = 0;
        const source = await loadSourcePlaylist(deps, set.userId, set.sourceService, set.sourcePlaylistId, {
          onPage: (read, total) => {
            if (Date.now() - readWrittenAt < PROGRESS_INTERVAL_MS) return;
            readWrittenAt = Date.now();
            const message = 'Reading the playlist…';
            void context
              .progress({ done: read, total: total ?? read, phase: 'reading', message })
              .catch(() => {});
          },
        }).catch((error: unknown) => {
          throw sourceReadError(error, set.sourceService, deps.config.SPOTIFY_MODE);
        });
        entries = source.entries;
        await history.read(deps, {
          userId: set.userId,
          service: set.sourceService,
          playlistId: set.sourcePlaylistId,
          contents: source,
          cause: 'transfer',
        });
        // Stored while matching begins: the destination's rate window starts with its first call, and
        // writing megabytes of entries first only delays it. Every chunk is stored after this write, so
        // a checkpoint never comes before the copy a resumed run works from.
        const name = source.playlist.name;
        const stored = entries;
        sourceStored = (async () => {
          await deps.db
            .update(matchSets)
            .set({ sourcePlaylistName: name, sourceEntries: stored })
            .where(eq(matchSets.id, set.id));
        })();
        sourceStored.catch(() => undefined);
      }
      const source = { entries };
      const connection = await deps.providers.connections.get(set.userId, set.destinationService);
      // Never a silent `us`: a Spotify account whose country is unknown waits for the person to say it.
      const region = connection?.region;
      if (!region) throw new PermanentJobError(unknownRegionMessage(set.destinationService));
      const total = source.entries.length;
      const state = context.state ?? { storedUpTo: 0 };
      let doneSoFar = state.storedUpTo;
      const progress = (done: number, extra: { waitingUntil?: string } = {}) =>
        context.progress({ done, total, phase: 'matching', ...extra }).catch(() => undefined);
      let progressWrittenAt = 0;
      const matchedProgress = (done: number) => {
        if (Date.now() - progressWrittenAt < PROGRESS_INTERVAL_MS) return;
        progressWrittenAt = Date.now();
        void progress(done);
      };
      const destination = await deps.providers.forUser(set.userId, set.destinationService, {
        maxInlineWaitMs: JOB_INLINE_WAIT_MS,
        onRateLimit: ({ waitMs }) =>
          void progress(doneSoFar, { waitingUntil: new Date(Date.now() + waitMs).toISOString() }),
      });
      // The person's remembered fixes (issue 14) decide their rows over the engine's answer.
      const rules = await loadRules(deps.db, {
        userId: set.userId,
        sourceService: set.sourceService,
        destinationService: set.destinationService,
      });
      // A saved album (issue 14) is matched as an album first; its tracks found on that album need no search.
      const collection = parseCollectionId(set.sourcePlaylistId);
      let albumMatch = set.albumMatch;
      if (collection?.kind === 'album' && !albumMatch) {
        const source = await deps.providers.forUser(set.userId, set.sourceService, {
          maxInlineWaitMs: JOB_INLINE_WAIT_MS,
        });
        const tracks = entries.flatMap((entry) => (entry.kind === 'track' ? [entry.track] : []));
        albumMatch = await matchSavedAlbum(
          await sourceAlbumInfo(source, collection.albumId, tracks),
          destination,
          region,
        );
        await deps.db.update(matchSets).set({ albumMatch }).where(eq(matchSets.id, set.id));
      }
      const onAlbum = pairedByPosition(
        albumMatch,
        entries.flatMap((entry) => (entry.kind === 'track' ? [entry] : [])),
      );
      cache = new DatabaseMatchCache(deps.db, set.destinationService, region);
      const tieBreaker = createMatchingTieBreaker(deps.ai);
      const isrcs = source.entries.map((entry) =>
        entry.kind === 'track' ? normalizeIsrc(entry.track.isrc) : null,
      );
      // What the cache already knows of the ISRCs still to match, in a few queries for the whole run
      // rather than one per chunk.
      await cache.prefetch(
        isrcs
          .slice(state.storedUpTo)
          .flatMap((isrc) =>
            isrc ? [lookupCacheKey(set.destinationService, region, { kind: 'isrc', isrc })] : [],
          ),
      );

      for (let start = state.storedUpTo; start < total; start += CHUNK) {
        const chunk = source.entries.slice(start, start + CHUNK);
        const tracks = chunk.filter(
          (entry): entry is Extract<PlaylistEntry, { kind: 'track' }> =>
            entry.kind === 'track' && !onAlbum.has(entry.position),
        );
        const albumMatched = albumMatch?.match;
        const albumRows = albumMatched
          ? chunk.flatMap((entry) => {
              const pair = onAlbum.get(entry.position);
              if (entry.kind !== 'track' || !pair) return [];
              return [{ entry, match: albumTrackMatch(entry.track, pair, albumMatched) }];
            })
          : [];
        const matches = await matchTracks(
          tracks.map((entry) => entry.track),
          destination,
          {
            region,
            cache,
            tieBreaker,
            isrcLookahead: isrcs
              .slice(start + CHUNK, start + CHUNK + ISRC_LOOKAHEAD)
              .filter((isrc): isrc is string => isrc !== null),
            onProgress: (done) => {
              doneSoFar = start + done;
              matchedProgress(doneSoFar);
            },
          },
        );
        const rows = [
          ...[
            ...tracks.map((entry, index) => {
              const match = matches[index];
              if (!match) throw new Error('matching returned fewer results than sources');
              return { entry, match };
            }),
            ...albumRows,
          ].map(({ entry, match }) => {
            const row = rowFromMatch(set.id, entry.position, match);
            const rule = rules.size > 0 ? rules.get(ruleKeyOf(entry.track)) : undefined;
            return rule ? ruledRow(row, rule) : row;
          }),
          ...chunk.flatMap((entry) => (entry.kind === 'skipped' ? [rowFromSkippedEntry(set.id, entry)] : [])),
        ];
        // The chunk is stored while the next one is matched: under a rate limit, a pause in the calls
        // for the database writes is time the service's budget goes unused. Chunks are still stored and
        // checkpointed one after another, in order, so a resumed run starts after the last whole chunk.
        await storing;
        const storedUpTo = Math.min(total, start + CHUNK);
        const writeCache = cache;
        storing = (async () => {
          await sourceStored;
          await writeCache.flush();
          if (rows.length > 0) await deps.db.insert(matchRows).values(rows).onConflictDoNothing();
          await context.checkpoint({ storedUpTo } satisfies MatchJobState, {
            done: storedUpTo,
            total,
            phase: 'matching',
          });
        })();
        // Awaited before the next chunk is stored, or in the catch below; this only keeps a failure
        // from being reported as unhandled in the meantime.
        storing.catch(() => undefined);
      }
      await storing;
      await sourceStored;
      await deps.db
        .update(matchSets)
        .set({ status: 'ready' })
        .where(and(eq(matchSets.id, set.id)));
      return { matchSetId: set.id, total };
    } catch (error) {
      // The chunk being stored finishes first (its checkpoint is the resume point). Answers paid for
      // before the failure (a long rate-limit wait requeues the job mid-chunk) are kept, so the next run
      // does not ask the service again.
      await storing.catch(() => undefined);
      await sourceStored.catch(() => undefined);
      await cache?.flush().catch(() => undefined);
      const classified = classifyJobError(error);
      if (classified instanceof PermanentJobError) {
        await deps.db.update(matchSets).set({ status: 'failed' }).where(eq(matchSets.id, set.id));
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
