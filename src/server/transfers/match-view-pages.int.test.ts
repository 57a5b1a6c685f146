import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MATCH_PAGE_MAX, type MatchSetView, type MatchStatus } from '../../shared/api/transfer';
import { users } from '../db/schema';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { insertMatchRows, type NewMatchRow, updateMatchSet } from './match-set-store';
import { insertMatchSet } from './match-store';
import { BUILT_VIEW_MAX_ROWS } from './match-view';

/**
 * Issue 25, decision 0043: the match view read a page at a time. All pages together are the whole view,
 * the summary counts the whole set, bad page values are a 400, and a set far bigger than a page is read
 * (whole, streamed; or in pages) with every page within its limit.
 */
let server: TestServer;
let owner: TestClient;
let stranger: TestClient;
let smallSetId: string;
let largeSetId: string;

const SMALL_ROWS = 37;
const LARGE_ROWS = 6_000;
const STATUSES: readonly MatchStatus[] = ['accepted', 'review', 'unmatched', 'skipped'];

async function register(client: TestClient, username: string) {
  const answer = await client.post('/api/auth/register', {
    username,
    email: `${username}@example.com`,
    password: 'secret-words-long',
  });
  expect(answer.status, answer.text).toBe(201);
  const [row] = await server.deps.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  if (!row) throw new Error('no user');
  return row.id;
}

/** Row `i` of a set: a fixed mix of statuses, confidences and candidates (no randomness). */
function row(matchSetId: string, i: number): NewMatchRow {
  const status = STATUSES[(i * 7) % 4] as MatchStatus;
  const track = (prefix: string) => ({
    id: `${prefix}-${i}`,
    uri: `${prefix}:track:${i}`,
    name: `Song ${i}`,
    artists: [`Artist ${i % 13}`],
    album: `Album ${i % 5}`,
    durationMs: 180_000 + i,
  });
  const confidence = status === 'accepted' ? 95 : status === 'review' ? 80 : status === 'unmatched' ? 40 : 0;
  const candidate = {
    track: track('dest'),
    confidence,
    reasons: ['same title'],
    versionLabels: [],
    sameVersion: true,
  };
  return {
    matchSetId,
    position: i,
    source: track('src'),
    candidates: status === 'skipped' ? [] : [candidate],
    chosenId: status === 'accepted' || status === 'review' ? candidate.track.id : null,
    confidence,
    status,
    reasons: [status === 'skipped' ? 'A local file' : 'same title'],
    decidedBy: 'engine',
  };
}

async function readySet(userId: string, name: string, size: number) {
  const set = await insertMatchSet(server.deps.db, {
    userId,
    sourceService: 'spotify',
    destinationService: 'apple',
    sourcePlaylistId: `playlist-${name}`,
    sourcePlaylistName: name,
  });
  for (let from = 0; from < size; from += 500) {
    const rows = [];
    for (let i = from; i < Math.min(size, from + 500); i++) rows.push(row(set.id, i));
    await insertMatchRows(server.deps.db, rows);
  }
  await updateMatchSet(server.deps.db, set.id, { status: 'ready', sourceLength: size });
  return set.id;
}

async function view(client: TestClient, path: string) {
  const answer = await client.get(path);
  expect(answer.status, answer.text).toBe(200);
  return answer.body as MatchSetView;
}

/** Every page from the first (no cursor), following `nextCursor`; each within `limit`. */
async function allPages(matchSetId: string, limit: number, filter = '') {
  const pages: MatchSetView[] = [];
  let cursor: number | null | undefined;
  do {
    const query = `limit=${limit}${filter}${cursor === undefined ? '' : `&cursor=${cursor}`}`;
    const page = await view(owner, `/api/match/${matchSetId}?${query}`);
    expect(page.results.length).toBeLessThanOrEqual(limit);
    // Only the first page counts the whole set.
    expect(page.summary === undefined).toBe(cursor !== undefined);
    expect(page.filteredTotal === undefined).toBe(cursor !== undefined);
    pages.push(page);
    cursor = page.nextCursor ?? null;
    expect(pages.length).toBeLessThan(LARGE_ROWS);
  } while (cursor !== null);
  return pages;
}

