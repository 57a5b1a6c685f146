// The public face of the playlists resource, shared by the wizard, export, merge and everything that
// creates a playlist: other features import from here only.
export {
  invalidatePlaylists,
  PLAYLISTS_KEY,
  playlistsQuery,
  type ServicePlaylists,
  usePlaylistsOf,
} from './playlists-api';
