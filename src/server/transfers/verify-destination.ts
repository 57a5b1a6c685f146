import { LIKED_SONGS_ID } from '../../shared/library-ids';
import { SERVICE_LABELS } from '../../shared/services';
import type { VerificationMissing } from '../db/stored-json';
import { albumTitleKey, normalizeUpc, sameArtist } from '../matching/albums';
import { ProviderError } from '../providers/http';
import type { MusicProvider, NormalizedTrack, PlaylistEntry } from '../providers/types';
import { retryUncertainWrite } from './destination-progress';

/**
 * Verify every write (issue 14, item 5): after a transfer's adds, the destination playlist is read back
 * and compared, recording by recording, with what should be there. What is missing is added once more,
 * then read back again; whatever is still missing is reported with why.
 *
 * Exactly once, also across a crash or a requeue in the middle: a track is only called missing on a read
 * taken `writeSettleMs` after our last write (Apple shows library writes late), so a re-add whose answer
 * was lost is seen on the next read and never sent twice. A read that shows everything needs no wait
 * (we are the playlist's only writer, and reads lag, they never show more than was written).
 */

export interface ExpectedTrack {
  position: number;
  track: NormalizedTrack;
}

export interface VerificationResult {
  verified: number;
  missing: VerificationMissing[];
  readded: number;
}

