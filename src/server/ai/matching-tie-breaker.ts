import { prepareTrack, type TieBreaker } from '../matching';
import type { NormalizedTrack } from '../providers/types';
import type { AiEngine, CandidateSummary, TrackSummary } from './engine';

/** What the AI layer sees of a track: no ids, URLs or artwork, only what decides "same recording". */
export function summarizeTrack(track: NormalizedTrack, versionLabels: readonly string[]): TrackSummary {
  return {
    name: track.name,
    artists: [...track.artists],
    album: track.album,
    durationMs: Math.max(0, Math.round(track.durationMs)),
    ...(track.isrc ? { isrc: track.isrc } : {}),
    ...(track.explicit === undefined ? {} : { explicit: track.explicit }),
    versionLabels: [...versionLabels],
    ...(track.albumType ? { albumType: track.albumType } : {}),
  };
}

/** Plugs an engine into `matchTracks({ tieBreaker })`: matching's candidates in, the engine's choice out. */
export function createMatchingTieBreaker(engine: AiEngine): TieBreaker {
  return (source, candidates) =>
    engine.breakTie({
      source: summarizeTrack(source, prepareTrack(source).versionLabels),
      candidates: candidates.map(
        (candidate): CandidateSummary => ({
          ...summarizeTrack(candidate.track, candidate.versionLabels),
          id: candidate.track.id,
          score: candidate.confidence,
        }),
      ),
    });
}