const withoutPaging = ({
  results: _results,
  nextCursor: _next,
  summary: _summary,
  filteredTotal: _total,
  ...head
}: MatchSetView) => head;

beforeAll(async () => {
  server = await startTestServer({ env: { JOB_WORKERS: '0' } });
  owner = server.newClient();
  stranger = server.newClient();
  const ownerId = await register(owner, 'pages_owner');
  await register(stranger, 'pages_stranger');
  smallSetId = await readySet(ownerId, 'Small', SMALL_ROWS);
  largeSetId = await readySet(ownerId, 'Liked Songs', LARGE_ROWS);
}, 120_000);
afterAll(() => server.close());

describe('the match view a page at a time', () => {
  it('puts together, page by page, exactly the whole view, and counts what the rows hold', async () => {
    const whole = await view(owner, `/api/match/${smallSetId}`);
    expect(whole.results).toHaveLength(SMALL_ROWS);
    expect(whole.nextCursor).toBeUndefined();
    const pages = await allPages(smallSetId, 7);
    expect(pages).toHaveLength(Math.ceil(SMALL_ROWS / 7));
    expect(pages.flatMap((page) => page.results)).toEqual(whole.results);
    for (const page of pages) expect(withoutPaging(page)).toEqual(withoutPaging(whole));
    const counted = (status: MatchStatus) => whole.results.filter((r) => r.status === status).length;
    const mean = whole.results.reduce((sum, r) => sum + r.confidence, 0) / whole.results.length;
    expect(whole.summary).toEqual({
      total: SMALL_ROWS,
      accepted: counted('accepted'),
      review: counted('review'),
      unmatched: counted('unmatched'),
      skipped: counted('skipped'),
      averageConfidence: Math.round(mean),
    });
    expect(pages[0]?.summary).toEqual(whole.summary);
  });

  it('filters by status on the server, with the filtered count in the summary', async () => {
    const whole = await view(owner, `/api/match/${smallSetId}`);
    for (const status of STATUSES) {
      const pages = await allPages(smallSetId, 4, `&status=${status}`);
      const rows = pages.flatMap((page) => page.results);
      expect(rows).toEqual(whole.results.filter((r) => r.status === status));
      expect(rows.length).toBe(whole.summary?.[status]);
      expect(pages[0]?.filteredTotal).toBe(rows.length);
      expect(rows.length).toBeGreaterThan(0);
    }
  });

  it.each([false, true])(
    'lists the rows a transfer leaves out (include unmatched: %s), as the rows themselves say',
    async (includeUnmatched) => {
      const whole = await view(owner, `/api/match/${smallSetId}`);
      const leftOut = whole.results.filter(
        (r) =>
          r.status === 'skipped' ||
          ((r.status === 'unmatched' || (r.status === 'review' && r.decidedBy !== 'person')) &&
            !(includeUnmatched && r.candidates.length > 0)),
      );
      const pages = await allPages(smallSetId, 5, `&status=not-added&includeUnmatched=${includeUnmatched}`);
      expect(pages.flatMap((page) => page.results)).toEqual(leftOut);
      expect(pages[0]?.filteredTotal).toBe(leftOut.length);
      expect(leftOut.length).toBe(
        includeUnmatched ? whole.summary?.skipped : SMALL_ROWS - (whole.summary?.accepted ?? 0),
      );
    },
  );

  it('answers the set and its counts with no rows for limit 0', async () => {
    const head = await view(owner, `/api/match/${smallSetId}?limit=0`);
    expect(head.results).toEqual([]);
    expect(head.summary?.total).toBe(SMALL_ROWS);
    expect(head.nextCursor).toBe(0);
    const past = await view(owner, `/api/match/${smallSetId}?cursor=${SMALL_ROWS}&limit=5`);
    expect(past.results).toEqual([]);
    expect(past.nextCursor).toBeNull();
  });

  it.each([
    ['cursor=-1', 'cursor must be a row position'],
    ['cursor=abc', 'cursor must be a row position'],
    ['cursor=1.5', 'cursor must be a row position'],
    ['limit=-1', 'limit must be a whole number'],
    ['limit=abc', 'limit must be a whole number'],
    [`limit=${MATCH_PAGE_MAX + 1}`, 'limit must be a whole number'],
    ['status=matched', 'status must be accepted, review, unmatched, skipped or not-added'],
    ['status=not-added&includeUnmatched=yes', 'includeUnmatched must be true or false'],
  ])('refuses %s with a 400 that says why', async (query, message) => {
    const answer = await owner.get(`/api/match/${smallSetId}?${query}`);
    expect(answer.status, answer.text).toBe(400);
    expect((answer.body as { message: string }).message).toContain(message);
  });

  it("shows nobody else's set, whole or by page", async () => {
    for (const query of ['', '?limit=10', '?cursor=0&limit=10&status=review']) {
      const answer = await stranger.get(`/api/match/${largeSetId}${query}`);
      expect(answer.status, answer.text).toBe(404);
    }
  });
});

