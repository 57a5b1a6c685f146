import type {
  AcceptInvitationRequest,
  CreateInvitationResponse,
  InvitationSummary,
  InvitationView,
  MergedPlaylist,
  MergePlaylistsRequest,
  MergePlaylistsResponse,
  SavePlaylistRequest,
  SavePlaylistResponse,
} from '../../../shared/api/merge';
import type { FriendPlaylist, PlaylistSummary } from '../../../shared/api/playlists';
import type { ServiceId } from '../../../shared/services';
import { apiJson } from '../../lib/api-client';

export const fetchFriendPlaylist = (shareUrl: string) =>
  apiJson<FriendPlaylist>('POST', '/api/fetch-friend-playlist', { shareUrl });

export const mergePlaylists = (body: MergePlaylistsRequest) =>
  apiJson<MergePlaylistsResponse>('POST', '/api/claude/merge-playlists', body);

export const savePlaylist = (body: SavePlaylistRequest) =>
  apiJson<SavePlaylistResponse>('POST', '/api/save-playlist', body);

export const listMyPlaylists = (service: ServiceId) =>
  apiJson<PlaylistSummary[]>('GET', `/api/playlists/${service}`);

export const getMergedPlaylist = (id: string) =>
  apiJson<MergedPlaylist>('GET', `/api/merged-playlists/${encodeURIComponent(id)}`);

export const createInvitation = (body: { playlistId: string; service: ServiceId; friendEmail: string }) =>
  apiJson<CreateInvitationResponse>('POST', '/api/merge/invitations', body);

export const listInvitations = () => apiJson<InvitationSummary[]>('GET', '/api/merge/invitations');

export const getInvitation = (token: string) =>
  apiJson<InvitationView>('GET', `/api/merge/invitations/${encodeURIComponent(token)}`);

export const acceptInvitation = (token: string, body: AcceptInvitationRequest) =>
  apiJson<MergePlaylistsResponse>('POST', `/api/merge/invitations/${encodeURIComponent(token)}/accept`, body);

/** The public page of a merged playlist, as "Share with Friend" copies it. */
export const mergedPlaylistUrl = (id: string) => `${window.location.origin}/m/${id}`;
