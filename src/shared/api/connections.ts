import { z } from 'zod';
import { text } from '../text';

/** GET /api/auth/spotify/connect */
export const spotifyConnectResponseSchema = z.object({ authUrl: text() });

/** GET /api/auth/apple/connect: sandbox sends the browser to a consent page; real mode hands MusicKit a token. */
export const appleConnectResponseSchema = z.object({
  useRedirect: z.boolean(),
  authUrl: text(),
  token: text(),
  /** Real mode: where to load MusicKit on the Web from (the MUSICKIT_SCRIPT_URL setting). */
  musicKitScriptUrl: text().optional(),
});
export type AppleConnectResponse = z.infer<typeof appleConnectResponseSchema>;

/** POST /api/auth/apple/init: the Music User Token from MusicKit on the Web. */
export const appleInitRequestSchema = z.object({
  token: text({ error: 'token is required' }).min(1, 'token is required').max(4096, 'token is too long'),
});

/** POST /api/auth/apple/init's answer. */
export const appleInitResponseSchema = z.object({ appleConnected: z.boolean() });

/** Query of the connect calls: where to come back to after the service's consent page. */
export const connectQuerySchema = z.object({ returnTo: text().max(512).optional() });

/**
 * PUT /api/auth/:service/region: the person's country when the service does not tell us (Spotify's
 * development-mode `/me` has none and its answers gave none away). Search results depend on it.
 */
export const connectionRegionRequestSchema = z.object({
  region: text({ error: 'region is required' }).regex(
    /^[A-Za-z]{2}$/,
    'region must be a two-letter country code',
  ),
});

/** PUT /api/auth/:service/region's answer: the country as stored (lower case). */
export const connectionRegionResponseSchema = z.object({ region: text() });
