// The public face of the friend-merge feature: other features import from here only.
export { FriendMergePanel } from './friend-merge-panel';
