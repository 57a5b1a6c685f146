import { MATCH_PAGE_DEFAULT, type MatchPageQuery, type MatchSetView } from '../../shared/api/transfer';
import type { AppDeps } from '../app-context';
import { getJob } from '../jobs/job-store';
import { albumMatchView, collectionKind } from './library-collections';
import { toMatchRow } from './match-rows';
import { requireOwnedMatchSet } from './match-service';
import { countMatchRows, listMatchRowsFrom, type MatchSetRecord, summarizeMatchRows } from './match-store';
import { matchViewCache } from './match-view-cache';

/**
 * The review page's match view (issue 25, decision 0043), read in memory that does not grow with the set:
 * the counts come from one SQL aggregate, the rows a page at a time by position. A set of up to
 * `BUILT_VIEW_MAX_ROWS` rows is answered whole and kept serialised per version (decision 0032); a bigger
 * one, asked for whole, is streamed from the database page by page.
 */
export const BUILT_VIEW_MAX_ROWS = 2_000;
/** Rows read per query while a whole big view is streamed. */
export const STREAM_PAGE_ROWS = 500;

/** The view without its rows: what every answer (whole, page, stream) begins with. */
type ViewHead = Omit<MatchSetView, 'results'>;

/** The answer's body: the view's JSON, encoded, or a stream of it. */
export type MatchViewBody = Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>;

export type MatchPageRequest = Partial<MatchPageQuery>;

const encoder = new TextEncoder();

async function viewHead(deps: AppDeps, set: MatchSetRecord, counted = true): Promise<ViewHead> {
  let status = set.status;
  let error: string | null = null;
  // A failed run shows the job's stored reason, whether the set or only its job has been marked failed.
  if ((status === 'matching' || status === 'failed') && set.jobId) {
    const job = await getJob(deps.db, set.jobId);
    if (job?.status === 'failed' || job?.status === 'cancelled') {
      status = 'failed';
      error = job.error;
    }
  }
  return {
    matchSetId: set.id,
    kind: collectionKind(set.sourcePlaylistId),
    albumMatch: set.albumMatch ? albumMatchView(set.albumMatch) : null,
    status,
    playlistName: set.sourcePlaylistName,
    sourceService: set.sourceService,
    destinationService: set.destinationService,
    jobId: set.jobId,
    error,
    // Rows belong to a ready set only; a set still matching shows none and counts none.
    ...(status === 'ready' && counted ? { summary: await summarizeMatchRows(deps.db, set.id) } : {}),
  };
}

/** The whole view as one object: for a set small enough to hold (`BUILT_VIEW_MAX_ROWS`). */
async function builtView(deps: AppDeps, head: ViewHead): Promise<MatchSetView> {
  const total = head.summary?.total ?? 0;
  const rows = total > 0 ? await listMatchRowsFrom(deps.db, head.matchSetId, 0, total) : [];
  return { ...head, results: rows.map(toMatchRow) };
}

/**
 * The whole view's JSON, written a page of rows at a time as the socket takes it (a pull stream): what the
 * server holds is one page, however long the set. The head (counts included) is read before the rows, so a
 * change made while a long view streams can show in the rows and not yet in the counts.
 */
function streamedView(deps: AppDeps, head: ViewHead): ReadableStream<Uint8Array> {
  let from = 0;
  let started = false;
  let wroteRow = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`${JSON.stringify(head).slice(0, -1)},"results":[`));
        return;
      }
      const rows = await listMatchRowsFrom(deps.db, head.matchSetId, from, STREAM_PAGE_ROWS);
      const last = rows.at(-1);
      if (last) {
        const text = rows.map((row) => JSON.stringify(toMatchRow(row))).join(',');
        controller.enqueue(encoder.encode(wroteRow ? `,${text}` : text));
        wroteRow = true;
        from = last.position + 1;
      }
      if (rows.length < STREAM_PAGE_ROWS) {
        controller.enqueue(encoder.encode(']}'));
        controller.close();
      }
    },
  });
}

/** The view as an object, for a caller that needs one (a small set; a big one has its rows streamed). */
async function wholeViewBody(deps: AppDeps, userId: string, set: MatchSetRecord): Promise<MatchViewBody> {
  const cache = matchViewCache(deps.db);
  const cached = set.status === 'ready' ? cache.get(set.id, userId, set.version) : undefined;
  if (cached !== undefined) return cached;
  const head = await viewHead(deps, set);
  if ((head.summary?.total ?? 0) > BUILT_VIEW_MAX_ROWS) return streamedView(deps, head);
  const json = encoder.encode(JSON.stringify(await builtView(deps, head)));
  // The rows read belong to this version or a newer one (every change bumps it): keeping them under the
  // version read first at worst builds the view once more on the next read, never shows an older one.
  if (head.status === 'ready') cache.set(set.id, userId, set.version, json);
  return json;
}

/**
 * One page of the view: rows from `cursor` on (those its filter lets through), and where the next page
 * begins. The first page (no `cursor`) also counts the whole set: its summary and the filter's total.
 */
async function pagedView(deps: AppDeps, set: MatchSetRecord, page: MatchPageRequest): Promise<MatchSetView> {
  const first = page.cursor === undefined;
  const head = await viewHead(deps, set, first);
  if (head.status !== 'ready') return { ...head, results: [], nextCursor: null };
  const limit = page.limit ?? MATCH_PAGE_DEFAULT;
  const filter = { status: page.status, includeUnmatched: page.includeUnmatched };
  // One row more than the page says whether another page follows, and where it begins.
  const rows = await listMatchRowsFrom(deps.db, set.id, page.cursor ?? 0, limit + 1, filter);
  const next = rows.length > limit ? rows[limit] : undefined;
  return {
    ...head,
    results: rows.slice(0, limit).map(toMatchRow),
    nextCursor: next ? next.position : null,
    ...(first
      ? {
          filteredTotal:
            page.status === undefined
              ? (head.summary?.total ?? 0)
              : await countMatchRows(deps.db, set.id, filter),
        }
      : {}),
  };
}

const asksForPage = (page: MatchPageRequest) =>
  page.cursor !== undefined || page.limit !== undefined || page.status !== undefined;

/**
 * `GET /api/match/:matchSetId` and the answers of `POST /api/match` and accept-review: the whole view when
 * no page is asked for (as the spec's callers read it), else the page.
 */
export async function matchViewBody(
  deps: AppDeps,
  userId: string,
  matchSetId: string,
  page: MatchPageRequest = {},
): Promise<MatchViewBody> {
  const set = await requireOwnedMatchSet(deps, userId, matchSetId);
  if (!asksForPage(page)) return wholeViewBody(deps, userId, set);
  return encoder.encode(JSON.stringify(await pagedView(deps, set, page)));
}
