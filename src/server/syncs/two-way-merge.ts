import type { SyncSideTrack, TwoWayBase, TwoWayBaseEntry } from '../db/stored-json';
import { normalizeIsrc } from '../matching/isrc';
import type { NormalizedTrack } from '../providers/types';

/**
 * The three-way merge of a two-way sync (issue 21 item 1, decision 0024), pure: both sides as read now,
 * against the base the last successful run left. Compared by recording (ISRC, else the ids this sync
 * paired), never by one side's id alone.
 *
 * - on both sides in the base, still on both: kept;
 * - on both in the base, gone from one side: a removal for the other side, unless the other side holds
 *   the recording more often than the base did (it was added there again): then the add wins and it is put
 *   back on the side that removed it (a conflict, listed);
 * - gone from both: dropped;
 * - in the base on one side only (a removal listed earlier): carried while that side still holds it; if
 *   the other side now holds the recording again, the pair is whole again;
 * - on a side and not in the base: an add, to match and copy to the other side (`newOnSource`,
 *   `newOnDestination`); adds of the same ISRC on both sides pair up without a write.
 */

export type Side = 'source' | 'destination';
export const OTHER: Record<Side, Side> = { source: 'destination', destination: 'source' };

export const sideTrack = (track: NormalizedTrack): SyncSideTrack => ({
  id: track.id,
  uri: track.uri,
  isrc: normalizeIsrc(track.isrc),
  name: track.name,
  artists: track.artists,
});

/** The base key of a recording: its ISRC from either side, else the pair of ids (never one id alone). */
export function baseKey(source: SyncSideTrack | null, destination: SyncSideTrack | null): string {
  const isrc = source?.isrc ?? destination?.isrc ?? null;
  if (isrc) return `isrc:${isrc}`;
  return `pair:${source?.id ?? ''}|${destination?.id ?? ''}`;
}

/** One side as read: its tracks in order, and which of them the base accounts for. */
class SideRead {
  private readonly used = new Set<number>();
  constructor(readonly tracks: NormalizedTrack[]) {}

  /** Takes the first unused occurrence of a recording: by id or uri first, then by ISRC. */
  take(ref: Pick<SyncSideTrack, 'id' | 'uri' | 'isrc'>): NormalizedTrack | undefined {
    const index = this.find(ref);
    if (index === undefined) return undefined;
    this.used.add(index);
    return this.tracks[index];
  }

  find(ref: Pick<SyncSideTrack, 'id' | 'uri' | 'isrc'>, includeUsed = false): number | undefined {
    const free = (index: number) => includeUsed || !this.used.has(index);
    const byId = this.tracks.findIndex(
      (track, index) => free(index) && (track.id === ref.id || track.uri === ref.uri),
    );
    if (byId >= 0) return byId;
    if (!ref.isrc) return undefined;
    const byIsrc = this.tracks.findIndex(
      (track, index) => free(index) && normalizeIsrc(track.isrc) === ref.isrc,
    );
    return byIsrc >= 0 ? byIsrc : undefined;
  }

  /** The tracks the base did not account for, in playlist order. */
  rest(): { index: number; track: NormalizedTrack }[] {
    return this.tracks.flatMap((track, index) => (this.used.has(index) ? [] : [{ index, track }]));
  }

  markUsed(index: number) {
    this.used.add(index);
  }
}

export interface MergePlan {
  /** Pairs already on both sides after the run (kept, paired up by ISRC, or re-added by a conflict). */
  pairs: TwoWayBaseEntry[];
  /** Recordings on one side only, whose removal could not be applied (or was not asked for): listed. */
  oneSided: TwoWayBaseEntry[];
  /** Removals to apply: the base entry, and the side to remove it from. */
  removals: { entry: TwoWayBaseEntry; from: Side }[];
  /** Conflicts: removed on one side, added again on the other; put back on `onto` (the add wins). */
  conflicts: { entry: TwoWayBaseEntry; onto: Side }[];
  /** Adds on each side not yet on the other, in that side's order, to match. */
  newOnSource: NormalizedTrack[];
  newOnDestination: NormalizedTrack[];
}

type SideTracks = Record<Side, NormalizedTrack[]>;

