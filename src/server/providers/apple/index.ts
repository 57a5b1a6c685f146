export {
  APPLE_APPEND_ONLY_NOTICE,
  APPLE_PLAYLISTS_APPEND_ONLY,
  AppleMusicProvider,
  type AppleMusicProviderOptions,
} from './client';
export {
  createDeveloperTokenSigner,
  type DeveloperTokenSignerOptions,
  type DeveloperTokenSource,
  generateSandboxAppleKeys,
  MAX_DEVELOPER_TOKEN_LIFETIME_S,
  type SandboxAppleKeys,
} from './developer-token';
export { songToTrack, splitArtistName, splitFeaturedCredit } from './normalize';