describe('a set far bigger than a page', () => {
  it('streams the whole view, the same rows as every page together, each page within its limit', async () => {
    expect(LARGE_ROWS).toBeGreaterThan(BUILT_VIEW_MAX_ROWS);
    const answer = await owner.get(`/api/match/${largeSetId}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('application/json');
    // Streamed: written as it is read, so no length is known up front.
    expect(answer.headers.get('content-length')).toBeNull();
    const whole = answer.body as MatchSetView;
    expect(whole.results.map((r) => r.position)).toEqual([...Array(LARGE_ROWS).keys()]);
    const pages = await allPages(largeSetId, MATCH_PAGE_MAX);
    expect(pages).toHaveLength(LARGE_ROWS / MATCH_PAGE_MAX);
    expect(pages.flatMap((page) => page.results)).toEqual(whole.results);
    expect(withoutPaging(pages[0] as MatchSetView)).toEqual(withoutPaging(whole));
    const counted = (status: MatchStatus) => whole.results.filter((r) => r.status === status).length;
    expect(whole.summary).toMatchObject({
      total: LARGE_ROWS,
      accepted: counted('accepted'),
      review: counted('review'),
      unmatched: counted('unmatched'),
      skipped: counted('skipped'),
    });
  }, 120_000);

  it('reads one status of the big set in pages, counted as the summary says', async () => {
    const { summary } = await view(owner, `/api/match/${largeSetId}?limit=0`);
    const rows = (await allPages(largeSetId, 250, '&status=review')).flatMap((page) => page.results);
    expect(rows.length).toBe(summary?.review);
    expect(rows.every((r) => r.status === 'review')).toBe(true);
  }, 60_000);
});

describe('the answers of the calls that change a set', () => {
  it('answer the page asked for: accept-review with limit 0 is the set and its new counts', async () => {
    const before = await view(owner, `/api/match/${smallSetId}?limit=0`);
    expect(before.summary?.review).toBeGreaterThan(0);
    const answer = await owner.post(`/api/match/${smallSetId}/accept-review?limit=0`);
    expect(answer.status, answer.text).toBe(200);
    const after = answer.body as MatchSetView;
    expect(after.results).toEqual([]);
    expect(after.summary).toMatchObject({
      total: SMALL_ROWS,
      review: 0,
      accepted: (before.summary?.accepted ?? 0) + (before.summary?.review ?? 0),
    });
    const refused = await owner.post(`/api/match/${smallSetId}/accept-review?limit=x`);
    expect(refused.status).toBe(400);
  });
});
