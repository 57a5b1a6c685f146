import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsEvents, importedPlaylists, syncRuns, syncs, transfers } from '../db/schema';
import { capturedLog } from '../testing/captured-log';
import { type Download, download } from '../testing/download';
import { observedDatabase } from '../testing/observed-database';
import { createTestDatabase } from '../testing/test-database';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { EXPORT_PAGE_ROWS, PLAYLIST_PAGE_ROWS } from './account-export';

/**
 * "Download my data" streams (issue 25, decision 0042): a person with thousands of rows gets every one,
 * in the document `JSON.stringify` wrote before (the same keys in the same order, no spaces), while each
 * list is read a page at a time (the real queries, counted at the driver) and the first bytes go out
 * before the last page is read. A failure half-way cuts the download.
 */
const TRANSFERS = 1_234;
const EVENTS = 3_100;
const IMPORTS = 45;
const RUNS = 620;

const DOCUMENT_KEYS = [
  'exportedAt',
  'about',
  'profile',
  'connections',
  'transfers',
  'matchSets',
  'batches',
  'matchRules',
  'syncs',
  'imports',
  'exports',
  'backups',
  'merges',
  'links',
  'billing',
  'jobs',
  'messagesSent',
  'analyticsEvents',
];

/** What the driver is to do with a statement that reads a page of a table (its name and LIMIT). */
let onPage: ((table: string, limit: unknown) => Promise<void>) | undefined;
const PAGE_READ = /from "(\w+)".*limit \$\d+$/s;

let server: TestServer;
let client: TestClient;
let userId: string;
const log = capturedLog();

beforeAll(async () => {
  const database = observedDatabase(await createTestDatabase(), async (text, params) => {
    const table = PAGE_READ.exec(text)?.[1];
    if (onPage && table) await onPage(table, params.at(-1));
  });
  server = await startTestServer({ database, logger: log.logger });
  client = server.newClient();
  const registered = await client.post('/api/auth/register', {
    username: 'archivist',
    email: 'archivist@example.com',
    password: 'secret-words',
  });
  userId = (registered.body as { user: { id: string } }).user.id;
  await fill();
}, 180_000);
afterAll(() => server?.close());

