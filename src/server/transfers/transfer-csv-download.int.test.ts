import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIKED_SONGS_ID } from '../../shared/library-ids';
import { toCsv } from '../export/csv';
import { DOWNLOAD_STOPPED } from '../export/streamed-download';
import type { NormalizedTrack } from '../providers/types';
import { capturedLog } from '../testing/captured-log';
import { download } from '../testing/download';
import { observedDatabase } from '../testing/observed-database';
import { createTestDatabase } from '../testing/test-database';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import type { NewMatchRow } from './match-set-store';
import { insertMatchRows } from './match-set-store';
import { insertMatchSet } from './match-store';
import { CSV_PAGE_ROWS, transferCsvRows } from './transfer-csv';
import { TRANSFER_CSV_HEADER } from './transfer-csv-lines';
import { findTransfer, insertTransfer } from './transfer-store';

/**
 * The transfer CSV download streams (issue 25, decision 0042): a Liked Songs transfer of ROWS match rows
 * (no snapshot) and a playlist transfer with a stored snapshot arrive whole and byte for byte as the file
 * built at once; the rows are read CSV_PAGE_ROWS at a time (the real queries, counted at the driver), and
 * the first bytes reach the person before the last page is read. A failure half-way cuts the download.
 */
const ROWS = 5_200;
const SNAPSHOT_LINES = 2_600;

/** What the driver is to do with a statement that reads a page of `table`: counted, held or failed. */
let onPage: ((table: string, limit: unknown) => Promise<void>) | undefined;
const PAGE_READ = /from "(match_rows|transfers)".*limit \$\d+$/s;
const SNAPSHOT_READ = /jsonb_array_elements/;

let server: TestServer;
let client: TestClient;
let userId: string;
const log = capturedLog();

beforeAll(async () => {
  const database = observedDatabase(await createTestDatabase(), async (text, params) => {
    const table = SNAPSHOT_READ.test(text) ? 'snapshot' : PAGE_READ.exec(text)?.[1];
    if (onPage && (table === 'match_rows' || table === 'snapshot')) await onPage(table, params.at(-1));
  });
  server = await startTestServer({ database, logger: log.logger });
  client = server.newClient();
  const registered = await client.post('/api/auth/register', {
    username: 'streamer',
    email: 'streamer@example.com',
    password: 'secret-words',
  });
  userId = (registered.body as { user: { id: string } }).user.id;
}, 120_000);
afterAll(() => server?.close());

const track = (id: string, name: string, artists: string[]): NormalizedTrack => ({
  id,
  uri: `spotify:track:${id}`,
  name,
  artists,
  album: `Album, "${id}"`,
  durationMs: 180_000 + (Number(id.replace(/\D/g, '')) % 60) * 1000,
});

const NAMES = ['Plain', '=SUM(A1)', 'Comma, "quoted"', 'Ünïcödé ✓', 'Line\nbreak'];

/** Rows of every kind: accepted, in review, chosen by the person, not found, skipped; awkward names. */
function matchRow(matchSetId: string, position: number): NewMatchRow {
  const kind = position % 5;
  const name = NAMES[position % NAMES.length] ?? '';
  const source = track(`s${position}`, `${name} ${position}`, [`Artist ${position % 97}`]);
  const candidate = track(`d${position}`, `${name} ${position} (dest)`, [`Artist ${position % 97}`, '+feat']);
  const stored = {
    track: candidate,
    confidence: 80 + (position % 20),
    reasons: ['ISRC'],
    versionLabels: [],
    sameVersion: true,
  };
  return {
    matchSetId,
    position,
    source,
    candidates: kind === 3 || kind === 4 ? [] : [stored],
    chosenId: kind === 3 || kind === 4 ? null : candidate.id,
    confidence: kind === 3 ? 0 : 80 + (position % 20),
    status: (['accepted', 'review', 'accepted', 'unmatched', 'skipped'] as const)[kind] ?? 'accepted',
    reasons: kind === 4 ? ['A local file'] : ['Same ISRC'],
    decidedBy: kind === 2 ? 'person' : 'engine',
  };
}

async function likedSongsTransfer() {
  const set = await insertMatchSet(server.deps.db, {
    userId,
    sourceService: 'spotify',
    destinationService: 'apple',
    sourcePlaylistId: LIKED_SONGS_ID,
    sourcePlaylistName: 'Liked Songs',
  });
  for (let from = 0; from < ROWS; from += 1_000) {
    const positions = Array.from({ length: Math.min(1_000, ROWS - from) }, (_, i) => from + i);
    await insertMatchRows(
      server.deps.db,
      positions.map((position) => matchRow(set.id, position)),
    );
  }
  return insertTransfer(server.deps.db, {
    userId,
    sourceService: 'spotify',
    destinationService: 'apple',
    sourcePlaylistId: LIKED_SONGS_ID,
    name: 'Liked Songs',
    status: 'succeeded',
    matchSetId: set.id,
    verifiedTracks: ROWS - 10,
    verificationMissing: [
      { position: 0, name: 'Plain 0', artists: ['Artist 0'], reason: 'not in the library after two adds' },
    ],
    librarySave: {
      kind: 'liked',
      savedTo: 'Favourite Songs',
      album: null,
      savedTracks: ROWS,
      playlist: null,
    },
  });
}

