import type { GeoAlternative, RegionTrack } from '../../shared/api/geo-lock';
import type { AiEngine, AlternativeKind, TrackSummary } from '../ai/engine';
import { type PreparedTrack, prepareTrack } from '../matching';
import type { MusicProvider, NormalizedTrack } from '../providers/types';

/**
 * The geo-lock bypass: for each track that cannot be played in the target region, the closest thing that
 * can, from the track's own service. Closest means, in order: the same recording on another release (same
 * ISRC), the same song with the same version on another album, then another version (live, acoustic,
 * cover…) labelled as such. Every alternative is checked against the region before it is offered.
 */

export const CONFIDENCE: Record<Exclude<AlternativeKind, 'none'>, number> = {
  same_recording: 98,
  same_song: 85,
  other_version: 55,
};
const SEARCH_LIMIT = 10;
const CONCURRENCY = 4;

export interface AlternativesResult {
  alternatives: GeoAlternative[];
  checked: number;
  unavailable: number;
  /** The chosen alternative per original track id (for building the optimized playlist). */
  chosen: Map<string, NormalizedTrack>;
}

const toRegionTrack = (track: NormalizedTrack): RegionTrack => ({
  id: track.id,
  name: track.name,
  artists: track.artists,
  album: track.album,
});

export function summarize(track: NormalizedTrack): TrackSummary {
  return {
    name: track.name,
    artists: track.artists,
    album: track.album,
    durationMs: Math.max(0, Math.round(track.durationMs)),
    versionLabels: [...prepareTrack(track).versionLabels].filter((l) => l !== 'explicit' && l !== 'clean'),
    ...(track.isrc ? { isrc: track.isrc } : {}),
    ...(track.explicit !== undefined ? { explicit: track.explicit } : {}),
    ...(track.albumType ? { albumType: track.albumType } : {}),
  };
}

const sameSongAs = (source: PreparedTrack, candidate: PreparedTrack) =>
  source.titleKey === candidate.titleKey &&
  source.primaryArtistKey !== '' &&
  candidate.artistKeys.includes(source.primaryArtistKey);

/** Candidates for one track, best kind first; availability is checked by the caller. */
async function candidatesFor(
  provider: MusicProvider,
  track: NormalizedTrack,
  region: string,
): Promise<{ track: NormalizedTrack; kind: Exclude<AlternativeKind, 'none'> }[]> {
  const source = prepareTrack(track);
  const out: { track: NormalizedTrack; kind: Exclude<AlternativeKind, 'none'> }[] = [];
  const seen = new Set<string>([track.id]);
  const push = (candidate: NormalizedTrack, kind: Exclude<AlternativeKind, 'none'>) => {
    if (seen.has(candidate.id)) return;
    seen.add(candidate.id);
    out.push({ track: candidate, kind });
  };
  if (source.isrc) {
    const answer = await provider.lookupIsrcs([source.isrc], { region });
    for (const candidate of answer.get(source.isrc) ?? []) push(candidate, 'same_recording');
  }
  const found = await provider.searchTracks(
    { title: source.title, artist: source.primaryArtist },
    { limit: SEARCH_LIMIT, region },
  );
  const sameSong: NormalizedTrack[] = [];
  const otherVersions: NormalizedTrack[] = [];
  for (const candidate of found) {
    const prepared = prepareTrack(candidate);
    if (!sameSongAs(source, prepared)) continue;
    if (source.isrc && prepared.isrc === source.isrc) push(candidate, 'same_recording');
    else if (prepared.hardKey === source.hardKey) sameSong.push(candidate);
    else otherVersions.push(candidate);
  }
  for (const candidate of sameSong) push(candidate, 'same_song');
  for (const candidate of otherVersions) push(candidate, 'other_version');
  return out;
}

async function pool<T>(items: readonly T[], work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      if (item !== undefined) await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
}

export async function findAlternatives(
  provider: MusicProvider,
  ai: Pick<AiEngine, 'geoLockExplanation'>,
  tracks: readonly NormalizedTrack[],
  region: string,
): Promise<AlternativesResult> {
  const unique = [...new Map(tracks.map((track) => [track.id, track])).values()];
  const availability = await provider.getAvailability(
    unique.map((track) => track.id),
    region,
  );
  const locked = unique.filter((track) => availability.get(track.id) !== true);
  const found = new Map<string, { track: NormalizedTrack; kind: Exclude<AlternativeKind, 'none'> } | null>();
  await pool(locked, async (track) => {
    const candidates = await candidatesFor(provider, track, region);
    if (candidates.length === 0) {
      found.set(track.id, null);
      return;
    }
    // Search answers are filtered by region on most services, but the offer must hold: ask again.
    const playable = await provider.getAvailability(
      candidates.map((c) => c.track.id),
      region,
    );
    found.set(track.id, candidates.find((c) => playable.get(c.track.id) === true) ?? null);
  });

  const alternatives: GeoAlternative[] = [];
  const chosen = new Map<string, NormalizedTrack>();
  for (const track of locked) {
    const pick = found.get(track.id) ?? null;
    const kind: AlternativeKind = pick?.kind ?? 'none';
    const { explanation } = await ai.geoLockExplanation({
      track: summarize(track),
      targetRegion: region,
      alternative: pick ? summarize(pick.track) : null,
      kind,
    });
    if (pick) chosen.set(track.id, pick.track);
    alternatives.push({
      original: toRegionTrack(track),
      alternative: pick ? toRegionTrack(pick.track) : null,
      confidence: pick ? CONFIDENCE[pick.kind] : 0,
      kind,
      explanation,
    });
  }
  return { alternatives, checked: unique.length, unavailable: locked.length, chosen };
}
