import type { Plan } from '../../shared/api/auth';
import {
  type Disappeared,
  HISTORY_FREE_DAYS,
  type HistoryCause,
  type HistoryPage,
  type HistoryTrack,
} from '../../shared/api/history';
import type { ServiceId } from '../../shared/services';
import type { Database } from '../db/client';
import { notFound } from '../domain-errors';
import type { PlaylistEntry } from '../providers/types';
import {
  decodeTracks,
  nextVersion,
  type ObservedEntry,
  type ReplayedState,
  replay,
  type StoredTrack,
} from './history-codec';
import {
  findHistory,
  findHistoryById,
  findVersionAt,
  findVersionBySeq,
  findVersionsByIds,
  findVersionWithOrigin,
  type HistoryKey,
  hasVersionsBefore,
  insertVersion,
  listVersions,
  listVersionsWithLosses,
  loadNewTracks,
  loadVersionParts,
  type VersionSummaryRow,
  withHistoryLocked,
} from './history-store';

const DAY_MS = 24 * 60 * 60_000;

/** What a playlist read looks like to the history; null for an entry it does not keep (local files, episodes). */
function observedEntry(entry: PlaylistEntry, previous: ReplayedState | null): ObservedEntry | null {
  if (entry.kind === 'track') {
    const { id, uri, name, artists, album, isrc, durationMs } = entry.track;
    return {
      track: { id, uri, name, artists, album, ...(isrc ? { isrc } : {}), durationMs },
      unavailable: entry.track.availability?.playable === false,
    };
  }
  if ((entry.reason !== 'unavailable' && entry.reason !== 'not_in_catalog') || !entry.name) return null;
  // Apple reads a song it no longer offers without its catalog id: it is the track of that name we knew.
  const artist = entry.artists?.[0] ?? '';
  const known = previous?.list
    .map((ref) => previous.tracks[ref])
    .find((track) => track !== undefined && track.name === entry.name && (track.artists[0] ?? '') === artist);
  if (known) return { track: known, unavailable: true };
  const uri = `unavailable:${entry.name}|${artist}`;
  return {
    track: { id: uri, uri, name: entry.name, artists: entry.artists ?? [], album: entry.album ?? '' },
    unavailable: true,
  };
}

export interface Observation extends HistoryKey {
  name: string;
  entries: PlaylistEntry[];
  /**
   * `read`: Crossfade read the playlist for `cause` (a transfer, sync, batch or backup): a change since the
   * last version was made elsewhere (`outside`); the first version takes `cause`. `write`: Crossfade
   * wrote it (cause of the writer).
   */
  mode: 'read' | 'write';
  cause: Exclude<HistoryCause, 'outside'>;
  origin?: string | null;
  at?: Date;
}

/**
 * Track details by number, kept in memory per history (a few): versions never change once written and
 * numbers are only ever appended, so a cached prefix stays true; what other processes appended since is
 * read on top of it.
 */
const DICTIONARIES_KEPT = 16;
const dictionaries = new Map<string, { seq: number; tracks: StoredTrack[] }>();

/** Empties the in-memory track details (the benchmark reads every version cold). */
export function forgetCachedHistories() {
  dictionaries.clear();
}

async function tracksUpTo(db: Database, historyId: string, seq: number): Promise<StoredTrack[]> {
  const cached = dictionaries.get(historyId);
  if (cached && cached.seq >= seq) return cached.tracks;
  const blobs = await loadNewTracks(db, historyId, cached?.seq ?? 0, seq);
  const tracks = [...(cached?.tracks ?? []), ...blobs.flatMap((blob) => decodeTracks(blob))];
  dictionaries.delete(historyId);
  dictionaries.set(historyId, { seq, tracks });
  for (const key of dictionaries.keys()) {
    if (dictionaries.size <= DICTIONARIES_KEPT) break;
    dictionaries.delete(key);
  }
  return tracks;
}

/** The state version `seq` of a history left (its list, the tracks known, which are unavailable). */
async function stateAt(db: Database, historyId: string, seq: number): Promise<ReplayedState> {
  const [parts, tracks] = await Promise.all([
    loadVersionParts(db, historyId, seq),
    tracksUpTo(db, historyId, seq),
  ]);
  return replay(parts.lists, parts.availability, tracks);
}

/** Records a version when the playlist changed since the last one. Answers the new version's id, or null. */
export async function recordObservation(db: Database, observation: Observation): Promise<string | null> {
  return withHistoryLocked(db, observation, async (tx, history) => {
    const previous = history.lastSeq === 0 ? null : await stateAt(tx, history.id, history.lastSeq);
    const observed = observation.entries.flatMap((entry) => observedEntry(entry, previous) ?? []);
    const parts = nextVersion(previous, observed);
    if (!parts) return null;
    const cause: HistoryCause = observation.mode === 'read' && previous ? 'outside' : observation.cause;
    const version = await insertVersion(tx, history, {
      name: observation.name,
      cause,
      origin: observation.origin ?? null,
      ...(observation.at ? { at: observation.at } : {}),
      parts,
    });
    return version.id;
  });
}

/**
 * The version a backup holds of a playlist (decision 0038): the one recorded with the backup's `origin`
 * when there is one (a resumed backup, or an upgrade that already ran), else the version current at
 * `at` (now by default) when the read matches it (versions are recorded only on change, decision 0030),
 * else the head when it matches, else a new version. Never null, and never a second version per origin.
 */
