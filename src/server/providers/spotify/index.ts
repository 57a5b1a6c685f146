export {
  buildSearchQuery,
  SpotifyProvider,
  type SpotifyProviderOptions,
  type SpotifyTokenSource,
} from './client';
export {
  DEVELOPMENT_MODE_SHARED_MESSAGE,
  describeSpotifyError,
  NOT_REGISTERED_MESSAGE,
  OWNER_WITHOUT_PREMIUM_MESSAGE,
} from './errors';
export {
  createSpotifyAuthorization,
  exchangeSpotifyCode,
  RECONNECT_MESSAGE,
  refreshSpotifyToken,
  SPOTIFY_SCOPES,
  type SpotifyAuthorizationRequest,
  type SpotifyOAuthConfig,
  type SpotifyTokens,
} from './oauth';
