import { Hono } from 'hono';
import { recreateFromLinkRequestSchema, recreateRequestSchema } from '../../shared/api/recreate';
import type { AppDeps, AppEnv } from '../app-context';
import { requireUser } from '../http/require-user';
import { readJson } from '../http/validation';
import { recreateFromLink, recreateFromList } from '../recreate/recreate-playlist';

/** /recreate: a lost playlist rebuilt from a pasted list or a share URL, then handed to the wizard. */
export function recreateRoutes(deps: AppDeps) {
  return new Hono<AppEnv>()
    .post('/recreate', async (c) => {
      const user = requireUser(c);
      const request = await readJson(c, recreateRequestSchema);
      return c.json(await recreateFromList(deps, user, request), 201);
    })
    .post('/recreate/from-link', async (c) => {
      const user = requireUser(c);
      const { playlistUrl } = await readJson(c, recreateFromLinkRequestSchema);
      return c.json(await recreateFromLink(deps, user, playlistUrl), 201);
    });
}
