import { deflateSync, inflateSync } from 'node:zlib';
import { diffArrays } from 'diff';
import type { HistoryTrack } from '../../shared/api/history';

/**
 * How a playlist's versions are stored as differences (decision 0030). Pure: no database here.
 *
 * - Every distinct track of a playlist's history gets a number, in order of first appearance; its details
 *   are stored once, in the version that first held it.
 * - A version's ordered list is a list of those numbers: `ops` turn the previous version's list into it
 *   (`[index, deleteCount, ...inserted]`, applied in order), and every HISTORY_KEYFRAME_EVERY versions a
 *   keyframe holds the whole list (deflated deltas: a 10,000-track list takes a few kilobytes), so reading
 *   any version applies at most that many diffs.
 */
export const HISTORY_KEYFRAME_EVERY = 100;

/** What is kept of a track: enough to show it and to add it again on the same service. */
export interface StoredTrack extends HistoryTrack {
  isrc?: string;
  durationMs?: number;
}

export type ListOp = number[];

/** The ops that turn `before` into `after` (Myers' diff: a few changes in 10,000 tracks cost little). */
export function diffLists(before: readonly number[], after: readonly number[]): ListOp[] {
  const ops: ListOp[] = [];
  let index = 0;
  let pending: ListOp | null = null;
  for (const part of diffArrays(before as number[], after as number[])) {
    const count = part.count ?? part.value.length;
    if (!part.added && !part.removed) {
      if (pending) ops.push(pending);
      pending = null;
      index += count;
      continue;
    }
    pending ??= [index, 0];
    if (part.removed) pending[1] = (pending[1] ?? 0) + count;
    else {
      pending.push(...part.value);
      index += count;
    }
  }
  if (pending) ops.push(pending);
  // Indexes count in the list as it becomes (earlier ops already applied): `applyOps` splices in order.
  return ops;
}

/** Applies `diffLists` ops in place. */
export function applyOps(list: number[], ops: readonly ListOp[]): number[] {
  for (const [at = 0, deleted = 0, ...inserted] of ops) list.splice(at, deleted, ...inserted);
  return list;
}

/**
 * A whole list as deflated little-endian deltas (consecutive numbers compress to almost nothing), in
 * base64: the embedded database hands text back many times faster than bytea.
 */
export function encodeKeyframe(list: readonly number[]): string {
  const deltas = new Int32Array(list.length);
  let previous = 0;
  list.forEach((value, index) => {
    deltas[index] = value - previous;
    previous = value;
  });
  return deflateSync(new Uint8Array(deltas.buffer), { level: 9 }).toString('base64');
}

export function decodeKeyframe(text: string): number[] {
  const raw = inflateSync(Buffer.from(text, 'base64'));
  // A copy: the inflated buffer may sit at an offset of a shared pool that is not 4-byte aligned.
  const deltas = new Int32Array(new Uint8Array(raw).buffer);
  const list = new Array<number>(deltas.length);
  let previous = 0;
  for (let index = 0; index < deltas.length; index++) {
    previous += deltas[index] ?? 0;
    list[index] = previous;
  }
  return list;
}

/** Below this many characters track details are kept as plain JSON (one parse, nothing to inflate). */
const DEFLATE_TRACKS_FROM = 2_048;

/**
 * Tracks as JSON rows `[id, uri, name, artists, album, isrc, durationMs]`: plain when short, else `z` and
 * the deflated JSON in base64.
 */
export function encodeTracks(tracks: readonly StoredTrack[]): string {
  const rows = tracks.map((track) => [
    track.id,
    track.uri === track.id ? 0 : track.uri,
    track.name,
    track.artists,
    track.album,
    track.isrc ?? 0,
    track.durationMs ?? 0,
  ]);
  const json = JSON.stringify(rows);
  if (json.length < DEFLATE_TRACKS_FROM) return json;
  return `z${deflateSync(json, { level: 9 }).toString('base64')}`;
}

export function decodeTracks(text: string): StoredTrack[] {
  const json = text.startsWith('z')
    ? inflateSync(Buffer.from(text.slice(1), 'base64')).toString('utf8')
    : text;
  const rows = JSON.parse(json) as [string, string | 0, string, string[], string, string | 0, number][];
  const tracks = new Array<StoredTrack>(rows.length);
  for (let index = 0; index < rows.length; index++) {
    const [id, uri, name, artists, album, isrc, durationMs] = rows[index] as (typeof rows)[number];
    const track: StoredTrack = { id, uri: uri === 0 ? id : uri, name, artists, album };
    if (isrc !== 0) track.isrc = isrc;
    if (durationMs) track.durationMs = durationMs;
    tracks[index] = track;
  }
  return tracks;
}

