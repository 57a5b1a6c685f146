import type { Candidate, MatchRow } from '../../shared/api/transfer';
import type { matchRows } from '../db/schema';
import type { StoredCandidate } from '../db/stored-json';
import type { TrackMatch } from '../matching/pipeline';
import type { ScoredCandidate } from '../matching/score';
import { toTrackDto } from '../playlists/source-playlists';
import type { NormalizedTrack, PlaylistEntry } from '../providers/types';

/** How match results are stored (`match_rows`) and shown (`MatchRow`). */
export type MatchRowRecord = typeof matchRows.$inferSelect;

export type { StoredCandidate };

const SKIP_REASONS: Record<string, string> = {
  unavailable: 'No longer available on the source service',
  local_file: 'A local file: it exists only on the owner’s device',
  episode: 'A podcast episode, not a song',
  video: 'A music video, not a song',
  not_in_catalog: 'An upload or a song the service no longer has',
  unreadable: 'The service sent this entry in a form Crossfade cannot read',
};

const storedCandidate = (candidate: ScoredCandidate): StoredCandidate => ({
  track: candidate.track,
  confidence: candidate.confidence,
  reasons: candidate.reasons,
  versionLabels: [...candidate.versionLabels],
  sameVersion: candidate.sameVersion,
});

/** A matched track becomes a row; the engine's pick is the chosen track unless it is below review. */
export function rowFromMatch(matchSetId: string, position: number, match: TrackMatch) {
  return {
    matchSetId,
    position,
    source: match.source,
    candidates: match.candidates.map(storedCandidate),
    chosenId: match.status === 'unmatched' ? null : (match.best?.track.id ?? null),
    confidence: Math.round(match.confidence),
    status: match.status,
    reasons: match.reasons,
    decidedBy: 'engine' as const,
  };
}

/** A playlist entry that is not a track (local file, episode, unavailable): reported, never dropped. */
export function rowFromSkippedEntry(matchSetId: string, entry: Extract<PlaylistEntry, { kind: 'skipped' }>) {
  const source: NormalizedTrack = {
    id: `skipped-${entry.position}`,
    uri: '',
    name: entry.name ?? 'Unknown item',
    artists: entry.artists ?? [],
    album: entry.album ?? '',
    durationMs: entry.durationMs ?? 0,
  };
  return {
    matchSetId,
    position: entry.position,
    source,
    candidates: [],
    chosenId: null,
    confidence: 0,
    status: 'skipped' as const,
    reasons: [SKIP_REASONS[entry.reason] ?? 'Not a transferable track'],
    decidedBy: 'engine' as const,
  };
}

export function toMatchRow(record: MatchRowRecord): MatchRow {
  const source = record.source;
  const candidates = record.candidates;
  const chosen = candidates.find((candidate) => candidate.track.id === record.chosenId) ?? null;
  return {
    id: `${record.matchSetId}:${record.position}`,
    position: record.position,
    sourceTrack: toTrackDto(source),
    destinationTrack: chosen ? toTrackDto(chosen.track) : null,
    confidence: record.confidence,
    isMatched: chosen !== null,
    status: record.status,
    reasons: record.reasons,
    candidates: candidates.map(
      (candidate): Candidate => ({
        track: toTrackDto(candidate.track),
        confidence: candidate.confidence,
        reasons: candidate.reasons,
        versionLabels: [...candidate.versionLabels],
        sameVersion: candidate.sameVersion,
      }),
    ),
    decidedBy: record.decidedBy,
  };
}

/** The destination track a row will add, if any. */
export function chosenTrack(record: MatchRowRecord): NormalizedTrack | null {
  if (!record.chosenId) return null;
  return record.candidates.find((c) => c.track.id === record.chosenId)?.track ?? null;
}

/**
 * What a transfer adds (decision 0006): rows the person decided, rows the engine accepted (90+), and
 * nothing the engine only proposes for review (70-89) until the person accepts it. "Include unmatched"
 * adds the closest candidate of every other row the person left to the engine.
 */
export function tracksToAdd(rows: MatchRowRecord[], includeUnmatched: boolean) {
  return rows.flatMap((row) => {
    if (row.status === 'skipped') return [];
    const chosen = chosenTrack(row);
    const awaitingReview = row.status === 'review' && row.decidedBy !== 'person';
    if (chosen && !awaitingReview) return [{ row, track: chosen }];
    const closest = chosen ?? row.candidates[0]?.track;
    // "Include unmatched": the closest candidate of a row the engine could not confirm, if it has one.
    return includeUnmatched && row.decidedBy !== 'person' && closest ? [{ row, track: closest }] : [];
  });
}