export async function recordBackupVersion(
  db: Database,
  observation: Observation & { origin: string },
): Promise<{ id: string }> {
  return withHistoryLocked(db, observation, async (tx, history) => {
    const own = await findVersionWithOrigin(tx, history.id, observation.origin);
    if (own) return { id: own.id };
    const head = history.lastSeq === 0 ? null : await stateAt(tx, history.id, history.lastSeq);
    const observe = (previous: ReplayedState | null) =>
      observation.entries.flatMap((entry) => observedEntry(entry, previous) ?? []);
    const then = observation.at ? await findVersionAt(tx, history.id, observation.at) : undefined;
    if (then && then.seq !== history.lastSeq) {
      const stateThen = await stateAt(tx, history.id, then.seq);
      if (!nextVersion(stateThen, observe(stateThen))) return { id: then.id };
    }
    const parts = nextVersion(head, observe(head));
    if (!parts) {
      const current = await findVersionBySeq(tx, history.id, history.lastSeq);
      if (!current) throw new Error('the newest version of the playlist history vanished');
      return { id: current.id };
    }
    const cause: HistoryCause = observation.mode === 'read' && head ? 'outside' : observation.cause;
    const version = await insertVersion(tx, history, {
      name: observation.name,
      cause,
      origin: observation.origin,
      ...(observation.at ? { at: observation.at } : {}),
      parts,
    });
    return { id: version.id };
  });
}

/** Where each version sits in its history, for `readVersionTracks`. */
export const locateVersions = (db: Database, ids: string[]) => findVersionsByIds(db, ids);

/** A version's whole ordered list, with which tracks were unavailable then. */
export async function readVersionTracks(
  db: Database,
  version: Pick<VersionSummaryRow, 'historyId' | 'seq'>,
): Promise<{ tracks: StoredTrack[]; unavailable: Set<string> }> {
  const state = await stateAt(db, version.historyId, version.seq);
  const tracks = state.list.map((ref) => state.tracks[ref] as StoredTrack);
  const unavailable = new Set([...state.unavailable].map((ref) => state.tracks[ref]?.uri ?? ''));
  return { tracks, unavailable };
}

/** Every track a history knows, by number. */
async function dictionary(db: Database, historyId: string): Promise<StoredTrack[]> {
  const history = await findHistoryById(db, historyId);
  return history ? tracksUpTo(db, historyId, history.lastSeq) : [];
}

const toHistoryTrack = (track: StoredTrack | undefined): HistoryTrack => ({
  id: track?.id ?? '',
  uri: track?.uri ?? '',
  name: track?.name ?? '',
  artists: track?.artists ?? [],
  album: track?.album ?? '',
});

/** History is shown for the last 7 days on every plan, in full with Vault+. */
export const historyVisibleSince = (plan: Plan, now = new Date()) =>
  plan === 'vault' ? undefined : new Date(now.getTime() - HISTORY_FREE_DAYS * DAY_MS);

export async function historyPage(
  db: Database,
  key: HistoryKey & { plan: Plan },
  page: { cursor?: number | undefined; limit: number },
): Promise<HistoryPage> {
  const history = await findHistory(db, key);
  if (!history) throw notFound('Crossfade has no history of that playlist yet.');
  const since = historyVisibleSince(key.plan);
  const rows = await listVersions(db, history.id, {
    ...(page.cursor !== undefined ? { beforeSeq: page.cursor } : {}),
    ...(since ? { since } : {}),
    limit: page.limit + 1,
  });
  const shown = rows.slice(0, page.limit);
  const tracks = shown.length > 0 ? await dictionary(db, history.id) : [];
  const last = shown.at(-1);
  return {
    service: history.service,
    playlistId: history.playlistId,
    name: history.name,
    versions: shown.map((row) => ({
      id: row.id,
      at: row.createdAt.toISOString(),
      cause: row.cause,
      trackCount: row.trackCount,
      added: row.added.map((ref) => toHistoryTrack(tracks[ref])),
      removed: row.removed.map((ref) => toHistoryTrack(tracks[ref])),
      becameUnavailable: row.becameUnavailable.map((ref) => toHistoryTrack(tracks[ref])),
    })),
    nextCursor: rows.length > page.limit && last ? last.seq : null,
    olderHidden: since !== undefined && (await hasVersionsBefore(db, history.id, since)),
  };
}

/** "What vanished, when, and why" across all the person's playlists, newest first. */
export async function disappeared(
  db: Database,
  userId: string,
  plan: Plan,
  limit = 200,
): Promise<Disappeared> {
  const since = historyVisibleSince(plan);
  const rows = await listVersionsWithLosses(db, userId, { ...(since ? { since } : {}), limit });
  const histories = new Map<
    string,
    { name: string; service: ServiceId; playlistId: string; tracks: StoredTrack[] }
  >();
  for (const row of rows) {
    if (histories.has(row.historyId)) continue;
    const history = await findHistoryById(db, row.historyId);
    if (!history) continue;
    histories.set(row.historyId, { ...history, tracks: await dictionary(db, row.historyId) });
  }
  return {
    items: rows.flatMap((row) => {
      const history = histories.get(row.historyId);
      if (!history) return [];
      const base = {
        service: history.service,
        playlistId: history.playlistId,
        playlistName: history.name,
        versionId: row.id,
        at: row.createdAt.toISOString(),
        cause: row.cause,
      };
      return [
        ...row.removed.map((ref) => ({
          ...base,
          track: toHistoryTrack(history.tracks[ref]),
          how: 'removed' as const,
        })),
        ...row.becameUnavailable.map((ref) => ({
          ...base,
          track: toHistoryTrack(history.tracks[ref]),
          how: 'unavailable' as const,
        })),
      ];
    }),
  };
}
