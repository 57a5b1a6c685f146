import { Hono } from 'hono';
import { acceptTrailingSlashes } from '../trailing-slash';
import { type ApiAppOptions, type ApiEnv, addApiAuthentication, apiError, createApiKit } from './api-kit';
import { addCatalogRoutes } from './catalog-routes';
import { addLibraryRoutes } from './library-routes';
import { addPlaylistReadRoutes } from './playlist-read-routes';
import { addPlaylistWriteRoutes } from './playlist-write-routes';
import { addWebPages } from './web-pages';
import type { SpotifyWorld } from './world';

export { type ApiAppOptions, OWNER_WITHOUT_PREMIUM_TEXT } from './api-kit';

/**
 * The Web API as a development-mode (or extended-quota) app sees it, in the order a request meets it: the
 * sandbox's web pages (no token), then every /v1 call's rate limit and token check, then the routes by
 * area, and Spotify's 404 for the rest.
 */
export function createApiApp(world: SpotifyWorld, options: ApiAppOptions = {}): Hono {
  const kit = createApiKit(world, options);
  const app = new Hono<ApiEnv>();
  addWebPages(app as unknown as Hono, world);
  addApiAuthentication(app, kit);
  addPlaylistWriteRoutes(app, kit);
  addPlaylistReadRoutes(app, kit);
  addLibraryRoutes(app, kit);
  addCatalogRoutes(app, kit);
  acceptTrailingSlashes(app);
  app.all('/v1/*', (c) => apiError(c, 404, 'Service not found'));
  return new Hono().route('/', app);
}
