import type { LibraryAlbum, NormalizedTrack } from '../providers/types';
import { splitArtists } from './credits';
import { normalizeIsrc } from './isrc';
import { foldText } from './normalize';
import type { TrackMatch } from './pipeline';
import { prepareTrack } from './prepare';
import { scoreCandidate, statusFor, unmatchedReasons } from './score';
import { parseAlbum } from './versions';

/**
 * Album matching (issue 14, saved albums): a saved album is found on the other service as an album, so it
 * can be saved there as one. In order: (a) the UPC, which names the release on both services; (b) the
 * title and primary artist, where the track count must agree (or be within `TRACK_COUNT_TOLERANCE`, at a
 * confidence that asks for review); (c) no album: the caller matches the tracks one by one. The tracks
 * of a matched album are then paired with the destination album's tracks (`mapAlbumTracks`).
 *
 * Everything here is pure except `findAlbumMatch`, which asks the destination through `AlbumSource`.
 */

/** What album matching needs of an album, on either side: a provider's `LibraryAlbum`. */
export type AlbumInfo = LibraryAlbum;

export type AlbumMatchMethod = 'upc' | 'title_artist_count' | 'title_artist_near_count';

export interface AlbumMatch {
  album: AlbumInfo;
  method: AlbumMatchMethod;
  /** 0-100, as track confidences: 90+ accepted, 70-89 for review. */
  confidence: number;
  /** For people: "same UPC", "same title, artist and track count", "same title and artist, 12 tracks instead of 11". */
  reason: string;
}

/** A UPC match names the same release: as sure as an ISRC match. */
export const UPC_CONFIDENCE = 99;
/** Same title (edition notes aside), primary artist and number of tracks. */
export const TITLE_ARTIST_COUNT_CONFIDENCE = 95;
/** Same title and artist, a track or two more or fewer (bonus tracks, a hidden track): a person checks. */
export const NEAR_COUNT_CONFIDENCE = 80;
/** How many tracks more or fewer an album may have and still be offered for review. */
export const TRACK_COUNT_TOLERANCE = 2;

/** A UPC as digits without leading zeros: a 12-digit UPC-A and its 13-digit EAN form compare equal. */
export function normalizeUpc(upc: string | undefined | null): string | null {
  if (!upc) return null;
  const digits = upc.replace(/[\s-]/g, '');
  if (!/^\d{6,14}$/.test(digits)) return null;
  const trimmed = digits.replace(/^0+/, '');
  return trimmed === '' ? null : trimmed;
}

/** An album title's comparison key: folded, without " - Single"/" - EP" and edition notes, plus its kinds. */
export function albumTitleKey(name: string): string {
  const parsed = parseAlbum(name);
  const kinds = [...new Set(parsed.tags.map((tag) => tag.kind))].sort();
  return kinds.length === 0 ? parsed.albumKey : `${parsed.albumKey}|${kinds.join(',')}`;
}

function artistKeys(artists: readonly string[]): string[] {
  return splitArtists(artists)
    .map((name) => foldText(name))
    .filter((key) => key !== '');
}

/** True when each side's primary artist is among the other side's credited artists. */
export function sameArtist(a: readonly string[], b: readonly string[]): boolean {
  const left = artistKeys(a);
  const right = artistKeys(b);
  const [leftPrimary] = left;
  const [rightPrimary] = right;
  if (leftPrimary === undefined || rightPrimary === undefined) return false;
  return right.includes(leftPrimary) || left.includes(rightPrimary);
}

const yearOf = (date: string | undefined) => (date && /^\d{4}/.test(date) ? date.slice(0, 4) : null);
const tracksWord = (count: number) => `${count} ${count === 1 ? 'track' : 'tracks'}`;

/** How a candidate found by title and artist compares with the source album; null when it is not the album. */
export function scoreAlbumCandidate(source: AlbumInfo, candidate: AlbumInfo): AlbumMatch | null {
  if (albumTitleKey(source.name) !== albumTitleKey(candidate.name)) return null;
  if (!sameArtist(source.artists, candidate.artists)) return null;
  const difference = Math.abs(source.trackCount - candidate.trackCount);
  if (difference === 0) {
    return {
      album: candidate,
      method: 'title_artist_count',
      confidence: TITLE_ARTIST_COUNT_CONFIDENCE,
      reason: 'same title, artist and track count',
    };
  }
  if (difference > TRACK_COUNT_TOLERANCE) return null;
  return {
    album: candidate,
    method: 'title_artist_near_count',
    confidence: NEAR_COUNT_CONFIDENCE,
    reason: `same title and artist, ${tracksWord(candidate.trackCount)} instead of ${source.trackCount}`,
  };
}

/** The candidate carrying the source's UPC, if any. */
export function pickByUpc(source: AlbumInfo, candidates: readonly AlbumInfo[]): AlbumMatch | null {
  const upc = normalizeUpc(source.upc);
  if (upc === null) return null;
  const found = candidates.find((candidate) => normalizeUpc(candidate.upc) === upc);
  return found ? { album: found, method: 'upc', confidence: UPC_CONFIDENCE, reason: 'same UPC' } : null;
}

/**
 * The best candidate by title and artist: the exact track count first, then the nearer count, then the
 * same release year; ties keep the service's order.
 */