/** The download read as bytes (fetch's `text()` would drop the byte-order mark), chunk by chunk. */
/** The file as it was built before it streamed: all rows at once, then `toCsv`, after the byte-order mark. */
async function referenceFile(transferId: string) {
  const record = await findTransfer(server.deps.db, transferId);
  if (!record) throw new Error('transfer not found');
  return Buffer.from(
    `\uFEFF${toCsv(TRANSFER_CSV_HEADER, await transferCsvRows(server.deps.db, record))}`,
    'utf8',
  );
}

describe('GET /api/export/csv/:playlistId, streamed', () => {
  it('sends every row of a large Liked Songs transfer, byte for byte, a page of rows per query', async () => {
    const transfer = await likedSongsTransfer();
    const limits: unknown[] = [];
    let firstBytes: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => {
      firstBytes = resolve;
    });
    let firstBytesBeforeLastPage = false;
    onPage = async (_table, limit) => {
      limits.push(limit);
      // The third page waits for the person to have bytes: a file built whole first would never send any.
      if (limits.length === 3) {
        await Promise.race([
          arrived,
          new Promise((_, reject) => setTimeout(() => reject(new Error('no bytes before page 3')), 30_000)),
        ]);
        firstBytesBeforeLastPage = true;
      }
    };
    try {
      const response = await download(client, `/api/export/csv/${transfer.id}`, () => firstBytes());
      const { bytes, chunks } = response;
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe('attachment; filename="playlist_transfer.csv"');
      expect(firstBytesBeforeLastPage).toBe(true);
      // One query per full page and one that finds the end; none bigger than a page.
      expect(limits).toEqual(Array(Math.floor(ROWS / CSV_PAGE_ROWS) + 1).fill(CSV_PAGE_ROWS));
      expect(chunks).toBeGreaterThan(ROWS / CSV_PAGE_ROWS / 2);
      onPage = undefined;
      const reference = await referenceFile(transfer.id);
      expect(bytes.equals(reference)).toBe(true);
      const text = bytes.toString('utf8');
      expect(text.startsWith('\uFEFFTrack Name,Artist,Album,Duration,')).toBe(true);
      // Every row once, in order: a record per row after the header (CRLF ends records; names hold only LF).
      expect(text.split('\r\n')).toHaveLength(ROWS + 2);
      expect(text).toContain(`\r\nPlain ${ROWS - 5},`);
      expect(text).toContain("'=SUM(A1) 1,");
      expect(text).toContain('saved to your Apple Music library');
    } finally {
      onPage = undefined;
    }
  }, 180_000);

  it('sends a stored snapshot a page of lines at a time, byte for byte', async () => {
    const lines = Array.from({ length: SNAPSHOT_LINES }, (_, i) => [
      `Song ${i}`,
      `Artist, ${i}`,
      '"Album"',
      '3:00',
      `Dest ${i}`,
      'Artist',
      '95',
      'transferred',
      '',
      'verified',
    ]);
    const transfer = await insertTransfer(server.deps.db, {
      userId,
      sourceService: 'spotify',
      destinationService: 'apple',
      sourcePlaylistId: 'snapshot-playlist',
      name: 'Snapshot',
      status: 'succeeded',
      csvSnapshot: lines,
    });
    const limits: unknown[] = [];
    onPage = async (table, limit) => {
      if (table === 'snapshot') limits.push(limit);
    };
    try {
      const { status, bytes } = await download(client, '/api/export/csv/snapshot-playlist');
      expect(status).toBe(200);
      expect(limits).toEqual(Array(Math.ceil(SNAPSHOT_LINES / CSV_PAGE_ROWS)).fill(CSV_PAGE_ROWS));
      expect(bytes.equals(await referenceFile(transfer.id))).toBe(true);
      expect(bytes.toString('utf8').split('\r\n')).toHaveLength(SNAPSHOT_LINES + 2);
    } finally {
      onPage = undefined;
    }
  }, 120_000);

  it('cuts the download when the database fails half-way, and logs no row or cookie', async () => {
    const transfer = await likedSongsTransfer();
    let pages = 0;
    onPage = async () => {
      pages++;
      if (pages === 4) throw new Error('connection to the database lost');
    };
    try {
      const failure = await download(client, `/api/export/csv/${transfer.id}`).then(
        () => null,
        (error: unknown) => error,
      );
      // The chunked body never came to its end: the connection was cut, not closed as a whole file.
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toMatch(/^(aborted|the download was cut)$/);
    } finally {
      onPage = undefined;
    }
    const stopped = log.lines.filter((line) => line.includes('download stopped'));
    expect(stopped).toHaveLength(1);
    expect(stopped[0]).not.toMatch(/Plain|Artist|cf_session|streamer|database lost/);
    expect(stopped[0]).not.toContain(DOWNLOAD_STOPPED);
  }, 180_000);

  it('answers 404 before anything is sent for a transfer that is not the person’s or an id that is none', async () => {
    const transfer = await likedSongsTransfer();
    const stranger = server.newClient();
    await stranger.post('/api/auth/register', {
      username: 'stranger',
      email: 'stranger@example.com',
      password: 'secret-words',
    });
    const theirs = await stranger.get(`/api/export/csv/${transfer.id}`);
    expect(theirs.status).toBe(404);
    expect(theirs.headers.get('content-type')).toContain('application/json');
    expect((await client.get('/api/export/csv/not-a-transfer')).status).toBe(404);
    expect((await server.newClient().get(`/api/export/csv/${transfer.id}`)).status).toBe(401);
  }, 120_000);
});
