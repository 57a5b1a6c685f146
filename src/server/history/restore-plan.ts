import type { RestorePlan } from '../../shared/api/history';
import { SERVICE_LABELS, type ServiceId } from '../../shared/services';
import type { Database } from '../db/client';
import { notFound } from '../domain-errors';
import type { MusicProvider, PlaylistContents } from '../providers/types';
import type { StoredTrack } from './history-codec';
import { findHistoryById, findVersion, type VersionSummaryRow } from './history-store';
import { readVersionTracks } from './playlist-history';

/**
 * What a restore or an undo writes (decision 0030). A restore puts a playlist back to one version; an
 * undo takes back exactly what one version's writer (a transfer, a sync run) changed, keeping whatever
 * else happened since. Spotify is written in place, order included; Apple Music playlists can neither lose
 * tracks nor be reordered, so there the result goes into a new playlist, named and described as such.
 */
export type RestoreMode = 'restore' | 'undo';

export interface RestoreTarget {
  userId: string;
  versionId: string;
  mode: RestoreMode;
}

export interface PlannedRestore {
  plan: RestorePlan;
  service: ServiceId;
  playlistId: string;
  name: string;
  /** The tracks the playlist holds afterwards, in order. */
  target: StoredTrack[];
}

/** Tracks that can be added again (not the names of songs the service no longer knew). */
const addable = (tracks: StoredTrack[]) => tracks.filter((track) => !track.uri.startsWith('unavailable:'));

export function currentTracks(contents: PlaylistContents): StoredTrack[] {
  return contents.entries.flatMap((entry) => {
    if (entry.kind !== 'track') return [];
    const { id, uri, name, artists, album, isrc, durationMs } = entry.track;
    return [{ id, uri, name, artists, album, ...(isrc ? { isrc } : {}), durationMs }];
  });
}

/** `from` without the tracks of `minus`, by URI, counting repeats (the first occurrences go). */
function tracksMinus(from: StoredTrack[], minus: StoredTrack[]): StoredTrack[] {
  const counts = new Map<string, number>();
  for (const track of minus) counts.set(track.uri, (counts.get(track.uri) ?? 0) + 1);
  return from.filter((track) => {
    const left = counts.get(track.uri) ?? 0;
    if (left === 0) return true;
    counts.set(track.uri, left - 1);
    return false;
  });
}

/** The playlist with one version's changes taken back: its adds removed, its removals put back in place. */
function undoneTracks(current: StoredTrack[], before: StoredTrack[], after: StoredTrack[]): StoredTrack[] {
  const same = (a: StoredTrack[], b: StoredTrack[]) =>
    a.length === b.length && a.every((track, index) => track.uri === b[index]?.uri);
  // Nothing happened since: exactly the version before, order included.
  if (same(current, after)) return before;
  const added = tracksMinus(after, before);
  const removed = tracksMinus(before, after);
  const result = tracksMinus(current, added);
  for (const track of removed) {
    const at = before.findIndex((candidate) => candidate.uri === track.uri);
    result.splice(Math.min(Math.max(at, 0), result.length), 0, track);
  }
  return result;
}

export async function findOwnVersion(db: Database, userId: string, versionId: string) {
  const version = await findVersion(db, userId, versionId);
  const history = version ? await findHistoryById(db, version.historyId) : undefined;
  if (!version || !history) throw notFound('That version does not exist (any more).');
  return { version, history };
}

async function targetOf(
  db: Database,
  mode: RestoreMode,
  version: VersionSummaryRow,
  current: StoredTrack[],
): Promise<StoredTrack[]> {
  const after = (await readVersionTracks(db, version)).tracks;
  if (mode === 'restore') return after;
  const before =
    version.seq > 1
      ? (await readVersionTracks(db, { historyId: version.historyId, seq: version.seq - 1 })).tracks
      : [];
  return undoneTracks(current, before, after);
}

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** Plans a restore or an undo against the playlist as it is now (`contents`, read by the caller). */
export async function planRestore(
  db: Database,
  input: RestoreTarget & { version: VersionSummaryRow; name: string; service: ServiceId; playlistId: string },
  provider: Pick<MusicProvider, 'appendOnly'>,
  contents: PlaylistContents,
): Promise<PlannedRestore> {
  const current = currentTracks(contents);
  const target = addable(await targetOf(db, input.mode, input.version, current));
  const inPlace = !provider.appendOnly;
  const label = SERVICE_LABELS[input.service];
  const toHistoryTrack = ({ id, uri, name, artists, album }: StoredTrack) => ({
    id,
    uri,
    name,
    artists,
    album,
  });
  return {
    service: input.service,
    playlistId: input.playlistId,
    name: input.name,
    target,
    plan: {
      service: input.service,
      playlistId: input.playlistId,
      trackCount: target.length,
      added: tracksMinus(target, inPlace ? current : []).map(toHistoryTrack),
      removed: inPlace ? tracksMinus(current, target).map(toHistoryTrack) : [],
      newPlaylistName: inPlace ? null : `${input.name} (restored ${dayOf(input.version.createdAt)})`,
      why: inPlace
        ? null
        : `${label} playlists cannot lose tracks or be reordered, so Crossfade puts the ${input.mode === 'undo' ? 'undone' : 'restored'} playlist into a new one and leaves the original as it is.`,
    },
  };
}
