import { PermanentJobError, RetryLater } from '../jobs/job-runner';
import { ProviderError } from '../providers/http';
import type { MusicProvider, PlaylistEntry, PlaylistSummary } from '../providers/types';

/**
 * Where a transfer really is in its destination, for a resumed or retried run that must add every track
 * exactly once. Apple shows library writes to reads only after a delay, and a write can be applied even
 * though its answer was a 5xx or never came; Apple also offers no way to remove a track again. So before
 * adding anything after an interruption we read the destination until two reads `writeSettleMs` apart
 * agree (and show at least what was checkpointed), and check that what is there is, by catalog id,
 * the start of what we meant to add.
 */

export interface SettleOptions {
  sleep?: (ms: number) => Promise<void>;
  /** Give up (and requeue) when reads have not settled by then. */
  maxWaitMs?: number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const DEFAULT_MAX_WAIT_MS = 120_000;

/** The entries of a playlist, or undefined while the service does not show the playlist yet. */
async function readEntries(destination: MusicProvider, playlistId: string) {
  try {
    return (await destination.getPlaylist(playlistId)).entries;
  } catch (error) {
    if (error instanceof ProviderError && error.kind === 'not_found') return undefined;
    throw error;
  }
}

/**
 * How many of `uris` are in the destination playlist, once its reads have settled. Fails (for good) when
 * the playlist holds something other than the start of `uris`: adding more would only make it worse.
 */
export async function settledProgress(
  destination: MusicProvider,
  playlistId: string,
  uris: string[],
  checkpointed: number,
  options: SettleOptions = {},
): Promise<number> {
  const settleMs = destination.writeSettleMs ?? 0;
  const sleep = options.sleep ?? defaultSleep;
  const deadline = Date.now() + (options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS);
  let previous: number | undefined;
  for (;;) {
    const entries = await readEntries(destination, playlistId);
    const count = entries?.length ?? -1;
    if (entries) verifyPrefix(entries, uris);
    const settled = settleMs === 0 || count === previous;
    if (entries && count >= checkpointed && settled) return count;
    if (Date.now() > deadline) {
      throw new RetryLater(
        30_000,
        `${destination.service === 'apple' ? 'Apple Music' : 'Spotify'} has not yet shown the tracks added so far.`,
        true,
      );
    }
    previous = count;
    await sleep(Math.max(settleMs, 500));
  }
}

/** The destination must hold the first entries of `uris`, in order; skipped entries cannot be compared. */
function verifyPrefix(entries: PlaylistEntry[], uris: string[]) {
  if (entries.length > uris.length) {
    throw new PermanentJobError(
      `The destination playlist holds ${entries.length} tracks, more than the ${uris.length} this transfer adds; it was changed elsewhere, so Crossfade stopped rather than add to it.`,
    );
  }
  entries.forEach((entry, index) => {
    if (entry.kind !== 'track') return;
    const expected = uris[index];
    if (entry.track.uri !== expected && entry.track.id !== expected) {
      throw new PermanentJobError(
        `The destination playlist differs from this transfer at track ${index + 1}; it was changed elsewhere, so Crossfade stopped rather than add to it.`,
      );
    }
  });
}

/**
 * The playlist an interrupted run created, found by the marker in its description. A creation whose answer
 * was lost may show up only after the service's write delay, so an absent playlist is looked for once
 * more after `writeSettleMs` before the caller creates another.
 */
export async function findMarkedPlaylist(
  destination: MusicProvider,
  marker: string,
  options: SettleOptions = {},
): Promise<PlaylistSummary | undefined> {
  const find = async () =>
    (await destination.listPlaylists()).find((playlist) => playlist.description?.includes(marker));
  const first = await find();
  const settleMs = destination.writeSettleMs ?? 0;
  if (first || settleMs === 0) return first;
  await (options.sleep ?? defaultSleep)(settleMs);
  return find();
}

/** A failure after which a write may or may not have been applied: reconcile, then go on. */
export const isUncertainWriteFailure = (error: unknown) =>
  error instanceof ProviderError && error.kind === 'unavailable';

/** How many uncertain answers in a row a write is sent again after. */
const MAX_UNCERTAIN_RETRIES = 5;

/**
 * Sends a write again after an answer that leaves it unknown whether it was applied, up to
 * MAX_UNCERTAIN_RETRIES times; any other failure is thrown. For writes that change nothing when repeated,
 * or whose `reconcile` (run after each uncertain answer) narrows what the next attempt sends.
 */
export async function retryUncertainWrite(
  write: () => Promise<void>,
  reconcile?: () => Promise<void>,
): Promise<void> {
  for (let uncertain = 0; ; ) {
    try {
      await write();
      return;
    } catch (error) {
      if (!isUncertainWriteFailure(error) || ++uncertain > MAX_UNCERTAIN_RETRIES) throw error;
      await reconcile?.();
    }
  }
}
