import { BRIDGE_TRACK_PREFIX, type MergeSource } from '../../shared/api/merge';
import { prepareTrack } from '../matching';
import type { NormalizedTrack } from '../providers/types';

/**
 * Friend merge without I/O: which tracks of each side go in, in what order, and how much the two tastes
 * overlap. Searching for bridge candidates and writing the result happen in merge-service.ts.
 */

/** Longest merged playlist; beyond it a "mix" is just both playlists concatenated. */
export const MAX_MERGED_TRACKS = 100;
/** Bridge tracks: about one in ten of the merged tracks, at least one, at most this many. */
export const MAX_BRIDGE_TRACKS = 5;

export interface MergeSide {
  name: string;
  owner: string;
  tracks: NormalizedTrack[];
}

export interface MergedEntry {
  /** The id shown to people: the service id, or `bt-<id>` for bridge tracks. */
  id: string;
  track: NormalizedTrack;
  source: MergeSource;
  /** Which side's track object this is (shared songs use yours); mirrors `source`. */
  side: MergeSource;
}

export interface TasteOverlap {
  sharedArtists: string[];
  sharedGenres: string[];
  yourTopGenres: string[];
  friendTopGenres: string[];
  /** Songs both playlists contain (same ISRC or same normalized title and primary artist). */
  overlapTrackCount: number;
}

export interface MergeResult {
  entries: MergedEntry[];
  counts: { you: number; friend: number; shared: number; bridge: number };
  overlap: TasteOverlap;
}

export interface MergeInput {
  you: NormalizedTrack[];
  friend: NormalizedTrack[];
  /** Percent from you and from your friend. */
  mixRatio: readonly [number, number];
  includeBridgeTracks: boolean;
  /** Catalog tracks where the tastes meet (see bridgeQueries); used only with includeBridgeTracks. */
  bridgeCandidates?: NormalizedTrack[];
  maxTracks?: number;
}

/** Keys under which two tracks count as the same song: the ISRC, and normalized title + primary artist. */
export function songKeys(track: NormalizedTrack): string[] {
  const prepared = prepareTrack(track);
  const keys = [`song:${prepared.titleKey}\u0000${prepared.primaryArtistKey}`];
  if (prepared.isrc) keys.push(`isrc:${prepared.isrc}`);
  return keys;
}

class SongSet {
  private readonly keys = new Set<string>();
  has(track: NormalizedTrack): boolean {
    return songKeys(track).some((key) => this.keys.has(key));
  }
  add(track: NormalizedTrack): void {
    for (const key of songKeys(track)) this.keys.add(key);
  }
}

function distinct(tracks: readonly NormalizedTrack[]): NormalizedTrack[] {
  const seen = new SongSet();
  const out: NormalizedTrack[] = [];
  for (const track of tracks) {
    if (seen.has(track)) continue;
    seen.add(track);
    out.push(track);
  }
  return out;
}

/** Names counted case-insensitively, most frequent first, ties in first-seen order. */
function ranked(values: readonly string[]): Map<string, { label: string; count: number }> {
  const counts = new Map<string, { label: string; count: number }>();
  for (const value of values) {
    const key = value.trim().toLowerCase();
    if (key === '') continue;
    const entry = counts.get(key);
    if (entry) entry.count += 1;
    else counts.set(key, { label: value.trim(), count: 1 });
  }
  return new Map([...counts].sort((a, b) => b[1].count - a[1].count));
}

const primaryArtists = (tracks: readonly NormalizedTrack[]) =>
  tracks.map((track) => prepareTrack(track).primaryArtist);

export function tasteOverlap(
  you: readonly NormalizedTrack[],
  friend: readonly NormalizedTrack[],
): TasteOverlap {
  const yourArtists = ranked(you.flatMap((track) => prepareTrack(track).artists));
  const friendArtists = ranked(friend.flatMap((track) => prepareTrack(track).artists));
  const yourGenres = ranked(you.flatMap((track) => track.genres ?? []));
  const friendGenres = ranked(friend.flatMap((track) => track.genres ?? []));
  const yourSongs = new SongSet();
  for (const track of you) yourSongs.add(track);
  return {
    sharedArtists: [...yourArtists].filter(([key]) => friendArtists.has(key)).map(([, v]) => v.label),
    sharedGenres: [...yourGenres].filter(([key]) => friendGenres.has(key)).map(([, v]) => v.label),
    yourTopGenres: [...yourGenres.values()].slice(0, 5).map((v) => v.label),
    friendTopGenres: [...friendGenres.values()].slice(0, 5).map((v) => v.label),
    overlapTrackCount: distinct(friend).filter((track) => yourSongs.has(track)).length,
  };
}

/**
 * What to search the catalog for to find bridge tracks: artists both like first, then shared genres; with
 * no common ground, each side's most played artist so the bridge leans toward the other's taste.
 */