export interface VerifyOptions {
  sleep?: (ms: number) => Promise<void>;
  onPhase?: (phase: 'verifying' | 're-adding') => void | Promise<void>;
  /** Runs before each re-add batch is sent (the job renews its lease: see JobContext.holdLease). */
  beforeWrite?: () => Promise<void>;
  /** Hears every read of the destination; the last is what it holds afterwards (the playlist's history). */
  onRead?: (entries: PlaylistEntry[]) => void;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/**
 * The expected tracks the entries do not hold, in source order; each entry counts for one expected track.
 * Compared by recording, in passes from the surest to the loosest, so a looser key never takes an entry
 * a surer one needs: the track's id or URI; then its ISRC (a service may read a song back under another
 * id of the same recording, as Apple does with a storefront's equivalent); then, for entries read back
 * without their catalog link (Apple does so for a song outside the person's storefront), name and first
 * artist. Re-adding a track that is there under another id would write it twice.
 */
export function missingFrom(entries: PlaylistEntry[], expected: ExpectedTrack[]): ExpectedTrack[] {
  const used = new Set<number>();
  const pass = (
    remaining: ExpectedTrack[],
    entryKeys: (entry: PlaylistEntry) => (string | undefined)[],
    itemKeys: (item: ExpectedTrack) => (string | undefined)[],
  ): ExpectedTrack[] => {
    const byKey = new Map<string, number[]>();
    entries.forEach((entry, index) => {
      for (const key of new Set(entryKeys(entry))) {
        if (!key) continue;
        byKey.set(key, [...(byKey.get(key) ?? []), index]);
      }
    });
    return remaining.filter((item) => {
      for (const key of itemKeys(item)) {
        const index = key ? byKey.get(key)?.find((candidate) => !used.has(candidate)) : undefined;
        if (index !== undefined) {
          used.add(index);
          return false;
        }
      }
      return true;
    });
  };
  const byId = pass(
    expected,
    (entry) => (entry.kind === 'track' ? [entry.track.uri, entry.track.id] : []),
    (item) => [item.track.uri, item.track.id],
  );
  const byRecording = pass(
    byId,
    (entry) => (entry.kind === 'track' ? [isrcKey(entry.track.isrc)] : []),
    (item) => [isrcKey(item.track.isrc)],
  );
  return pass(
    byRecording,
    (entry) => (entry.kind === 'skipped' && entry.name ? [nameKey(entry.name, entry.artists ?? [])] : []),
    (item) => [nameKey(item.track.name, item.track.artists)],
  );
}

const isrcKey = (isrc: string | undefined) => (isrc ? isrc.trim().toUpperCase() : undefined);
const nameKey = (name: string, artists: readonly string[]) =>
  `${name.trim().toLowerCase()}\u0000${(artists[0] ?? '').trim().toLowerCase()}`;

async function readEntries(destination: MusicProvider, playlistId: string): Promise<PlaylistEntry[]> {
  try {
    // The entries alone where the playlist's details are a call of their own: verifying needs no name.
    if (destination.getPlaylistEntries) return await destination.getPlaylistEntries(playlistId);
    return (await destination.getPlaylist(playlistId)).entries;
  } catch (error) {
    // A playlist created moments ago may not show yet on Apple: nothing is there as far as reads go.
    if (error instanceof ProviderError && error.kind === 'not_found') return [];
    throw error;
  }
}

/**
 * Where a transfer wrote: a playlist, or a library collection (issue 14). `read` answers what it holds
 * now, `write` sends the missing tracks once more.
 */
export interface VerifyTarget {
  read(): Promise<PlaylistEntry[]>;
  write(uris: string[], beforeWrite?: () => Promise<void>): Promise<void>;
  /** Why a track still missing after one more write is missing: "Spotify does not show this track, …". */
  missingReason: string;
}

export function playlistTarget(destination: MusicProvider, playlistId: string): VerifyTarget {
  return {
    read: () => readEntries(destination, playlistId),
    write: (uris, beforeWrite) => destination.addTracks(playlistId, uris, undefined, beforeWrite),
    missingReason: `${SERVICE_LABELS[destination.service]} does not show this track, though it was added and then added once more.`,
  };
}

/** The destination's Liked Songs / favourite songs: what `saveTracks` writes to. */
export function likedSongsTarget(destination: MusicProvider): VerifyTarget {
  return {
    read: async () => (await destination.getPlaylist(LIKED_SONGS_ID)).entries,
    write: (uris, beforeWrite) => destination.saveTracks(uris, undefined, beforeWrite),
    missingReason: `${SERVICE_LABELS[destination.service]} does not show this song among your ${destination.service === 'spotify' ? 'Liked Songs' : 'favourite songs'}, though it was saved and then saved once more.`,
  };
}

/** What is missing, on a read the service's write delay lets us trust. */
async function settledMissing(
  destination: MusicProvider,
  target: VerifyTarget,
  expected: ExpectedTrack[],
  sleep: (ms: number) => Promise<void>,
  onRead?: (entries: PlaylistEntry[]) => void,
): Promise<ExpectedTrack[]> {
  const read = async () => {
    const entries = await target.read();
    onRead?.(entries);
    return entries;
  };
  const missing = missingFrom(await read(), expected);
  const settleMs = destination.writeSettleMs ?? 0;
  if (missing.length === 0 || settleMs === 0) return missing;
  await sleep(settleMs);
  return missingFrom(await read(), expected);
}

export async function verifyDestination(
  destination: MusicProvider,
  playlistIdOrTarget: string | VerifyTarget,
  expected: ExpectedTrack[],
  options: VerifyOptions = {},
): Promise<VerificationResult> {
  const target =
    typeof playlistIdOrTarget === 'string'
      ? playlistTarget(destination, playlistIdOrTarget)
      : playlistIdOrTarget;
  const sleep = options.sleep ?? defaultSleep;
  await options.onPhase?.('verifying');
  let missing = await settledMissing(destination, target, expected, sleep, options.onRead);
  let readded = 0;
  if (missing.length > 0) {
    await options.onPhase?.('re-adding');
    readded = missing.length;
    await retryUncertainWrite(
      async () => {
        if (missing.length === 0) return;
        await target.write(
          missing.map((item) => item.track.uri),
          options.beforeWrite,
        );
      },
      // Maybe applied: only what a settled read still lacks is sent again.
      async () => {
        missing = await settledMissing(destination, target, missing, sleep, options.onRead);
      },
    );
    await options.onPhase?.('verifying');
    missing = await settledMissing(destination, target, expected, sleep, options.onRead);
  }
  return {
    verified: expected.length - missing.length,
    readded,
    missing: missing.map((item) => ({
      position: item.position,
      name: item.track.name,
      artists: item.track.artists,
      reason: target.missingReason,
    })),
  };
}

/**
 * A saved album (issue 14): the destination library lists it (by id, else UPC, else title and artist), or
 * it is saved once more and looked for again. Every expected track counts as verified or as missing with
 * the album.
 */
export async function verifySavedAlbum(
  destination: MusicProvider,
  album: { id: string; name: string; artists: string[]; upc?: string },
  expected: ExpectedTrack[],
  options: VerifyOptions = {},
): Promise<VerificationResult> {
  const sleep = options.sleep ?? defaultSleep;
  const upc = normalizeUpc(album.upc);
  const titleKey = albumTitleKey(album.name);
  const listed = async () =>
    (await destination.listLibrary()).albums.some(
      ({ album: saved }) =>
        saved.id === album.id ||
        (upc !== null && normalizeUpc(saved.upc) === upc) ||
        (albumTitleKey(saved.name) === titleKey && sameArtist(saved.artists, album.artists)),
    );
  const settledListed = async () => {
    if (await listed()) return true;
    const settleMs = destination.writeSettleMs ?? 0;
    if (settleMs === 0) return false;
    await sleep(settleMs);
    return listed();
  };
  await options.onPhase?.('verifying');
  let found = await settledListed();
  let readded = 0;
  if (!found) {
    await options.onPhase?.('re-adding');
    readded = expected.length;
    await options.beforeWrite?.();
    // Saving an album twice leaves it saved once: no need to reconcile an uncertain answer first.
    await retryUncertainWrite(() => destination.saveAlbums([album.id]));
    await options.onPhase?.('verifying');
    found = await settledListed();
  }
  const service = SERVICE_LABELS[destination.service];
  return {
    verified: found ? expected.length : 0,
    readded,
    missing: found
      ? []
      : expected.map((item) => ({
          position: item.position,
          name: item.track.name,
          artists: item.track.artists,
          reason: `${service} does not list the album “${album.name}” in your library, though it was saved and then saved once more.`,
        })),
  };
}