/** Thousands of rows, inserted a statement per thousand; many share their time, so pages split ties. */
async function fill() {
  const { db } = server.deps;
  const base = Date.UTC(2026, 0, 1);
  for (let from = 0; from < TRANSFERS; from += 1_000) {
    const count = Math.min(1_000, TRANSFERS - from);
    // One statement: every row has the same created_at, to the microsecond.
    await db.insert(transfers).values(
      Array.from({ length: count }, (_, i) => ({
        userId,
        sourceService: 'spotify' as const,
        destinationService: 'apple' as const,
        sourcePlaylistId: `p${from + i}`,
        name: `Transfer "${from + i}", ünïcödé`,
        status: 'succeeded' as const,
      })),
    );
  }
  for (let from = 0; from < EVENTS; from += 1_000) {
    await db.insert(analyticsEvents).values(
      Array.from({ length: Math.min(1_000, EVENTS - from) }, (_, i) => ({
        userId,
        sessionKey: 'session',
        event: 'feature_used',
        properties: { feature: `f${(from + i) % 13}`, n: from + i, ok: i % 2 === 0, none: null },
        occurredAt: new Date(base + Math.floor((from + i) / 7) * 1000),
      })),
    );
  }
  await db.insert(importedPlaylists).values(
    Array.from({ length: IMPORTS }, (_, i) => ({
      userId,
      name: `Import ${i}`,
      originService: 'spotify' as const,
      tracks: Array.from({ length: 200 }, (_, t) => ({
        id: `t${i}-${t}`,
        uri: `spotify:track:t${i}-${t}`,
        name: `Song ${t} \u2028 "x"`,
        artists: ['A', 'B'],
        album: 'Album',
        durationMs: 1000 * t,
      })),
    })),
  );
  const [sync] = await db
    .insert(syncs)
    .values({
      userId,
      sourceService: 'spotify',
      sourcePlaylistId: 'sp',
      sourcePlaylistName: 'Kept in sync',
      destinationService: 'apple',
      destinationUrl: 'https://music.apple.com/library/playlist/p.x',
      schedule: 'daily',
      direction: 'one-way',
    })
    .returning();
  if (!sync) throw new Error('no sync');
  await db.insert(syncRuns).values(
    Array.from({ length: RUNS }, (_, i) => ({
      syncId: sync.id,
      userId,
      dryRun: i % 3 === 0,
      trigger: 'scheduled' as const,
      status: 'succeeded' as const,
      unchanged: i,
    })),
  );
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

describe('GET /api/account/export, streamed', () => {
  it('sends every row in the document JSON.stringify wrote, each list a page per query', async () => {
    const pages: { table: string; limit: unknown }[] = [];
    let firstBytes: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => {
      firstBytes = resolve;
    });
    let firstBytesBeforeLastPage = false;
    onPage = async (table, limit) => {
      pages.push({ table, limit });
      // The events come last: their third page waits for the person to have bytes.
      if (table === 'analytics_events' && pages.filter((page) => page.table === table).length === 3) {
        await Promise.race([
          arrived,
          new Promise((_, reject) => setTimeout(() => reject(new Error('no bytes before page 3')), 30_000)),
        ]);
        firstBytesBeforeLastPage = true;
      }
    };
    let response: Download;
    try {
      response = await download(client, '/api/account/export', () => firstBytes());
    } finally {
      onPage = undefined;
    }
    const text = response.bytes.toString('utf8');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['content-disposition']).toBe('attachment; filename="crossfade-my-data.json"');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(firstBytesBeforeLastPage).toBe(true);

    const limitsOf = (table: string) =>
      pages.filter((page) => page.table === table).map((page) => page.limit);
    const fullPages = (rows: number, size: number) => Array(Math.floor(rows / size) + 1).fill(size);
    expect(limitsOf('analytics_events')).toEqual(fullPages(EVENTS, EXPORT_PAGE_ROWS));
    expect(limitsOf('transfers')).toEqual(fullPages(TRANSFERS, EXPORT_PAGE_ROWS));
    expect(limitsOf('imported_playlists')).toEqual(fullPages(IMPORTS, PLAYLIST_PAGE_ROWS));
    expect(limitsOf('sync_runs')).toEqual(fullPages(RUNS, EXPORT_PAGE_ROWS));

    // Valid JSON, and exactly as JSON.stringify writes the same document (the bytes before streaming).
    const data = JSON.parse(text) as Record<string, unknown> & {
      transfers: { id: string; name: string }[];
      analyticsEvents: { event: string; properties: unknown; occurredAt: string }[];
      imports: { name: string; tracks: unknown[] }[];
      syncs: { id: string; runs: { id: string; unchanged: number }[] }[];
    };
    expect(JSON.stringify(data)).toBe(text);
    expect(Object.keys(data)).toEqual(DOCUMENT_KEYS);

    // Every row once, in its order, as the database holds it.
    const { db } = server.deps;
    const transferRows = await db
      .select({ id: transfers.id, name: transfers.name })
      .from(transfers)
      .where(eq(transfers.userId, userId))
      .orderBy(asc(transfers.createdAt), asc(transfers.id));
    expect(data.transfers).toHaveLength(TRANSFERS);
    expect(data.transfers.map(({ id, name }) => ({ id, name }))).toEqual(transferRows);
    const eventRows = await db
      .select({
        event: analyticsEvents.event,
        properties: analyticsEvents.properties,
        at: analyticsEvents.occurredAt,
      })
      .from(analyticsEvents)
      .where(eq(analyticsEvents.userId, userId))
      .orderBy(asc(analyticsEvents.occurredAt), asc(analyticsEvents.id));
    expect(data.analyticsEvents).toEqual(
      eventRows.map((row) => ({ event: row.event, properties: row.properties, occurredAt: iso(row.at) })),
    );
    expect(data.analyticsEvents.map((event) => (event.properties as { n: number }).n)).toEqual(
      Array.from({ length: EVENTS }, (_, i) => i),
    );
    expect(data.imports).toHaveLength(IMPORTS);
    expect(data.imports.every((row) => row.tracks.length === 200)).toBe(true);
    expect(new Set(data.imports.map((row) => row.name)).size).toBe(IMPORTS);
    expect(data.syncs).toHaveLength(1);
    expect(data.syncs[0]?.runs.map((run) => run.unchanged).sort((a, b) => a - b)).toEqual(
      Array.from({ length: RUNS }, (_, i) => i),
    );
  }, 240_000);

  it('cuts the download when the database fails half-way, and logs nothing of the person', async () => {
    let eventPages = 0;
    onPage = async (table) => {
      if (table === 'analytics_events' && ++eventPages === 2)
        throw new Error('connection to the database lost');
    };
    let failure: unknown;
    try {
      failure = await download(client, '/api/account/export').then(
        () => null,
        (error: unknown) => error,
      );
    } finally {
      onPage = undefined;
    }
    // The chunked body never came to its end: the connection was cut, not closed as a whole file.
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/^(aborted|the download was cut)$/);
    const stopped = log.lines.filter((line) => line.includes('download stopped'));
    expect(stopped).toHaveLength(1);
    expect(stopped[0]).not.toMatch(/archivist|Transfer|feature_used|cf_session|database lost/);
  }, 240_000);
});
