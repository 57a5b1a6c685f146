import type { FetchPlaylistTracksResponse } from '../../../shared/api/playlists';
import type {
  CreateRegionPlaylistResponse,
  GeoAlternativesRequest,
  GeoAlternativesResponse,
} from '../../../shared/api/region';
import { apiJson } from '../../lib/api-client';

export const fetchPlaylistTracks = (playlistUrl: string) =>
  apiJson<FetchPlaylistTracksResponse>('POST', '/api/fetch-playlist-tracks', { playlistUrl });

export const findGeoAlternatives = (body: GeoAlternativesRequest) =>
  apiJson<GeoAlternativesResponse>('POST', '/api/claude/geo-locked-alternatives', body);

export const createRegionPlaylist = (body: {
  playlistUrl: string;
  targetRegion: string;
  replacements: string[];
}) => apiJson<CreateRegionPlaylistResponse>('POST', '/api/create-region-optimized-playlist', body);
