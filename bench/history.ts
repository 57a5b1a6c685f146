/**
 * `npm run bench:history` (issue 21, decision 0030): records BENCH_VERSIONS (1,000) versions of a
 * BENCH_TRACKS (10,000)-track playlist with BENCH_CHANGES (10) changes each on the embedded database,
 * then prints the bytes stored per version, the total, the slowest read of a version (the newest, the
 * oldest, every keyframe's neighbours and random ones) and how long a restore of an early version into
 * the Spotify emulator takes (through the restore job, verified). Exits 1 when a goal is missed: under
 * 5 MB in all, every read under 200 ms (each read cold: no track details cached; the median of three).
 *
 * The last line is `bench:history: versions=N bytes_per_version=N total_mb=X read_ms_max=X restore_s=X`.
 */

import { openDatabase } from '../src/server/db/open';
import { users } from '../src/server/db/schema';
import { HISTORY_KEYFRAME_EVERY } from '../src/server/history/history-codec';
import { findHistory, historyTableBytes, listVersions } from '../src/server/history/history-store';
import {
  forgetCachedHistories,
  readVersionTracks,
  recordObservation,
} from '../src/server/history/playlist-history';
import type { NormalizedTrack, PlaylistEntry } from '../src/server/providers/types';
import { seededRandom } from '../src/shared/seeded-random';
import { benchRestore } from './history-restore';

const VERSIONS = Number(process.env.BENCH_VERSIONS ?? 1_000);
const TRACKS = Number(process.env.BENCH_TRACKS ?? 10_000);
const CHANGES = Number(process.env.BENCH_CHANGES ?? 10);
const GOAL_TOTAL_MB = 5;
const GOAL_READ_MS = 200;

const random = seededRandom(21);
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const WORDS =
  'love night river gold fire heart city dream blue summer rain road light shadow ocean wild'.split(' ');
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
const base62 = (length: number) => Array.from({ length }, () => pick([...ALPHABET])).join('');
const words = (count: number) =>
  Array.from({ length: count }, () => pick(WORDS))
    .join(' ')
    .replace(/^./, (first) => first.toUpperCase());

/** A track as Spotify's answers describe one (random ids and ISRCs: they do not compress). */
function randomTrack(): NormalizedTrack {
  const id = base62(22);
  return {
    id,
    uri: `spotify:track:${id}`,
    name: words(1 + Math.floor(random() * 4)),
    artists: [`${words(1)} ${words(1)}`],
    album: words(1 + Math.floor(random() * 3)),
    durationMs: 120_000 + Math.floor(random() * 240_000),
    isrc: `US${base62(3).toUpperCase()}${String(Math.floor(random() * 1e7)).padStart(7, '0')}`,
  };
}

/** Ten changes as people make them: adds, removals, moves. */
function change(list: NormalizedTrack[]) {
  for (let index = 0; index < CHANGES; index++) {
    const roll = random();
    const at = Math.floor(random() * list.length);
    if (roll < 0.4) list.splice(at, 0, randomTrack());
    else if (roll < 0.8) list.splice(at, 1);
    else {
      const [moved] = list.splice(at, 1);
      if (moved) list.splice(Math.floor(random() * list.length), 0, moved);
    }
  }
}

const entriesOf = (list: NormalizedTrack[]): PlaylistEntry[] =>
  list.map((track, position) => ({ position, kind: 'track', track }));

async function main() {
  const handle = await openDatabase({ memory: true });
  const { db } = handle;
  const [user] = await db
    .insert(users)
    .values({ username: 'bench', email: 'bench@example.com', passwordHash: 'x' })
    .returning({ id: users.id });
  if (!user) throw new Error('no user');
  const key = { userId: user.id, service: 'spotify' as const, playlistId: 'bench-playlist' };
  const list = Array.from({ length: TRACKS }, randomTrack);
  const truth = new Map<number, string[]>();
  const started = performance.now();
  for (let seq = 1; seq <= VERSIONS; seq++) {
    if (seq > 1) change(list);
    await recordObservation(db, {
      ...key,
      name: 'Bench',
      entries: entriesOf(list),
      mode: 'write',
      cause: 'sync',
    });
    if (seq % 97 === 1 || seq === VERSIONS)
      truth.set(
        seq,
        list.map((track) => track.uri),
      );
    if (seq % 100 === 0)
      console.log(`recorded ${seq} versions (${Math.round(performance.now() - started)} ms)`);
  }
  const bytes = await historyTableBytes(db);
  const history = await findHistory(db, key);
  if (!history) throw new Error('no history');
  const rows = await listVersions(db, history.id, { limit: VERSIONS + 1 });
  const bySeq = new Map(rows.map((row) => [row.seq, row]));

  // Reads: the newest, the oldest, around every keyframe (the longest replays) and some at random.
  const seqs = new Set<number>([1, VERSIONS, ...truth.keys()]);
  for (let seq = HISTORY_KEYFRAME_EVERY; seq <= VERSIONS; seq += HISTORY_KEYFRAME_EVERY) seqs.add(seq);
  for (let index = 0; index < 20; index++) seqs.add(1 + Math.floor(random() * VERSIONS));
  let readMax = 0;
  for (const seq of seqs) {
    const row = bySeq.get(seq);
    if (!row) throw new Error(`version ${seq} is missing`);
    // Cold: nothing of the history in memory, as in a process that has just started. The median of three
    // such reads, so one garbage collection or a neighbour's burst on a shared machine is not the figure.
    const times: number[] = [];
    let read: Awaited<ReturnType<typeof readVersionTracks>> | undefined;
    for (let attempt = 0; attempt < 3; attempt++) {
      forgetCachedHistories();
      const began = performance.now();
      read = await readVersionTracks(db, row);
      times.push(performance.now() - began);
    }
    const median = times.sort((a, b) => a - b)[1] ?? 0;
    readMax = Math.max(readMax, median);
    if (process.env.BENCH_VERBOSE) console.log(`read version ${seq}: ${median.toFixed(1)} ms`);
    if (!read) throw new Error('no read');
    const expected = truth.get(seq);
    if (expected && read.tracks.map((track) => track.uri).join() !== expected.join())
      throw new Error(`version ${seq} did not read back as it was recorded`);
  }
  await handle.close();

  const restoreSeconds = await benchRestore();
  const totalMb = bytes / 1024 / 1024;
  const perVersion = Math.round(bytes / VERSIONS);
  console.log(`recording took ${((performance.now() - started) / 1000).toFixed(1)} s in all`);
  console.log(`goals: total under ${GOAL_TOTAL_MB} MB, every read under ${GOAL_READ_MS} ms`);
  console.log(
    `bench:history: versions=${VERSIONS} bytes_per_version=${perVersion} total_mb=${totalMb.toFixed(2)} read_ms_max=${readMax.toFixed(1)} restore_s=${restoreSeconds.toFixed(2)}`,
  );
  if (totalMb >= GOAL_TOTAL_MB || readMax >= GOAL_READ_MS) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
