// The public face of the recreate feature: pages and other features import from here only.
export { ChooseDestination } from './choose-destination';
export type { RebuiltPlaylist } from './recreate-api';
export { RecreateSources } from './recreate-sources';