export function pickByTitle(source: AlbumInfo, candidates: readonly AlbumInfo[]): AlbumMatch | null {
  const sourceYear = yearOf(source.releaseDate);
  let best: { match: AlbumMatch; difference: number; sameYear: boolean } | null = null;
  for (const candidate of candidates) {
    const match = scoreAlbumCandidate(source, candidate);
    if (!match) continue;
    const difference = Math.abs(source.trackCount - candidate.trackCount);
    const sameYear = sourceYear !== null && yearOf(candidate.releaseDate) === sourceYear;
    const better =
      best === null ||
      difference < best.difference ||
      (difference === best.difference && sameYear && !best.sameYear);
    if (better) best = { match, difference, sameYear };
  }
  return best?.match ?? null;
}

/** What album matching asks of the destination service (a `MusicProvider` answers it). */
export interface AlbumSource {
  findAlbums(
    query: { upc?: string; title?: string; artist?: string },
    options?: { region?: string; limit?: number },
  ): Promise<AlbumInfo[]>;
}

const ALBUM_SEARCH_LIMIT = 10;

/** (a) UPC, then (b) title + primary artist with the track count; null = (c), match track by track. */
export async function findAlbumMatch(
  source: AlbumInfo,
  destination: AlbumSource,
  options: { region?: string } = {},
): Promise<AlbumMatch | null> {
  const region = options.region ? { region: options.region } : {};
  const upc = normalizeUpc(source.upc);
  if (upc !== null && source.upc) {
    const byUpc = pickByUpc(
      source,
      await destination.findAlbums({ upc: source.upc }, { ...region, limit: 5 }),
    );
    if (byUpc) return byUpc;
  }
  const title = parseAlbum(source.name).album || source.name;
  const artist = splitArtists(source.artists)[0];
  if (!artist) return null;
  const found = await destination.findAlbums({ title, artist }, { ...region, limit: ALBUM_SEARCH_LIMIT });
  // A search answer may carry the UPC too (Spotify's search does not, Apple's does).
  return pickByUpc(source, found) ?? pickByTitle(source, found);
}

export type TrackPairing = 'isrc' | 'track_number' | 'title';

export interface PairedTrack {
  track: NormalizedTrack;
  via: TrackPairing;
}

/**
 * Pairs each source track with a track of the destination album, each destination track used once: by
 * ISRC, then by track number with the same title and version, then by the same title and version alone.
 * Returns one entry per source track, in order (null = not on the destination album).
 */
export function mapAlbumTracks(
  sources: readonly NormalizedTrack[],
  destinations: readonly NormalizedTrack[],
): (PairedTrack | null)[] {
  const result: (PairedTrack | null)[] = sources.map(() => null);
  const used = new Set<number>();
  const titleKey = (track: NormalizedTrack) => {
    const prepared = prepareTrack(track);
    return `${prepared.titleKey}\u0000${prepared.hardKey}`;
  };
  const pass = (via: TrackPairing, keyOf: (track: NormalizedTrack) => string | null) => {
    const byKey = new Map<string, number[]>();
    destinations.forEach((track, index) => {
      if (used.has(index)) return;
      const key = keyOf(track);
      if (key === null) return;
      byKey.set(key, [...(byKey.get(key) ?? []), index]);
    });
    sources.forEach((track, sourceIndex) => {
      if (result[sourceIndex] !== null) return;
      const key = keyOf(track);
      if (key === null) return;
      const index = byKey.get(key)?.find((candidate) => !used.has(candidate));
      const destination = index === undefined ? undefined : destinations[index];
      if (index === undefined || destination === undefined) return;
      used.add(index);
      result[sourceIndex] = { track: destination, via };
    });
  };
  pass('isrc', (track) => normalizeIsrc(track.isrc));
  pass('track_number', (track) =>
    track.trackNumber === undefined ? null : `${track.trackNumber}\u0000${titleKey(track)}`,
  );
  pass('title', titleKey);
  return result;
}

const METHOD_WORDS: Record<AlbumMatchMethod, string> = {
  upc: 'UPC',
  title_artist_count: 'title, artist and track count',
  title_artist_near_count: 'title and artist',
};

/** The reason a row carries when its track was found on the matched album: "on the matched album (UPC)". */
export const onMatchedAlbumReason = (method: AlbumMatchMethod) =>
  `on the matched album (${METHOD_WORDS[method]})`;

/**
 * A source track paired with a track of the matched album, as the track matcher would have answered it:
 * the pair's own score, lifted to the album's confidence (the album vouches for it) unless it is another
 * version, with "on the matched album (…)" first among its reasons.
 */
export function albumTrackMatch(source: NormalizedTrack, paired: PairedTrack, album: AlbumMatch): TrackMatch {
  const scored = scoreCandidate(source, paired.track);
  const confidence = scored.sameVersion ? Math.max(scored.confidence, album.confidence) : scored.confidence;
  const status = statusFor(confidence);
  const candidate = {
    ...scored,
    confidence,
    reasons: [onMatchedAlbumReason(album.method), ...scored.reasons],
  };
  return {
    sourceId: source.id,
    source,
    best: status === 'unmatched' ? null : candidate,
    candidates: [candidate],
    confidence,
    status,
    reasons: status === 'unmatched' ? unmatchedReasons(candidate) : candidate.reasons,
  };
}
