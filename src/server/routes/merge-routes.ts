import { Hono } from 'hono';
import {
  acceptInvitationRequestSchema,
  createInvitationRequestSchema,
  MERGE_MESSAGES,
  mergePlaylistsRequestSchema,
  savePlaylistRequestSchema,
  updateMergedPlaylistRequestSchema,
} from '../../shared/api/merge';
import type { AppDeps, AppEnv } from '../app-context';
import { badRequest } from '../domain-errors';
import { requireUser } from '../http/require-user';
import { readJson } from '../http/validation';
import { createMailer } from '../mail/mailer';
import { acceptInvitation, createInvitation, listInvitations, viewInvitation } from '../merge/invitations';
import {
  createMerge,
  findMergeWithTracks,
  publicMergedPlaylist,
  setMergePublic,
} from '../merge/merge-service';
import { loadOwnSide, loadSharedSide, serviceFor } from '../merge/playlist-refs';
import { saveMergedPlaylist } from '../merge/save-merged';
import { DAY_MS, enforceRateLimit } from '../security/rate-limit';

/** Friend merge (spec sections 2, 3 and 7): merging, saving, public merged pages and e-mail invitations. */
export function mergeRoutes(deps: AppDeps) {
  const mailer = createMailer(deps.config, deps.db);
  // Each invitation e-mails an address the person typed: a day's allowance per account.
  const invitations = {
    bucket: 'merge-invitation',
    limit: deps.config.MERGE_INVITATIONS_PER_DAY,
    windowMs: DAY_MS,
    message: `You have sent today's ${deps.config.MERGE_INVITATIONS_PER_DAY} invitations.`,
  };
  return new Hono<AppEnv>()
    .post('/claude/merge-playlists', async (c) => {
      const user = requireUser(c);
      const body = await readJson(c, mergePlaylistsRequestSchema);
      if (!body.userPlaylistId || !body.friendPlaylistId) throw badRequest(MERGE_MESSAGES.bothPlaylists);
      const you = await loadOwnSide(deps, user, {
        playlistId: body.userPlaylistId,
        service: body.userService,
      });
      const friend = await loadSharedSide(deps, user, {
        playlistId: body.friendPlaylistId,
        service: body.friendService,
      });
      const merge = await createMerge(deps, {
        ownerId: user.id,
        you,
        friend,
        mixRatio: body.mixRatio,
        includeBridgeTracks: body.includeBridgeTracks,
        // A merge of an imported file needs no connection; it just goes without bridge tracks then.
        searchProvider: await deps.providers.forUser(user.id, you.service).catch(() => null),
      });
      return c.json(merge.response);
    })
    .post('/save-playlist', async (c) => {
      const user = requireUser(c);
      const body = await readJson(c, savePlaylistRequestSchema);
      const mergeId = body.newPlaylistId ?? (await findMergeWithTracks(deps, user.id, body.tracks));
      const service = await serviceFor(deps, user.id, body.service);
      return c.json(
        await saveMergedPlaylist(deps, {
          userId: user.id,
          mergeId,
          service,
          playlistName: body.playlistName,
          trackIds: body.tracks,
        }),
      );
    })
    .get('/merged-playlists/:id', async (c) =>
      c.json(await publicMergedPlaylist(deps, c.req.param('id'), c.get('user')?.id)),
    )
    .patch('/merged-playlists/:id', async (c) => {
      const user = requireUser(c);
      const body = await readJson(c, updateMergedPlaylistRequestSchema);
      return c.json(await setMergePublic(deps, c.req.param('id'), user.id, body.public));
    })
    .post('/merge/invitations', async (c) => {
      const user = requireUser(c);
      const body = await readJson(c, createInvitationRequestSchema);
      await enforceRateLimit(deps.db, invitations, user.id);
      return c.json(await createInvitation(deps, mailer, user, body), 201);
    })
    .get('/merge/invitations', async (c) => c.json(await listInvitations(deps, requireUser(c).id)))
    .get('/merge/invitations/:token', async (c) => c.json(await viewInvitation(deps, c.req.param('token'))))
    .post('/merge/invitations/:token/accept', async (c) => {
      const body = await readJson(c, acceptInvitationRequestSchema);
      return c.json(await acceptInvitation(deps, mailer, c.get('user'), c.req.param('token'), body));
    });
}
