import type { SyncTrack } from '../../shared/api/syncs';
import { notPlayableHere } from '../../shared/api/transfer';
import { SERVICE_LABELS, type ServiceId } from '../../shared/services';
import { createMatchingTieBreaker } from '../ai/matching-tie-breaker';
import type { AppDeps } from '../app-context';
import { PermanentJobError } from '../jobs/job-runner';
import { matchTracks } from '../matching/pipeline';
import type { MusicProvider, NormalizedTrack } from '../providers/types';
import { DatabaseMatchCache } from '../transfers/db-match-cache';
import { unknownRegionMessage } from '../transfers/match-job';
import { type MatchRowRecord, rowFromMatch, tracksToAdd } from '../transfers/match-rows';
import { loadRules, ruledRow, ruleKeyOf } from '../transfers/match-rules';

/** Why an add on one side is not copied to the other (listed on the sync page, every run until it is). */
export const waitingReason = (to: ServiceId) =>
  `Waiting for you: no confident match on ${SERVICE_LABELS[to]}. Review it in a transfer to make a rule; the next run adds it.`;

/** Why an add is not copied to `to`, in words for the sync page. */
export function notCopiedReason(
  row: Pick<MatchRowRecord, 'status' | 'decidedBy' | 'reasons'>,
  to: ServiceId,
): string {
  if (row.status === 'skipped') {
    return row.decidedBy === 'person'
      ? `Your rule: not on ${SERVICE_LABELS[to]}`
      : (row.reasons[0] ?? 'Not a song');
  }
  if (row.status === 'review') return waitingReason(to);
  return notPlayableHere(row)
    ? `On ${SERVICE_LABELS[to]}, but not playable in your country`
    : `Not found on ${SERVICE_LABELS[to]}`;
}

export interface MatchedAdds {
  /** The add, and the track of the other service it matched (the person's rule first). */
  matched: { from: NormalizedTrack; to: NormalizedTrack }[];
  /** Adds not copied: review band (waiting for the person), not found, or the person's rule says skip. */
  notAdded: SyncTrack[];
}

/**
 * Matches the adds of one side onto the other side's service, as a transfer would: the person's rules
 * for this direction decide their rows, review-band matches wait for the person.
 */
export async function matchAdds(
  deps: AppDeps,
  input: {
    userId: string;
    runId: string;
    from: ServiceId;
    to: ServiceId;
    provider: MusicProvider;
    tracks: NormalizedTrack[];
  },
): Promise<MatchedAdds> {
  if (input.tracks.length === 0) return { matched: [], notAdded: [] };
  const connection = await deps.providers.connections.get(input.userId, input.to);
  // Never a silent US: what the person can play depends on their country.
  const region = connection?.region;
  if (!region) throw new PermanentJobError(unknownRegionMessage(input.to));
  const rules = await loadRules(deps.db, {
    userId: input.userId,
    sourceService: input.from,
    destinationService: input.to,
  });
  const cache = new DatabaseMatchCache(deps.db, input.to, region);
  const matches = await matchTracks(input.tracks, input.provider, {
    region,
    cache,
    tieBreaker: createMatchingTieBreaker(deps.ai),
  });
  await cache.flush();
  const rows = input.tracks.map((track, position) => {
    const match = matches[position];
    if (!match) throw new Error('matching returned fewer results than adds');
    const row = rowFromMatch(input.runId, position, match);
    const rule = rules.get(ruleKeyOf(track));
    return (rule ? ruledRow(row, rule) : row) as unknown as MatchRowRecord;
  });
  const selected = tracksToAdd(rows, false);
  const chosen = new Set(selected.map((item) => item.row.position));
  const notAdded = rows
    .filter((row) => !chosen.has(row.position))
    .map((row) => ({
      name: row.source.name,
      artists: row.source.artists,
      reason: notCopiedReason(row, input.to),
    }));
  return {
    matched: selected.flatMap((item) => {
      const from = input.tracks[item.row.position];
      return from ? [{ from, to: item.track }] : [];
    }),
    notAdded,
  };
}
