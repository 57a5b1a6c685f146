import type { SessionUser } from '../../shared/api/auth';
import type { CreateRegionPlaylistResponse } from '../../shared/api/geo-lock';
import type { ServiceId } from '../../shared/services';
import type { AppDeps } from '../app-context';
import { unauthorized } from '../domain-errors';
import { readPlaylistFromLink } from '../playlists/shared-playlists';
import type { MusicProvider, NormalizedTrack } from '../providers/types';
import { findAlternatives } from './find-alternatives';

/** Apple catalog ids are numeric; Spotify's are base62. */
export const serviceOfTrackId = (id: string): ServiceId => (/^\d+$/.test(id) ? 'apple' : 'spotify');

/**
 * Availability is asked of the track's own service. Spotify: with an app token (client credentials) when
 * the server has a client secret, since a person's token answers for that person's country whatever
 * `market` says; else the person's connection. Apple: the person's connection, or the catalog (developer
 * token), so Apple playlists can be checked without connecting Apple Music.
 */
export async function providerForTracks(
  deps: AppDeps,
  user: SessionUser | null,
  service: ServiceId,
  region: string,
): Promise<MusicProvider> {
  // Spotify answers a person's token in that person's country whatever `market` says: availability in
  // another region needs an app token (when the server has a client secret).
  if (service === 'spotify' && user) {
    const catalog = deps.providers.spotifyCatalog();
    if (catalog) return catalog;
  }
  const connected = user ? await deps.providers.connections.get(user.id, service) : null;
  if (user && connected) return deps.providers.forUser(user.id, service);
  if (service === 'apple') return deps.providers.appleCatalog(region.toLowerCase());
  if (!user) throw unauthorized('Sign in and connect Spotify to check Spotify tracks.');
  return deps.providers.forUser(user.id, service);
}

export async function createGeoLockPlaylist(
  deps: AppDeps,
  user: SessionUser,
  input: { playlistUrl: string; targetRegion: string; replacements: string[] },
): Promise<CreateRegionPlaylistResponse> {
  const contents = await readPlaylistFromLink(deps, user, input.playlistUrl);
  const tracks = contents.entries.flatMap((entry) => (entry.kind === 'track' ? [entry.track] : []));
  // Only tracks the person chose are looked at again; the alternative must still be available now.
  const wanted = new Set(input.replacements);
  const reader = await providerForTracks(deps, user, contents.service, input.targetRegion);
  const { chosen } = await findAlternatives(
    reader,
    deps.ai,
    tracks.filter((track) => wanted.has(track.id)),
    input.targetRegion,
  );
  const destination = await deps.providers.forUser(user.id, contents.service);
  const finalTracks: NormalizedTrack[] = tracks.map((track) => chosen.get(track.id) ?? track);
  const created = await destination.createPlaylist(
    `${contents.playlist.name} (${input.targetRegion})`,
    `Optimized for ${input.targetRegion} by Crossfade: geo-locked tracks swapped for available versions.`,
  );
  const uris = [...new Set(finalTracks.map((track) => track.uri).filter((uri) => uri !== ''))];
  if (uris.length > 0) await destination.addTracks(created.id, uris);
  return { playlistId: created.id, url: created.url, replaced: chosen.size };
}
