import { z } from 'zod';
import { albumCollectionId, LIKED_SONGS_ID } from '../../shared/library-ids';
import type { ServiceId } from '../../shared/services';
import type { StoredAlbumMatch } from '../db/stored-json';
import type { JobContext } from '../jobs/job-runner';
import type { AlbumInfo } from '../matching/albums';
import type { MusicProvider, NormalizedTrack } from '../providers/types';
import { type EmulatorPages, likedSongsUrl } from '../service-urls/open-urls';
import { isUncertainWriteFailure, retryUncertainWrite } from './destination-progress';
import type { MatchRowRecord } from './match-rows';
import {
  type ExpectedTrack,
  likedSongsTarget,
  type VerificationResult,
  type VerifyOptions,
  verifyDestination,
  verifySavedAlbum,
} from './verify-destination';

/**
 * The transfer of a library collection (issue 14): Liked Songs are saved as liked / favourite songs; a
 * saved album is saved as the matched destination album, and tracks not on it (or all of them, when no
 * album matched) are saved one by one. Both writes are idempotent on the services (liking a liked song or
 * saving a saved album changes nothing), so a resumed run goes on from its last checkpointed batch and a
 * batch sent twice after a crash adds nothing twice: exactly once, as playlist adds.
 */

export const libraryJobStateSchema = z.object({
  /** Tracks saved one by one so far (checkpointed after each batch). */
  saved: z.number().int().nonnegative().exactOptional(),
  /** The matched album was saved. */
  albumSaved: z.literal(true).exactOptional(),
  /** Every library write is done; a resumed run goes on to the playlist, if any, and the read-back. */
  librarySaved: z.literal(true).exactOptional(),
});
export type LibraryJobState = z.infer<typeof libraryJobStateSchema>;

type Selected = { row: MatchRowRecord; track: NormalizedTrack };

export interface LibraryPlan {
  kind: 'liked' | 'album';
  /** The destination album saved whole; null for Liked Songs and albums with no album match. */
  album: AlbumInfo | null;
  /** Selected rows whose track is on that album. */
  albumItems: Selected[];
  /** Selected rows saved one by one. */
  trackItems: Selected[];
}

export function libraryPlan(
  kind: 'liked' | 'album',
  stored: StoredAlbumMatch | null,
  selected: Selected[],
): LibraryPlan {
  const match = kind === 'album' ? stored?.match : null;
  if (!match || !stored) return { kind, album: null, albumItems: [], trackItems: selected };
  const onAlbum = new Set(stored.destinationTracks.map((track) => track.id));
  const chosen = new Set(selected.map((item) => item.track.id));
  // Saving an album saves every track on it: only when the person chose every one of them. A track of the
  // album they skipped (or one the source lacks) would be written without their choice, so then the
  // chosen tracks are saved one by one instead.
  if (stored.destinationTracks.length === 0 || [...onAlbum].some((id) => !chosen.has(id))) {
    return { kind, album: null, albumItems: [], trackItems: selected };
  }
  const albumItems = selected.filter((item) => onAlbum.has(item.track.id));
  return {
    kind,
    album: match.album,
    albumItems,
    trackItems: selected.filter((item) => !onAlbum.has(item.track.id)),
  };
}

const MAX_UNCERTAIN_WRITES = 5;

/** Saves the album and the tracks, with a checkpoint after each batch; returns the state to go on with. */
export async function saveToLibrary<S extends LibraryJobState & { added: number }>(
  destination: MusicProvider,
  plan: LibraryPlan,
  state: S | undefined,
  context: JobContext,
  total: number,
): Promise<S> {
  let current = { ...state, added: state?.added ?? 0 } as S;
  if (current.librarySaved) return current;
  const progress = (done: number) => ({ done, total, phase: 'saving' });
  const album = plan.album;
  if (album && !current.albumSaved) {
    await context.holdLease();
    await retryUncertainWrite(() => destination.saveAlbums([album.id]));
    current = { ...current, albumSaved: true };
    await context.checkpoint(current, progress(plan.albumItems.length));
  }
  // A liked song is liked once: two source songs matched to one destination track save it once.
  const uris = [...new Set(plan.trackItems.map((item) => item.track.uri))];
  let saved = current.saved ?? 0;
  for (let uncertain = 0; saved < uris.length; ) {
    const from = saved;
    try {
      await destination.saveTracks(
        uris.slice(from),
        async (batch) => {
          saved = from + batch.added;
          uncertain = 0;
          current = { ...current, saved };
          await context.checkpoint(current, progress(plan.albumItems.length + saved));
        },
        context.holdLease,
      );
      saved = uris.length;
    } catch (error) {
      // Saving again what may have been saved changes nothing: go on from the last confirmed batch.
      if (!isUncertainWriteFailure(error) || ++uncertain > MAX_UNCERTAIN_WRITES) throw error;
    }
  }
  current = { ...current, saved, librarySaved: true };
  await context.checkpoint(current, progress(total));
  return current;
}

const expectedOf = (items: Selected[]): ExpectedTrack[] =>
  items.map((item) => ({ position: item.row.position, track: item.track }));

/** Each destination track once (the library holds a song once, however many source songs chose it). */
const onceEach = (items: ExpectedTrack[]): ExpectedTrack[] => {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.track.uri) && Boolean(seen.add(item.track.uri)));
};

/** Reads the library back: the saved album in the library's albums, the saved tracks among the liked. */
export async function verifyLibrary(
  destination: MusicProvider,
  plan: LibraryPlan,
  options: VerifyOptions = {},
): Promise<VerificationResult> {
  const results: VerificationResult[] = [];
  if (plan.album)
    results.push(await verifySavedAlbum(destination, plan.album, expectedOf(plan.albumItems), options));
  if (plan.trackItems.length > 0)
    results.push(
      await verifyDestination(
        destination,
        likedSongsTarget(destination),
        onceEach(expectedOf(plan.trackItems)),
        options,
      ),
    );
  return combineVerifications(plan.albumItems.length + plan.trackItems.length, results);
}

/**
 * Several read-backs of one transfer's tracks (the library and the "also a playlist"): a track counts as
 * verified when no read-back misses it.
 */
export function combineVerifications(count: number, results: VerificationResult[]): VerificationResult {
  const missing = new Map<number, VerificationResult['missing'][number]>();
  for (const result of results)
    for (const item of result.missing) if (!missing.has(item.position)) missing.set(item.position, item);
  return {
    verified: count - missing.size,
    readded: results.reduce((sum, result) => sum + result.readded, 0),
    missing: [...missing.values()].sort((a, b) => a.position - b.position),
  };
}

/**
 * Where the result's "open" link points for a collection saved without a playlist: the album's page, or
 * the person's Liked Songs / Favourite Songs page (the emulator's in sandbox mode).
 */
export function libraryDestination(service: ServiceId, plan: LibraryPlan, pages: EmulatorPages) {
  if (plan.album)
    return { destinationPlaylistId: albumCollectionId(plan.album.id), destinationUrl: plan.album.url ?? '' };
  return { destinationPlaylistId: LIKED_SONGS_ID, destinationUrl: likedSongsUrl(service, pages) };
}
