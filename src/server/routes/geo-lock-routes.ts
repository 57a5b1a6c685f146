import { Hono } from 'hono';
import {
  createRegionPlaylistRequestSchema,
  type GeoAlternativesResponse,
  geoAlternativesRequestSchema,
} from '../../shared/api/geo-lock';
import type { AppDeps, AppEnv } from '../app-context';
import { findAlternatives } from '../geo-lock/find-alternatives';
import { createGeoLockPlaylist, providerForTracks, serviceOfTrackId } from '../geo-lock/geo-lock-service';
import { requireUser } from '../http/require-user';
import { readJson } from '../http/validation';
import type { NormalizedTrack } from '../providers/types';
import { DAY_MS, enforceRateLimit } from '../security/rate-limit';

/** The geo-lock bypass (spec sections 2, 3, 7 and 8). */
export function geoLockRoutes(deps: AppDeps) {
  // Every checked track spends calls of the shared catalog quota: a daily allowance per account, ten times
  // larger on the paid plans.
  const freeTracksPerDay = deps.config.GEO_LOCK_TRACKS_PER_DAY;
  const quota = (plan: string) => ({
    bucket: 'geo-lock-tracks',
    limit: plan === 'free' ? freeTracksPerDay : freeTracksPerDay * 10,
    windowMs: DAY_MS,
    message:
      plan === 'free'
        ? `The Free plan checks ${freeTracksPerDay} tracks a day for geo-locks; Pro checks ten times as many (see /pricing).`
        : `Your plan checks ${freeTracksPerDay * 10} tracks a day for geo-locks.`,
  });
  return new Hono<AppEnv>()
    .post('/claude/geo-locked-alternatives', async (c) => {
      const user = requireUser(c);
      const body = await readJson(c, geoAlternativesRequestSchema);
      await enforceRateLimit(deps.db, quota(user.plan), user.id, body.tracks.length);
      const service = body.service ?? serviceOfTrackId(body.tracks[0]?.id ?? '');
      const provider = await providerForTracks(deps, user, service, body.targetRegion);
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
      return c.json(await createGeoLockPlaylist(deps, user, body));
    });
}