/** Steps 1 to 3 of the merge (see above); matching and writing are the run's. */
export function planMerge(base: TwoWayBase | null, sides: SideTracks): MergePlan {
  const read: Record<Side, SideRead> = {
    source: new SideRead(sides.source),
    destination: new SideRead(sides.destination),
  };
  const plan: MergePlan = {
    pairs: [],
    oneSided: [],
    removals: [],
    conflicts: [],
    newOnSource: [],
    newOnDestination: [],
  };
  const entries = base?.entries ?? [];
  // Whole pairs first, so a one-sided entry never takes an occurrence a pair needs.
  const ordered = [...entries].sort(
    (a, b) => Number(!(a.source && a.destination)) - Number(!(b.source && b.destination)),
  );
  const brokenPairs: { entry: TwoWayBaseEntry; missing: Side }[] = [];
  for (const entry of ordered) {
    const present: Record<Side, NormalizedTrack | undefined> = {
      source: entry.source ? read.source.take(entry.source) : undefined,
      destination: entry.destination ? read.destination.take(entry.destination) : undefined,
    };
    const refreshed: TwoWayBaseEntry = {
      key: entry.key,
      source: present.source ? sideTrack(present.source) : entry.source,
      destination: present.destination ? sideTrack(present.destination) : entry.destination,
    };
    if (entry.source && entry.destination) {
      if (present.source && present.destination) plan.pairs.push(refreshed);
      else if (present.source) brokenPairs.push({ entry: refreshed, missing: 'destination' });
      else if (present.destination) brokenPairs.push({ entry: refreshed, missing: 'source' });
      continue;
    }
    const side: Side = entry.source ? 'source' : 'destination';
    if (!present[side]) continue; // gone from the one side that held it
    // The other side holds the recording again (added back by the person): the pair is whole.
    const ref = entry[side];
    const again = ref?.isrc ? read[OTHER[side]].take({ id: '', uri: '', isrc: ref.isrc }) : undefined;
    if (again) plan.pairs.push({ ...refreshed, [OTHER[side]]: sideTrack(again) });
    else plan.oneSided.push({ ...refreshed, [OTHER[side]]: null });
  }
  // A broken pair: the side that still has it may hold it more than once now (added again): the add wins.
  for (const { entry, missing } of brokenPairs) {
    const kept = OTHER[missing];
    const ref = entry[kept];
    const addedAgain = ref !== null && read[kept].find(ref) !== undefined;
    if (addedAgain) {
      const index = ref ? read[kept].find(ref) : undefined;
      if (index !== undefined) read[kept].markUsed(index);
      plan.conflicts.push({ entry, onto: missing });
    } else {
      plan.removals.push({ entry: { ...entry, [missing]: null }, from: kept });
    }
  }
  pairNewAdds(read, plan);
  return plan;
}

/** The adds on each side (what the base did not account for); the same ISRC added on both pairs up. */
function pairNewAdds(read: Record<Side, SideRead>, plan: MergePlan) {
  const seen = new Set<string>();
  const restOf = (side: Side) =>
    read[side].rest().filter(({ track }) => {
      // A recording twice on one side is one add: the other side gets it once.
      const key = `${side}:${normalizeIsrc(track.isrc) ?? track.uri}`;
      if (seen.has(key)) return false;
      seen.add(key);
      // A second copy of a recording a pair already holds is not an add either.
      return !plan.pairs.some((pair) => pair[side] && sameRecording(pair[side], track));
    });
  const destinationRest = restOf('destination');
  const pairedDestination = new Set<number>();
  for (const { track } of restOf('source')) {
    const isrc = normalizeIsrc(track.isrc);
    const twin = isrc
      ? destinationRest.find(
          (item) => !pairedDestination.has(item.index) && normalizeIsrc(item.track.isrc) === isrc,
        )
      : undefined;
    if (twin) {
      pairedDestination.add(twin.index);
      const source = sideTrack(track);
      const destination = sideTrack(twin.track);
      plan.pairs.push({ key: baseKey(source, destination), source, destination });
    } else {
      plan.newOnSource.push(track);
    }
  }
  plan.newOnDestination = destinationRest
    .filter((item) => !pairedDestination.has(item.index))
    .map((item) => item.track);
}

export function sameRecording(a: Pick<SyncSideTrack, 'id' | 'uri' | 'isrc'>, b: NormalizedTrack): boolean {
  if (a.id === b.id || a.uri === b.uri) return true;
  const isrc = normalizeIsrc(b.isrc);
  return a.isrc !== null && isrc !== null && a.isrc === isrc;
}

/** The base the next run compares with; one entry per recording (the first wins, pairs before one-sided). */
export function nextBase(entries: TwoWayBaseEntry[], counts: Record<Side, number>): TwoWayBase {
  const seen = new Set<string>();
  const kept: TwoWayBaseEntry[] = [];
  const whole = entries.filter((entry) => entry.source && entry.destination);
  const partial = entries.filter((entry) => !(entry.source && entry.destination));
  for (const entry of [...whole, ...partial]) {
    const refs = [entry.source, entry.destination].flatMap((ref, side) =>
      ref ? [`${side}:${ref.uri}`, ...(ref.isrc ? [`${side}:isrc:${ref.isrc}`] : [])] : [],
    );
    if (refs.some((ref) => seen.has(ref))) continue;
    for (const ref of refs) seen.add(ref);
    kept.push(entry);
  }
  return { entries: kept, sourceCount: counts.source, destinationCount: counts.destination };
}
