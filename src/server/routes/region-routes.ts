import { Hono } from 'hono';
import {
  createRegionPlaylistRequestSchema,
  type GeoAlternativesResponse,
  geoAlternativesRequestSchema,
} from '../../shared/api/region';
import type { AppDeps, AppEnv } from '../app-context';
import { requireUser } from '../http/require-user';
import { readJson } from '../http/validation';
import type { NormalizedTrack } from '../providers/types';
import { findAlternatives } from '../region-lock/find-alternatives';
import {
  createRegionOptimizedPlaylist,
  providerForTracks,
  serviceOfTrackId,
} from '../region-lock/region-service';

/** The region-lock finder (spec sections 2, 3, 7 and 8). */
export function regionRoutes(deps: AppDeps) {
  return new Hono<AppEnv>()
    .post('/claude/geo-locked-alternatives', async (c) => {
      const body = await readJson(c, geoAlternativesRequestSchema);
      const service = body.service ?? serviceOfTrackId(body.tracks[0]?.id ?? '');
      const provider = await providerForTracks(deps, c.get('user'), service, body.targetRegion);
      const tracks: NormalizedTrack[] = body.tracks.map((track) => ({
        id: track.id,
        uri: track.uri ?? '',
        name: track.name,
        artists: track.artists,
        album: track.album,
        durationMs: track.durationMs ?? 0,
        ...(track.isrc ? { isrc: track.isrc } : {}),
        ...(track.explicit !== undefined ? { explicit: track.explicit } : {}),
      }));
      const result = await findAlternatives(provider, deps.ai, tracks, body.targetRegion);
      const answer: GeoAlternativesResponse = {
        alternatives: result.alternatives,
        checked: result.checked,
        unavailable: result.unavailable,
      };
      return c.json(answer);
    })
    .post('/create-region-optimized-playlist', async (c) => {
      const user = requireUser(c);
      const body = await readJson(c, createRegionPlaylistRequestSchema);
      return c.json(await createRegionOptimizedPlaylist(deps, user, body));
    });
}