export function bridgeQueries(
  you: readonly NormalizedTrack[],
  friend: readonly NormalizedTrack[],
  limit = 4,
) {
  const overlap = tasteOverlap(you, friend);
  const queries: { artist?: string; text?: string }[] = [
    ...overlap.sharedArtists.map((artist) => ({ artist })),
    ...overlap.sharedGenres.map((genre) => ({ text: genre })),
  ];
  if (queries.length === 0) {
    const yourTop = [...ranked(primaryArtists(you)).values()][0]?.label;
    const friendTop = [...ranked(primaryArtists(friend)).values()][0]?.label;
    if (yourTop) queries.push({ artist: yourTop });
    if (friendTop) queries.push({ artist: friendTop });
  }
  return queries.slice(0, limit);
}

/** The largest total whose split by the ratio fits what each side has. */
function quotas(yourAvailable: number, friendAvailable: number, yourPercent: number, max: number) {
  for (let total = Math.min(max, yourAvailable + friendAvailable); total > 0; total -= 1) {
    const you = Math.round((total * yourPercent) / 100);
    const friend = total - you;
    if (you <= yourAvailable && friend <= friendAvailable) return { you, friend };
  }
  return { you: 0, friend: 0 };
}

/** Fair interleaving: each next slot goes to the side furthest behind its share of the list so far. */
function interleave<T>(a: readonly T[], b: readonly T[]): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  const total = a.length + b.length;
  while (i < a.length || j < b.length) {
    const position = out.length + 1;
    const aBehind = (a.length * position) / total - i;
    const bBehind = (b.length * position) / total - j;
    const item = (aBehind >= bBehind && i < a.length) || j >= b.length ? a[i++] : b[j++];
    if (item !== undefined) out.push(item);
  }
  return out;
}

export function mergePlaylists(input: MergeInput): MergeResult {
  const [yourPercent] = input.mixRatio;
  const you = distinct(input.you);
  const friend = distinct(input.friend);
  // Keys of every input track, duplicates included: a duplicate may carry a key its kept twin lacks.
  const yourSongs = new SongSet();
  for (const track of input.you) yourSongs.add(track);
  const friendSongs = new SongSet();
  for (const track of input.friend) friendSongs.add(track);
  const max = input.maxTracks ?? MAX_MERGED_TRACKS;

  // A song both people have belongs to both of them: it goes in first (in your order), and the mix ratio
  // splits the remaining slots between the songs only one of you has. Counting a shared song against one
  // side's quota would starve the other side and shrink the whole merge to a handful of tracks.
  const shared = you.filter((track) => friendSongs.has(track)).slice(0, max);
  const yourOnly = you.filter((track) => !friendSongs.has(track));
  const friendOnly = friend.filter((track) => !yourSongs.has(track));
  const quota = quotas(yourOnly.length, friendOnly.length, yourPercent, max - shared.length);

  const label = (track: NormalizedTrack, source: MergeSource): MergedEntry => ({
    id: track.id,
    track,
    side: source,
    source,
  });
  const exclusive = interleave(
    yourOnly.slice(0, quota.you).map((t) => label(t, 'you')),
    friendOnly.slice(0, quota.friend).map((t) => label(t, 'friend')),
  );
  // The shared songs are spread through the list too, so the mix does not open with a block of them.
  const mixed = interleave(
    shared.map((t) => label(t, 'both')),
    exclusive,
  );

  const bridges: MergedEntry[] = [];
  if (input.includeBridgeTracks && mixed.length > 0) {
    const wanted = Math.min(MAX_BRIDGE_TRACKS, Math.max(1, Math.round(mixed.length / 10)));
    // Bridges must be new to both people: nothing either playlist already has.
    const taken = new SongSet();
    for (const track of [...input.you, ...input.friend]) taken.add(track);
    for (const candidate of input.bridgeCandidates ?? []) {
      if (bridges.length >= wanted) break;
      if (taken.has(candidate)) continue;
      taken.add(candidate);
      bridges.push({
        id: `${BRIDGE_TRACK_PREFIX}${candidate.id}`,
        track: candidate,
        side: 'bridge',
        source: 'bridge',
      });
    }
  }

  const entries = spreadBridges(mixed, bridges);
  return {
    entries,
    counts: { you: quota.you, friend: quota.friend, shared: shared.length, bridge: bridges.length },
    // The insight states the merged list's own numbers, so the overlap counts the songs on the page.
    overlap: { ...tasteOverlap(input.you, input.friend), overlapTrackCount: shared.length },
  };
}

/** Bridges sit between the two sides' runs, spread evenly through the list rather than bunched at the end. */
function spreadBridges(mixed: readonly MergedEntry[], bridges: readonly MergedEntry[]): MergedEntry[] {
  if (bridges.length === 0) return [...mixed];
  const out: MergedEntry[] = [];
  const gap = mixed.length / (bridges.length + 1);
  let next = 0;
  mixed.forEach((entry, index) => {
    out.push(entry);
    while (next < bridges.length && index + 1 >= Math.round(gap * (next + 1))) {
      const bridge = bridges[next++];
      if (bridge) out.push(bridge);
    }
  });
  for (; next < bridges.length; next++) {
    const bridge = bridges[next];
    if (bridge) out.push(bridge);
  }
  return out;
}
