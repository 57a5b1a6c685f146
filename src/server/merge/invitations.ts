import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { SessionUser } from '../../shared/api/auth';
import {
  type CreateInvitationResponse,
  INVITATION_TTL_DAYS,
  type InvitationSummary,
  type InvitationView,
  MERGE_MESSAGES,
  type MergePlaylistsResponse,
} from '../../shared/api/merge';
import { SERVICE_LABELS, serviceIdSchema } from '../../shared/services';
import type { AppDeps } from '../app-context';
import { badRequest, conflict, gone, notFound, unauthorized } from '../domain-errors';
import type { Mailer } from '../mail/mailer';
import { createMerge } from './merge-service';
import {
  claimPendingInvitation,
  deleteMergedPlaylist,
  findInvitationByTokenHash,
  insertInvitation,
  listSentInvitations,
} from './merge-store';
import { type LoadedSide, loadOwnSide, loadSharedSide } from './playlist-refs';

const DAY_MS = 24 * 60 * 60_000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const inviterPlaylistSchema = z.object({
  service: serviceIdSchema,
  playlistId: z.string(),
  name: z.string(),
  trackCount: z.number(),
});

/** Only the hash is stored: a leaked database does not hand out working invitation links. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

const inviteUrl = (deps: AppDeps, token: string) => `${deps.config.publicUrl}/merge/invite/${token}`;

export async function createInvitation(
  deps: AppDeps,
  mailer: Mailer,
  user: SessionUser,
  input: { playlistId: string; service?: 'spotify' | 'apple' | undefined; friendEmail: string },
): Promise<CreateInvitationResponse & { emailSent: boolean }> {
  if (!input.playlistId || !input.friendEmail) throw badRequest(MERGE_MESSAGES.missingInvite);
  if (!EMAIL.test(input.friendEmail)) throw badRequest('Please enter a valid email address.');
  const own = await loadOwnSide(deps, user, { playlistId: input.playlistId, service: input.service });
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + INVITATION_TTL_DAYS * DAY_MS);
  const invitationId = await insertInvitation(deps.db, {
    inviterId: user.id,
    tokenHash: hashToken(token),
    friendEmail: input.friendEmail,
    inviterPlaylist: {
      service: own.service,
      playlistId: own.playlistId,
      name: own.name,
      trackCount: own.tracks.length,
    },
    expiresAt,
  });
  const url = inviteUrl(deps, token);
  let emailSent = true;
  try {
    await mailer.send({
      to: input.friendEmail,
      senderId: user.id,
      secrets: [url, token],
      subject: `${user.username} wants to merge playlists with you`,
      text: [
        `${user.username} invited you to blend your music with their playlist "${own.name}" on Crossfade.`,
        '',
        'Pick one of your playlists (or paste a Spotify or Apple Music share URL) and Crossfade mixes the two:',
        url,
        '',
        `The link works for ${INVITATION_TTL_DAYS} days.`,
      ].join('\n'),
    });
  } catch (error) {
    // The link is on the inviter's screen to copy, so a mail problem does not lose the invitation.
    emailSent = false;
    deps.logger.warn({ err: error }, 'merge invitation e-mail failed');
  }
  return { id: invitationId, inviteUrl: url, expiresAt: expiresAt.toISOString(), emailSent };
}

const statusOf = (row: { status: 'pending' | 'merged' | 'expired'; expiresAt: Date }) =>
  row.status === 'pending' && row.expiresAt.getTime() <= Date.now() ? 'expired' : row.status;

async function findByToken(deps: AppDeps, token: string) {
  const found =
    token.length > 0 && token.length <= 100
      ? await findInvitationByTokenHash(deps.db, hashToken(token))
      : undefined;
  if (!found) throw notFound('This invitation link is not valid. Ask your friend to send a new one.');
  return { ...found, playlist: inviterPlaylistSchema.parse(found.invitation.inviterPlaylist) };
}

export async function viewInvitation(deps: AppDeps, token: string): Promise<InvitationView> {
  const { invitation, inviterName, playlist } = await findByToken(deps, token);
  return {
    inviterName,
    playlistName: playlist.name,
    trackCount: playlist.trackCount,
    status: statusOf(invitation),
    mergedPlaylistId: invitation.mergedPlaylistId,
    expiresAt: invitation.expiresAt.toISOString(),
  };
}

export async function acceptInvitation(
  deps: AppDeps,
  mailer: Mailer,
  user: SessionUser | null,
  token: string,
  input: {
    playlistId?: string | undefined;
    service?: 'spotify' | 'apple' | undefined;
    shareUrl?: string | undefined;
  },
): Promise<MergePlaylistsResponse> {
  const { invitation, inviterName, inviterEmail, playlist } = await findByToken(deps, token);
  const status = statusOf(invitation);
  if (status === 'expired') throw gone('This invitation has expired. Ask your friend to send a new one.');
  if (status === 'merged') throw conflict('This invitation has already been used.');

  let friend: LoadedSide;
  if (input.shareUrl) {
    friend = await loadSharedSide(deps, user, { playlistId: input.shareUrl });
  } else if (input.playlistId) {
    if (!user) throw unauthorized('Sign in to use one of your own playlists, or paste a share URL.');
    friend = await loadOwnSide(deps, user, { playlistId: input.playlistId, service: input.service });
  } else {
    throw badRequest(MERGE_MESSAGES.bothPlaylists);
  }
  if (user) friend.owner = user.username;
  const you = await loadOwnSide(
    deps,
    { id: invitation.inviterId, username: inviterName },
    { playlistId: playlist.playlistId, service: playlist.service },
  );
  const searchProvider = await deps.providers.forUser(invitation.inviterId, you.service).catch(() => null);
  const merge = await createMerge(deps, {
    ownerId: invitation.inviterId,
    you,
    friend,
    mixRatio: [50, 50],
    includeBridgeTracks: true,
    searchProvider,
    invitationId: invitation.id,
  });
  const claimed = await claimPendingInvitation(deps.db, invitation.id, {
    mergedPlaylistId: merge.response.newPlaylistId,
    friendUserId: user?.id ?? null,
    friendPlaylist: {
      service: friend.service,
      playlistId: friend.playlistId,
      name: friend.name,
      owner: friend.owner,
      tracks: friend.tracks.length,
    },
  });
  if (!claimed) {
    // Someone answered the same link a moment earlier: theirs stands, this one is dropped.
    await deleteMergedPlaylist(deps.db, merge.response.newPlaylistId);
    throw conflict('This invitation has already been used.');
  }
  try {
    await mailer.send({
      to: inviterEmail,
      senderId: invitation.inviterId,
      subject: `${friend.owner} merged playlists with you`,
      text: [
        `${friend.owner} answered your invitation with "${friend.name}" (${SERVICE_LABELS[friend.service]}).`,
        `Your merged playlist "${merge.response.playlistName}" is ready:`,
        `${deps.config.publicUrl}/m/${merge.response.newPlaylistId}`,
      ].join('\n'),
    });
  } catch (error) {
    deps.logger.warn({ err: error }, 'merge result e-mail failed');
  }
  // The friend reads this answer: they are "you" in it, and the inviter is the friend.
  return merge.forFriend();
}

export async function listInvitations(deps: AppDeps, userId: string): Promise<InvitationSummary[]> {
  const rows = await listSentInvitations(deps.db, userId, 100);
  return rows.map((row) => ({
    id: row.id,
    friendEmail: row.friendEmail,
    playlistName: inviterPlaylistSchema.safeParse(row.inviterPlaylist).data?.name ?? 'Playlist',
    status: statusOf(row),
    mergedPlaylistId: row.mergedPlaylistId,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  }));
}
