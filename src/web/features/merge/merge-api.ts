import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  type AcceptInvitationRequest,
  createInvitationResponseSchema,
  invitationListSchema,
  invitationViewSchema,
  type MergePlaylistsRequest,
  mergedPlaylistSchema,
  mergePlaylistsResponseSchema,
  type SavePlaylistRequest,
  savePlaylistResponseSchema,
} from '../../../shared/api/merge';
import { friendPlaylistSchema } from '../../../shared/api/playlists';
import type { ServiceId } from '../../../shared/services';
import { request } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { invalidatePlaylists } from '../playlists';

export const INVITATIONS_KEY = ['merge-invitations'] as const;

export const invitationsQuery = () =>
  queryOptions({
    queryKey: INVITATIONS_KEY,
    queryFn: ({ signal }) =>
      request(invitationListSchema, 'GET', '/api/merge/invitations', undefined, { signal }),
  });

export const invitationQuery = (token: string) =>
  queryOptions({
    queryKey: [...INVITATIONS_KEY, token],
    queryFn: ({ signal }) =>
      request(invitationViewSchema, 'GET', `/api/merge/invitations/${encodeURIComponent(token)}`, undefined, {
        signal,
      }),
  });

export const mergedPlaylistQuery = (id: string) =>
  queryOptions({
    queryKey: ['merged-playlists', id],
    queryFn: ({ signal }) =>
      request(mergedPlaylistSchema, 'GET', `/api/merged-playlists/${encodeURIComponent(id)}`, undefined, {
        signal,
      }),
  });

/** A friend's playlist read from its share URL (a POST: the server reads the service for it). */
export const useFetchFriendPlaylist = () =>
  useMutation({
    mutationFn: (shareUrl: string) =>
      request(friendPlaylistSchema, 'POST', '/api/fetch-friend-playlist', { shareUrl }),
  });

/** The merge itself: a new merged playlist of the person's. */
export const useMergePlaylists = () =>
  useMutation({
    mutationFn: (body: MergePlaylistsRequest) =>
      request(mergePlaylistsResponseSchema, 'POST', '/api/claude/merge-playlists', body),
  });

/** The owner's switch: the answer is the merge as it now is, kept as the page's data. */
export const useSetMergePublic = (id: string) =>
  useMutation({
    mutationFn: (isPublic: boolean) =>
      request(mergedPlaylistSchema, 'PATCH', `/api/merged-playlists/${encodeURIComponent(id)}`, {
        public: isPublic,
      }),
    onSuccess: (updated) => queryClient.setQueryData(mergedPlaylistQuery(id).queryKey, updated),
  });

/** Saves the merged playlist to the person's library: their lists of playlists are read again. */
export const useSaveMergedPlaylist = () =>
  useMutation({
    mutationFn: (body: SavePlaylistRequest) =>
      request(savePlaylistResponseSchema, 'POST', '/api/save-playlist', body),
    onSuccess: () => invalidatePlaylists(),
  });

/** A new invitation joins the person's list of invitations. */
export const useCreateInvitation = () =>
  useMutation({
    mutationFn: (body: { playlistId: string; service: ServiceId; friendEmail: string }) =>
      request(createInvitationResponseSchema, 'POST', '/api/merge/invitations', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: INVITATIONS_KEY }),
  });

/** Answering an invitation makes the merge; the inviter's list of invitations changes. */
export const useAcceptInvitation = (token: string) =>
  useMutation({
    mutationFn: (body: AcceptInvitationRequest) =>
      request(
        mergePlaylistsResponseSchema,
        'POST',
        `/api/merge/invitations/${encodeURIComponent(token)}/accept`,
        body,
      ),
    // The inviter's list (not this page's invitation, which keeps showing what was accepted).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: INVITATIONS_KEY, exact: true }),
  });

/** The public page of a merged playlist, as "Share with Friend" copies it. */
export const mergedPlaylistUrl = (id: string) => `${window.location.origin}/m/${id}`;
