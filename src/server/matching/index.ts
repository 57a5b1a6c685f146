export {
  type CachedLookup,
  type CachedRequest,
  lookupCacheKey,
  type MatchCache,
  MemoryMatchCache,
} from './cache';
export { splitArtistString, splitArtists } from './credits';
export { normalizeIsrc } from './isrc';
export { foldDiacritics, foldText, unifyText } from './normalize';
export {
  MAX_CANDIDATES,
  type MatchOptions,
  matchTracks,
  SEARCH_LIMIT,
  TIE_MARGIN,
  type TieBreaker,
  type TieBreakerAnswer,
  type TrackMatch,
} from './pipeline';
export { type PreparedTrack, prepareTrack } from './prepare';
export {
  ACCEPT_THRESHOLD,
  type MatchStatus,
  REVIEW_THRESHOLD,
  rankCandidates,
  type ScoredCandidate,
  scoreCandidate,
  statusFor,
  VERSION_MISMATCH_CAP,
} from './score';
export { buildStrategies, type MatchStrategy, queryKey, type SearchStrategyName } from './strategies';
export { parseAlbum, parseTitle, type VersionKind, type VersionTag, versionLabel } from './versions';
