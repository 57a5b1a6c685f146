import type { SavePlaylistResponse } from '../../shared/api/merge';
import type { ServiceId } from '../../shared/services';
import type { AppDeps } from '../app-context';
import { conflict } from '../domain-errors';
import { matchTracks } from '../matching';
import type { NormalizedTrack } from '../providers/types';
import { DatabaseMatchCache } from '../transfers/db-match-cache';
import { unknownRegionMessage } from '../transfers/match-job';
import { loadCopyableMerge, type StoredTrack } from './merge-service';

const asNormalized = (track: StoredTrack): NormalizedTrack => ({
  id: track.trackId,
  uri: track.uri,
  name: track.name,
  artists: track.artists,
  album: track.album,
  durationMs: track.durationMs,
  ...(track.isrc ? { isrc: track.isrc } : {}),
  ...(track.explicit !== undefined ? { explicit: track.explicit } : {}),
});

/**
 * Creates the merged playlist in the person's service. Tracks from the other service go through matching
 * first; those without an accepted match are left out and counted, never swapped for a guess.
 */
export async function saveMergedPlaylist(
  deps: AppDeps,
  input: { userId: string; mergeId: string; service: ServiceId; playlistName: string; trackIds: string[] },
): Promise<SavePlaylistResponse> {
  const row = await loadCopyableMerge(deps, input.mergeId, input.userId);
  const byId = new Map(row.tracks.map((track) => [track.id, track]));
  const chosen = input.trackIds.flatMap((id) => {
    const track = byId.get(id);
    return track ? [track] : [];
  });
  const provider = await deps.providers.forUser(input.userId, input.service);
  const foreign = chosen.filter((track) => track.service !== input.service);
  const connection = await deps.providers.connections.get(input.userId, input.service);
  // Never a silent `us`: matching answers per country, so an unknown one is asked for first.
  const region = connection?.region;
  if (!region) throw conflict(unknownRegionMessage(input.service));
  const matches = foreign.length
    ? await matchTracks(foreign.map(asNormalized), provider, {
        region,
        cache: new DatabaseMatchCache(deps.db, input.service, region),
      })
    : [];
  const matchedUri = new Map<StoredTrack, string>();
  foreign.forEach((track, index) => {
    const match = matches[index];
    if (match?.status === 'accepted' && match.best) matchedUri.set(track, match.best.track.uri);
  });
  const uris = chosen.flatMap((track) => {
    const uri = track.service === input.service ? track.uri : matchedUri.get(track);
    return uri ? [uri] : [];
  });
  const created = await provider.createPlaylist(input.playlistName, 'A friend merge made with Crossfade.');
  if (uris.length > 0) await provider.addTracks(created.id, [...new Set(uris)]);
  return {
    playlistId: created.id,
    url: created.url,
    saved: new Set(uris).size,
    skipped: input.trackIds.length - uris.length,
  };
}
