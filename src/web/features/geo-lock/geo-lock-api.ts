import { fetchPlaylistTracksResponseSchema } from '../../../shared/api/playlists';
import {
  createRegionPlaylistResponseSchema,
  type GeoAlternativesRequest,
  geoAlternativesResponseSchema,
} from '../../../shared/api/region';
import { request } from '../../lib/api-client';
import { invalidatePlaylists } from '../playlists';

export const fetchPlaylistTracks = (playlistUrl: string) =>
  request(fetchPlaylistTracksResponseSchema, 'POST', '/api/fetch-playlist-tracks', { playlistUrl });

export const findGeoAlternatives = (body: GeoAlternativesRequest) =>
  request(geoAlternativesResponseSchema, 'POST', '/api/claude/geo-locked-alternatives', body);

/** Saves the region's copy in the person's library: their lists of playlists are read again. */
export async function createRegionPlaylist(body: {
  playlistUrl: string;
  targetRegion: string;
  replacements: string[];
}) {
  const created = await request(
    createRegionPlaylistResponseSchema,
    'POST',
    '/api/create-region-optimized-playlist',
    body,
  );
  await invalidatePlaylists();
  return created;
}
