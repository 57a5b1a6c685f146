import type { ShareUrlType } from './types';

/** Every message a person can see from the share-URL parser, in one place so tests can name them. */
export const SHARE_URL_MESSAGES = {
  empty: 'Paste a Spotify or Apple Music link.',
  tooLong: 'This is too long to be a Spotify or Apple Music link.',
  notOurs: 'This is not a Spotify or Apple Music link.',
  spotifyShortLink:
    "Spotify short links (spotify.link) can't be opened offline; open the link and copy the full open.spotify.com address instead.",
  appleShortLink:
    "Apple Music short links (apple.co) can't be opened offline; open the link and copy the full music.apple.com address instead.",
  spotifyUnknownPage: "This Spotify link doesn't point to a playlist, track, album, artist, episode or show.",
  spotifyBadId: 'This Spotify link has a broken id (Spotify ids are exactly 22 letters and digits).',
  spotifyLocalFile:
    "This is a Spotify local file; local files aren't in Spotify's catalog and can't be shared.",
  spotifyProfile: 'This is a Spotify profile link; open one of its playlists and copy that link instead.',
  appleUnknownPage: "This Apple Music link doesn't point to a playlist, song, album or artist.",
  appleBadId: 'This Apple Music link has a broken id; copy the link again with Share › Copy Link.',
  appleNoStorefront: 'This Apple Music link is missing its country part (such as /us/); copy the link again.',
} as const;

const ARTICLE: Record<ShareUrlType, string> = {
  playlist: 'a playlist',
  'library-playlist': 'a library playlist',
  track: 'a track',
  song: 'a song',
  album: 'an album',
  artist: 'an artist',
  episode: 'an episode',
  show: 'a show',
};

/** "Crossfade needs a playlist link here, not an album link." */
export const wrongTypeMessage = (wanted: string, got: ShareUrlType): string =>
  `Crossfade needs ${wanted} link here, not ${ARTICLE[got]} link.`;
