// The public face of the friend-merge feature: other features import from here only.
export { FriendMergePanel } from './friend-merge-panel';
export { InvitationList } from './invitation-list';
export { InviteFriendCard } from './invite-friend-card';
export { MergeActions } from './merge-actions';
export { invitationQuery, mergedPlaylistQuery, useAcceptInvitation, useSetMergePublic } from './merge-api';
export { announceMerged, MergeResultView } from './merge-result';
export { type ChosenPlaylist, MyPlaylistPicker } from './my-playlist-picker';
