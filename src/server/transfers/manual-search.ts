import type { ServiceId } from '../../shared/services';
import type { AppDeps } from '../app-context';
import { rankCandidates } from '../matching/score';
import { toTrackDto } from '../playlists/source-playlists';
import type { NormalizedTrack } from '../providers/types';

/** How many results a manual search shows. */
const MANUAL_SEARCH_LIMIT = 10;

/**
 * A person's own search on the destination service (a match row in step 3, or a rule being edited),
 * scored against the source song so they see how close each result is, best first, as the API answers it.
 */
export async function searchAgainstSource(
  deps: AppDeps,
  userId: string,
  destinationService: ServiceId,
  source: NormalizedTrack,
  text: string,
) {
  const destination = await deps.providers.forUser(userId, destinationService);
  const results = await destination.searchTracks({ text }, { limit: MANUAL_SEARCH_LIMIT });
  return rankCandidates(source, results).map((scored) => ({
    track: toTrackDto(scored.track),
    confidence: scored.confidence,
    reasons: scored.reasons,
    versionLabels: [...scored.versionLabels],
    sameVersion: scored.sameVersion,
  }));
}
