import type { VerificationMissing } from '../db/stored-json';
import type { JobContext } from '../jobs/job-runner';
import type { MusicProvider } from '../providers/types';
import { isUncertainWriteFailure, retryUncertainWrite } from './destination-progress';
import type { LibraryJobState } from './library-transfer';
import { type MatchRowRecord, tracksToAdd } from './match-rows';
import { listMatchRowsPage } from './match-set-store';
import { likedSongsTarget, type VerificationResult, type VerifyOptions } from './verify-destination';

/**
 * Liked Songs saved as liked / favourite songs (no playlist), in bounded memory (issue 25, decision 0039):
 * the match rows are read ROW_PAGE at a time by position, for the counts, for the saves and for the
 * verification, which asks the service whether each saved song is liked ("contains") instead of reading
 * the whole library back. Nothing held grows with the library's size but the list of songs still missing
 * after the read-back, which the transfer reports anyway.
 *
 * Exactly once as the other library writes (library-transfer.ts): liking a liked song changes nothing, so
 * a resumed run goes on from its last checkpointed batch (`saved`, counted over the selected songs in
 * source order, each page's repeats once), and a batch sent twice after a crash writes nothing twice.
 */

/** Rows read per query: what the job holds of a library at a time. */
export const ROW_PAGE = 1_000;

const MAX_UNCERTAIN_WRITES = 5;

type Selected = ReturnType<typeof tracksToAdd>[number];

/** A page of rows, and the songs it saves: the selected tracks, each destination track once per page. */
interface RowPage {
  rows: MatchRowRecord[];
  selected: Selected[];
  saves: Selected[];
}

/** Every page of the set's rows, in source order. */
async function* rowPages(
  db: Parameters<typeof listMatchRowsPage>[0],
  matchSetId: string,
  includeUnmatched: boolean,
) {
  for (let after = -1; ; ) {
    const rows = await listMatchRowsPage(db, matchSetId, after, ROW_PAGE);
    const last = rows.at(-1);
    if (!last) return;
    after = last.position;
    const selected = tracksToAdd(rows, includeUnmatched);
    const seen = new Set<string>();
    const saves = selected.filter((item) => !seen.has(item.track.uri) && Boolean(seen.add(item.track.uri)));
    yield { rows, selected, saves } satisfies RowPage;
  }
}

/** What the transfer's record says of its rows: counted page by page. */
export interface LikedSongsCounts {
  rows: number;
  selected: number;
  saves: number;
  confidenceSum: number;
}

export async function countLikedSongs(
  db: Parameters<typeof listMatchRowsPage>[0],
  matchSetId: string,
  includeUnmatched: boolean,
): Promise<LikedSongsCounts> {
  const counts = { rows: 0, selected: 0, saves: 0, confidenceSum: 0 };
  for await (const page of rowPages(db, matchSetId, includeUnmatched)) {
    counts.rows += page.rows.length;
    counts.selected += page.selected.length;
    counts.saves += page.saves.length;
    for (const item of page.selected) counts.confidenceSum += item.row.confidence;
  }
  return counts;
}

interface LikedSongsRun<S extends LibraryJobState> {
  db: Parameters<typeof listMatchRowsPage>[0];
  matchSetId: string;
  includeUnmatched: boolean;
  destination: MusicProvider;
  context: JobContext;
  state: S;
  /** For the progress bar: the selected songs. */
  total: number;
}

/** Saves a page's songs from `from` on; a write whose answer was lost is sent again (it changes nothing twice). */
async function savePage<S extends LibraryJobState>(
  run: LikedSongsRun<S>,
  uris: string[],
  base: number,
  from: number,
): Promise<S> {
  let current = run.state;
  let saved = from;
  for (let uncertain = 0; saved < uris.length; ) {
    const start = saved;
    try {
      await run.destination.saveTracks(
        uris.slice(start),
        async (batch) => {
          saved = start + batch.added;
          uncertain = 0;
          current = { ...current, saved: base + saved };
          await run.context.checkpoint(current, { done: base + saved, total: run.total, phase: 'saving' });
        },
        run.context.holdLease,
      );
      saved = uris.length;
    } catch (error) {
      if (!isUncertainWriteFailure(error) || ++uncertain > MAX_UNCERTAIN_WRITES) throw error;
    }
  }
  return current;
}

/** Saves every selected song, page by page, going on after the checkpointed `saved`. */
export async function saveLikedSongs<S extends LibraryJobState>(run: LikedSongsRun<S>): Promise<S> {
  if (run.state.librarySaved) return run.state;
  let before = 0;
  for await (const page of rowPages(run.db, run.matchSetId, run.includeUnmatched)) {
    const uris = page.saves.map((item) => item.track.uri);
    const saved = run.state.saved ?? 0;
    if (saved < before + uris.length)
      run.state = await savePage(run, uris, before, Math.max(0, saved - before));
    before += uris.length;
  }
  run.state = { ...run.state, saved: before, librarySaved: true };
  await run.context.checkpoint(run.state, { done: run.total, total: run.total, phase: 'saving' });
  return run.state;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The page's songs the service does not call liked. */
async function notLiked(destination: MusicProvider, saves: Selected[]): Promise<Selected[]> {
  const liked = await destination.savedTracksContain(saves.map((item) => item.track.uri));
  return saves.filter((_, index) => liked[index] !== true);
}

/**
 * Verify every write (issue 14) without reading the library back: each saved song is looked up with the
 * service's "contains" call, page by page, on reads taken after the service's write delay (Apple shows
 * library writes late). What is missing is saved once more, and looked up again after the delay.
 */
export async function verifyLikedSongs<S extends LibraryJobState>(
  run: LikedSongsRun<S>,
  options: VerifyOptions = {},
): Promise<VerificationResult> {
  const sleep = options.sleep ?? defaultSleep;
  const settleMs = run.destination.writeSettleMs ?? 0;
  await options.onPhase?.('verifying');
  if (settleMs > 0) await sleep(settleMs);
  let missing: Selected[] = [];
  let count = 0;
  for await (const page of rowPages(run.db, run.matchSetId, run.includeUnmatched)) {
    count += page.saves.length;
    missing.push(...(await notLiked(run.destination, page.saves)));
  }
  const readded = missing.length;
  if (missing.length > 0) {
    await options.onPhase?.('re-adding');
    const target = likedSongsTarget(run.destination);
    const again = missing.map((item) => item.track.uri);
    await retryUncertainWrite(() => target.write(again, options.beforeWrite));
    await options.onPhase?.('verifying');
    if (settleMs > 0) await sleep(settleMs);
    missing = await notLiked(run.destination, missing);
  }
  const reason = likedSongsTarget(run.destination).missingReason;
  return {
    verified: count - missing.length,
    readded,
    missing: missing.map(
      (item): VerificationMissing => ({
        position: item.row.position,
        name: item.track.name,
        artists: item.track.artists,
        reason,
      }),
    ),
  };
}
