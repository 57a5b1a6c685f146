import type { SessionUser } from '../../shared/api/auth';
import { NO_DATA_MESSAGE } from '../../shared/api/export';
import { SAMPLE_PLAYLIST_PREFIX, SAMPLE_PLAYLISTS } from '../../shared/api/visualizations';
import type { ServiceId } from '../../shared/services';
import type { AppDeps } from '../app-context';
import { badRequest, notFound, unauthorized } from '../domain-errors';
import { loadSourcePlaylist } from '../playlists/source-playlists';
import type { NormalizedTrack } from '../providers/types';

/** What an export is built from: one playlist and its tracks (entries that are not tracks are left out). */
export interface ExportSource {
  playlist: { id: string; name: string; description: string };
  tracks: NormalizedTrack[];
}

/**
 * The playlist to export: the person's own (on a connected service, or an imported file), or one of the
 * sample playlists, which anyone may export since they hold nothing private. An empty playlist is a 400
 * "No data to export" (spec section 5).
 */
export async function loadExportSource(
  deps: AppDeps,
  user: SessionUser | null,
  service: ServiceId,
  playlistId: string,
): Promise<ExportSource> {
  const source = playlistId.startsWith(SAMPLE_PLAYLIST_PREFIX)
    ? sampleSource(playlistId)
    : await ownSource(deps, user, service, playlistId);
  if (source.tracks.length === 0) throw badRequest(NO_DATA_MESSAGE);
  return source;
}

function sampleSource(playlistId: string): ExportSource {
  const sample = SAMPLE_PLAYLISTS.find((playlist) => playlist.id === playlistId);
  if (!sample) throw notFound('That sample playlist does not exist.');
  return {
    playlist: { id: sample.id, name: sample.name, description: sample.description },
    tracks: sample.tracks.map((track) => ({
      id: track.id,
      uri: `crossfade:sample:${track.id}`,
      name: track.name,
      artists: track.artists,
      album: track.album,
      durationMs: track.durationMs,
      releaseDate: String(track.releaseYear),
      genres: track.genres,
    })),
  };
}

async function ownSource(
  deps: AppDeps,
  user: SessionUser | null,
  service: ServiceId,
  playlistId: string,
): Promise<ExportSource> {
  if (!user) throw unauthorized('Please sign in to export your playlists.');
  const contents = await loadSourcePlaylist(deps, user.id, service, playlistId);
  return {
    playlist: {
      id: contents.playlist.id,
      name: contents.playlist.name,
      description: contents.playlist.description ?? '',
    },
    tracks: contents.entries.flatMap((entry) => (entry.kind === 'track' ? [entry.track] : [])),
  };
}
