import type { MatchChoice, MatchRequest, MatchRow } from '../../shared/api/transfer';
import type { AppDeps } from '../app-context';
import { badRequest, conflict, notFound } from '../domain-errors';
import { enqueue } from '../jobs/define-job';
import { prepareTrack } from '../matching/prepare';
import { scoreCandidate, statusFor, unmatchedReasons } from '../matching/score';
import type { NormalizedTrack } from '../providers/types';
import { searchAgainstSource } from './manual-search';
import { matchJob, unknownRegionMessage } from './match-job';
import { chosenTrack, type StoredCandidate, toMatchRow } from './match-rows';
import { forgetRule, rememberRule } from './match-rules';
import {
  acceptReviewRows,
  findLatestReadySet,
  findMatchRow,
  findOwnedMatchSet,
  insertMatchSet,
  type MatchRowUpdate,
  setMatchSetJob,
  updateMatchRow,
} from './match-store';

/**
 * Starting a match run, reading it back, and the person's fixes. The matching itself runs as a durable
 * job (match-job.ts) so big playlists survive restarts and rate limits.
 */
const CHOSEN_BY_YOU = 'Chosen by you';

/**
 * "Accept all N in review": every row the engine left in the review band becomes the person's decision,
 * keeping its own score and reasons. Rows the person already decided are left as they are.
 */
export async function acceptAllInReview(deps: AppDeps, userId: string, matchSetId: string) {
  const set = await ownedSet(deps, userId, matchSetId);
  if (set.status !== 'ready') throw badRequest('Matching is still running for this playlist.');
  const accepted = await acceptReviewRows(deps.db, set.id, 'Accepted by you');
  return accepted;
}

export async function startMatch(
  deps: AppDeps,
  userId: string,
  request: MatchRequest & { playlistName?: string },
) {
  const destination = await deps.providers.connections.get(userId, request.destinationService);
  if (destination && destination.region === null)
    throw conflict(unknownRegionMessage(request.destinationService));
  const set = await insertMatchSet(deps.db, {
    userId,
    sourceService: request.sourceService,
    destinationService: request.destinationService,
    sourcePlaylistId: request.playlistId,
    sourcePlaylistName: request.playlistName ?? 'Playlist',
  });
  const job = await enqueue(deps.db, matchJob, { userId, payload: { matchSetId: set.id } });
  await setMatchSetJob(deps.db, set.id, job.id);
  deps.jobs.poke();
  return { matchSetId: set.id, jobId: job.id };
}

async function ownedSet(deps: AppDeps, userId: string, matchSetId: string) {
  const set = await findOwnedMatchSet(deps.db, userId, matchSetId);
  if (!set) throw notFound('That match result does not exist.');
  return set;
}

/** The newest finished match run of this playlist, for a transfer that names none. */
export async function latestReadySet(deps: AppDeps, userId: string, request: MatchRequest) {
  return findLatestReadySet(deps.db, userId, request);
}

export { ownedSet as requireOwnedMatchSet };

async function ownedRow(deps: AppDeps, userId: string, matchSetId: string, position: number) {
  const set = await ownedSet(deps, userId, matchSetId);
  if (set.status !== 'ready') throw badRequest('Matching is still running for this playlist.');
  const row = await findMatchRow(deps.db, set.id, position);
  if (!row) throw notFound('That track is not in this match result.');
  return { set, row };
}

/** The person picks another candidate, a track they searched for, skips the track, or undoes their choice. */
export async function applyMatchChoice(
  deps: AppDeps,
  userId: string,
  matchSetId: string,
  position: number,
  choice: MatchChoice,
): Promise<MatchRow> {
  const { set, row } = await ownedRow(deps, userId, matchSetId, position);
  if (row.status === 'skipped' && row.decidedBy === 'engine') {
    throw badRequest('This item cannot be transferred (it is not a track on the source service).');
  }
  const candidates = row.candidates;
  let update: MatchRowUpdate;
  switch (choice.action) {
    case 'choose': {
      const candidate = candidates.find((c) => c.track.id === choice.trackId);
      if (!candidate) throw badRequest('That track is not one of the candidates for this song.');
      // The row now carries the chosen track's own score and reasons: list, CSV and overall confidence.
      update = {
        chosenId: candidate.track.id,
        decidedBy: 'person',
        status: 'accepted',
        confidence: candidate.confidence,
        reasons: [CHOSEN_BY_YOU, ...candidate.reasons],
      };
      break;
    }
    case 'manual': {
      const source = row.source;
      const track: NormalizedTrack = {
        id: choice.track.id,
        uri: choice.track.uri,
        name: choice.track.name,
        artists: choice.track.artists,
        album: choice.track.album,
        durationMs: choice.track.durationMs ?? 0,
        ...(choice.track.imageUrl ? { imageUrl: choice.track.imageUrl } : {}),
        ...(choice.track.isrc ? { isrc: choice.track.isrc } : {}),
        ...(choice.track.explicit !== undefined ? { explicit: choice.track.explicit } : {}),
      };
      const scored = scoreCandidate(prepareTrack(source), prepareTrack(track));
      const picked: StoredCandidate = {
        track,
        confidence: scored.confidence,
        reasons: [CHOSEN_BY_YOU, ...scored.reasons],
        versionLabels: [...scored.versionLabels],
        sameVersion: scored.sameVersion,
      };
      update = {
        candidates: [picked, ...candidates.filter((c) => c.track.id !== track.id)],
        chosenId: track.id,
        decidedBy: 'person',
        status: 'accepted',
        confidence: picked.confidence,
        reasons: picked.reasons,
      };
      break;
    }
    case 'skip':
      update = {
        chosenId: null,
        decidedBy: 'person',
        status: 'skipped',
        confidence: 0,
        reasons: ['Skipped by you'],
      };
      break;
    case 'reset': {
      const best = candidates[0];
      const status = best ? statusFor(best.confidence) : 'unmatched';
      update = {
        chosenId: status === 'unmatched' ? null : (best?.track.id ?? null),
        decidedBy: 'engine',
        status,
        confidence: best?.confidence ?? 0,
        reasons: status === 'unmatched' ? unmatchedReasons(best) : [...(best?.reasons ?? [])],
      };
      break;
    }
  }
  const updated = await updateMatchRow(deps.db, row.matchSetId, position, update);
  if (!updated) throw notFound('That track is not in this match result.');
  // The choice becomes the person's rule for this song (issue 14); resetting the row forgets it.
  const scope = {
    userId,
    sourceService: set.sourceService,
    destinationService: set.destinationService,
  };
  if (choice.action === 'reset') await forgetRule(deps.db, scope, row.source);
  else await rememberRule(deps.db, scope, row.source, chosenTrack(updated));
  return toMatchRow(updated);
}

/** Manual search for one row, scored against its source so the person sees how close each result is. */
export async function searchForRow(
  deps: AppDeps,
  userId: string,
  matchSetId: string,
  position: number,
  text: string,
) {
  const { set, row } = await ownedRow(deps, userId, matchSetId, position);
  return searchAgainstSource(deps, userId, set.destinationService, row.source, text);
}
