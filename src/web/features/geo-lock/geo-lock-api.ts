import { useMutation } from '@tanstack/react-query';
import {
  createRegionPlaylistResponseSchema,
  GEO_TRACKS_PER_CALL,
  type GeoAlternativesRequest,
  type GeoAlternativesResponse,
  geoAlternativesResponseSchema,
} from '../../../shared/api/geo-lock';
import { fetchPlaylistTracksResponseSchema } from '../../../shared/api/playlists';
import { request } from '../../lib/api-client';
import { invalidatePlaylists } from '../playlists';

const fetchPlaylistTracks = (playlistUrl: string) =>
  request(fetchPlaylistTracksResponseSchema, 'POST', '/api/fetch-playlist-tracks', { playlistUrl });

/** The analysis's first step: the playlist's tracks, read from its URL. */
export const useFetchPlaylistTracks = () => useMutation({ mutationFn: fetchPlaylistTracks });

/** The analysis's second step: every track checked against the target region. */
export const useFindGeoAlternatives = () => useMutation({ mutationFn: findGeoAlternatives });

/** Saves the region's copy in the person's library: their lists of playlists are read again. */
export const useCreateRegionPlaylist = () =>
  useMutation({ mutationFn: createRegionPlaylist, onSuccess: () => invalidatePlaylists() });

/** Checks a playlist in parts of at most GEO_TRACKS_PER_CALL tracks (the server's cap) and joins the answers. */
async function findGeoAlternatives(body: GeoAlternativesRequest): Promise<GeoAlternativesResponse> {
  const joined: GeoAlternativesResponse = { alternatives: [], checked: 0, unavailable: 0 };
  // A track listed twice is checked once, as in a single call: parts must not count it twice.
  const tracks = [...new Map(body.tracks.map((track) => [track.id, track])).values()];
  for (let start = 0; start < tracks.length || start === 0; start += GEO_TRACKS_PER_CALL) {
    const part = await request(geoAlternativesResponseSchema, 'POST', '/api/claude/geo-locked-alternatives', {
      ...body,
      tracks: tracks.slice(start, start + GEO_TRACKS_PER_CALL),
    });
    joined.alternatives.push(...part.alternatives);
    joined.checked += part.checked;
    joined.unavailable += part.unavailable;
  }
  return joined;
}

const createRegionPlaylist = (body: { playlistUrl: string; targetRegion: string; replacements: string[] }) =>
  request(createRegionPlaylistResponseSchema, 'POST', '/api/create-region-optimized-playlist', body);
