import { z } from 'zod';

/** GET /api/auth/spotify/connect */
export const spotifyConnectResponseSchema = z.object({ authUrl: z.string() });

/** GET /api/auth/apple/connect: sandbox sends the browser to a consent page; real mode hands MusicKit a token. */
export const appleConnectResponseSchema = z.object({
  useRedirect: z.boolean(),
  authUrl: z.string(),
  token: z.string(),
  /** Real mode: where to load MusicKit on the Web from (the MUSICKIT_SCRIPT_URL setting). */
  musicKitScriptUrl: z.string().optional(),
});
export type AppleConnectResponse = z.infer<typeof appleConnectResponseSchema>;

/** POST /api/auth/apple/init: the Music User Token from MusicKit on the Web. */
export const appleInitRequestSchema = z.object({
  token: z.string({ error: 'token is required' }).min(1, 'token is required').max(4096, 'token is too long'),
});

/** Query of the connect calls: where to come back to after the service's consent page. */
export const connectQuerySchema = z.object({ returnTo: z.string().max(512).optional() });
