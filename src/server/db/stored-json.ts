import type { AlbumInfo, AlbumMatch } from '../matching/albums';
import type { NormalizedTrack } from '../providers/types';

/**
 * Shapes of the `jsonb` columns the server writes and reads back as they are (the schema types those
 * columns with them, so no reader casts). Columns that may hold rows of older versions are parsed with
 * zod where they are read instead (backup contents, merge sources).
 */

/** A candidate of a match row as stored: the destination track and why it was scored so. */
export interface StoredCandidate {
  track: NormalizedTrack;
  confidence: number;
  reasons: string[];
  versionLabels: string[];
  sameVersion: boolean;
}

/** A background job's progress as the person sees it. */
export interface JobProgress {
  done: number;
  total: number;
  phase: string;
  message?: string;
  /** ISO time until which the job waits for a service's rate limit. */
  waitingUntil?: string;
  /** When the phase under way began in this run, and `done` then (stamped by the job runner). */
  phaseStartedAt?: string;
  phaseStartDone?: number;
}

/** One playlist of a batch: its match set, and its transfer once the transfer phase has begun. */
export interface BatchItemRecord {
  sourcePlaylistId: string;
  matchSetId: string;
  transferId: string | null;
  /** Why this playlist could not be matched or moved, when its own job gave up on it. */
  error?: string;
}

/** A track a transfer's read-back still did not find in the destination, and why. */
export type { VerificationMissing } from '../../shared/api/transfer';
/** A catalog lookup kept in `match_cache.value`: the tracks found and when. */
export type { CachedLookup } from '../matching/cache';

/** A recording a sync put in (or found in) its destination, keyed by its source recording. */
export interface SyncedRecording {
  /** The source track's recording key (`isrc:…` or folded title and artists, as match rules key it). */
  sourceKey: string;
  destinationId: string;
  destinationUri: string;
  isrc: string | null;
  name: string;
  artists: string[];
}

export type { SyncTrack as SyncTrackRecord } from '../../shared/api/syncs';

/** One side's copy of a recording in a two-way sync (decision 0024): enough to find, remove or add it again. */
export interface SyncSideTrack {
  id: string;
  uri: string;
  isrc: string | null;
  name: string;
  artists: string[];
}

/**
 * A recording in a two-way sync's base state (decision 0024), keyed by recording: `isrc:<ISRC>` when either
 * side knows one, else `pair:<source id>|<destination id>` (the matched pair), never a destination id alone.
 * A side is null when the recording is not on that side (a removal that could not be applied is listed).
 */
export interface TwoWayBaseEntry {
  key: string;
  source: SyncSideTrack | null;
  destination: SyncSideTrack | null;
}

/** What the last successful two-way run left: the recordings, and how many tracks it read on each side. */
export interface TwoWayBase {
  entries: TwoWayBaseEntry[];
  sourceCount: number;
  destinationCount: number;
}

/**
 * Exactly what one two-way run wrote on each side (decision 0024), so that an undo can take it back:
 * the playlist written, and the tracks added and removed there. `rebuiltFrom` names the Apple playlist a
 * rebuild replaced (the new one is `playlistId`).
 */
export interface SyncSideWrites {
  service: 'spotify' | 'apple';
  playlistId: string | null;
  added: SyncSideTrack[];
  removed: SyncSideTrack[];
  rebuiltFrom?: string | undefined;
}
export interface SyncRunWrites {
  source: SyncSideWrites;
  destination: SyncSideWrites;
}

/**
 * A saved album's match (issue 14): the source album, the destination album found for it (null: none,
 * its tracks were matched one by one) and that album's tracks, read once when matching.
 */
export interface StoredAlbumMatch {
  source: AlbumInfo;
  match: AlbumMatch | null;
  destinationTracks: NormalizedTrack[];
}

/** Where a transfer of a library collection put things (issue 14), for the result and the history. */
export interface LibrarySaveRecord {
  kind: 'liked' | 'album';
  /** For people: "Saved to your Liked Songs on Spotify", "Saved to your Apple Music library as an album". */
  savedTo: string;
  /** The destination album saved whole, if the album matched. */
  album: { id: string; name: string; artists: string[]; url?: string } | null;
  /** Tracks saved one by one (liked songs, or an album's tracks when no album matched). */
  savedTracks: number;
  /** The "Also add them to a playlist" playlist, when asked for. */
  playlist: { id: string; url: string; name: string } | null;
}