/** What one list has that the other has not, counting repeats (a track twice, removed once, is removed once). */
export function multisetMinus(from: readonly number[], minus: readonly number[]): number[] {
  const counts = new Map<number, number>();
  for (const value of minus) counts.set(value, (counts.get(value) ?? 0) + 1);
  const rest: number[] = [];
  for (const value of from) {
    const left = counts.get(value) ?? 0;
    if (left > 0) counts.set(value, left - 1);
    else rest.push(value);
  }
  return rest;
}

/** A version as stored, the parts replaying its list needs (the tracks' details are read apart). */
export interface StoredListParts {
  seq: number;
  keyframe: string | null;
  ops: ListOp[];
}

/** A version's changes of availability (only versions with any need to be read). */
export interface AvailabilityChange {
  becameUnavailable: number[];
  becameAvailable: number[];
}

export type StoredVersionParts = StoredListParts & AvailabilityChange;

/** The state a version leaves: its ordered list, the tracks known so far, which of them are unavailable. */
export interface ReplayedState {
  seq: number;
  list: number[];
  tracks: StoredTrack[];
  unavailable: Set<number>;
}

/**
 * Replays versions (in `seq` order, from a keyframe or the first) into the state of the last one: the list
 * starts at the newest keyframe. `availability` holds the changes of every earlier version (in order;
 * versions without any may be left out), `tracks` the history's track details by number.
 */
export function replay(
  versions: readonly StoredListParts[],
  availability: readonly AvailabilityChange[],
  tracks: StoredTrack[],
): ReplayedState {
  const unavailable = new Set<number>();
  for (const change of availability) {
    for (const ref of change.becameUnavailable) unavailable.add(ref);
    for (const ref of change.becameAvailable) unavailable.delete(ref);
  }
  let start = 0;
  versions.forEach((version, index) => {
    if (version.keyframe) start = index;
  });
  let list: number[] = [];
  let seq = 0;
  versions.forEach((version, index) => {
    if (index === start && version.keyframe) list = decodeKeyframe(version.keyframe);
    else if (index > start) applyOps(list, version.ops);
    seq = version.seq;
  });
  return { seq, list, tracks, unavailable };
}

/** One read of a playlist, as the history keeps it: tracks in order, each marked playable or not. */
export interface ObservedEntry {
  track: StoredTrack;
  unavailable: boolean;
}

/** What a new version stores, computed from the previous state and what was read now. */
export interface NewVersionParts {
  trackCount: number;
  keyframe: string | null;
  ops: ListOp[];
  newTracks: string | null;
  added: number[];
  removed: number[];
  becameUnavailable: number[];
  becameAvailable: number[];
  /** The state it leaves. */
  list: number[];
}

/** The version `observed` makes after `previous` (null before the first), or null when nothing changed. */
export function nextVersion(
  previous: ReplayedState | null,
  observed: readonly ObservedEntry[],
): NewVersionParts | null {
  const known = previous?.tracks ?? [];
  const refOf = new Map<string, number>();
  known.forEach((track, ref) => {
    refOf.set(track.uri, ref);
  });
  const fresh: StoredTrack[] = [];
  const list = observed.map((entry) => {
    const existing = refOf.get(entry.track.uri);
    if (existing !== undefined) return existing;
    const ref = known.length + fresh.length;
    fresh.push(entry.track);
    refOf.set(entry.track.uri, ref);
    return ref;
  });
  const before = previous?.list ?? [];
  const unavailableNow = new Set<number>();
  observed.forEach((entry, index) => {
    if (entry.unavailable) unavailableNow.add(list[index] ?? -1);
  });
  const beforeSet = new Set(before);
  const wasUnavailable = new Set([...(previous?.unavailable ?? [])].filter((ref) => beforeSet.has(ref)));
  const becameUnavailable = [...unavailableNow].filter((ref) => !wasUnavailable.has(ref));
  const listed = new Set(list);
  const becameAvailable = [...(previous?.unavailable ?? [])].filter(
    (ref) => listed.has(ref) && !unavailableNow.has(ref),
  );
  const ops = previous ? diffLists(before, list) : [];
  if (previous && ops.length === 0 && becameUnavailable.length === 0 && becameAvailable.length === 0)
    return null;
  const seq = (previous?.seq ?? 0) + 1;
  return {
    trackCount: list.length,
    keyframe: !previous || (seq - 1) % HISTORY_KEYFRAME_EVERY === 0 ? encodeKeyframe(list) : null,
    ops,
    newTracks: fresh.length > 0 ? encodeTracks(fresh) : null,
    added: multisetMinus(list, before),
    removed: multisetMinus(before, list),
    becameUnavailable,
    becameAvailable,
    list,
  };
}
