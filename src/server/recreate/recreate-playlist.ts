import type { SessionUser } from '../../shared/api/auth';
import type { RecreateResponse } from '../../shared/api/recreate';
import type { AppDeps } from '../app-context';
import { badRequest, invalidRows } from '../domain-errors';
import { type ListedTrack, parseTrackList } from '../import/track-list';
import { splitArtistString } from '../matching';
import { readPlaylistFromLink } from '../playlists/shared-playlists';
import { saveImportedPlaylist } from '../playlists/source-playlists';
import type { NormalizedTrack, SkipReason } from '../providers/types';

/**
 * A typed line as a matching source: no ids (`list-<line>` stands in), no album, and a duration only
 * when the line gave one (0 tells matching not to compare durations).
 */
export function listedTrackToSource(entry: ListedTrack): NormalizedTrack {
  const id = `list-${entry.row}`;
  return {
    id,
    uri: id,
    name: entry.title,
    artists: entry.artist === undefined ? [] : splitArtistString(entry.artist),
    album: '',
    durationMs: entry.durationMs ?? 0,
  };
}

/** A pasted list of songs becomes an imported playlist the transfer wizard can match and transfer. */
export async function recreateFromList(
  deps: AppDeps,
  user: SessionUser,
  input: { name: string; text: string },
): Promise<RecreateResponse> {
  const parsed = parseTrackList(input.text);
  if (!parsed.ok) throw invalidRows(parsed.message, parsed.problems);
  const tracks = parsed.entries.map(listedTrackToSource);
  const id = await saveImportedPlaylist(deps, {
    userId: user.id,
    name: input.name,
    originService: null,
    tracks,
  });
  return {
    playlist: { id, name: input.name, trackCount: tracks.length },
    problems: parsed.problems,
    originService: null,
  };
}

const SKIP_WORDS: Record<SkipReason, string> = {
  unavailable: 'is no longer available',
  local_file: 'is a local file, which is not in the catalog',
  episode: 'is a podcast episode',
  video: 'is a music video',
  not_in_catalog: 'is not in the catalog',
  unreadable: 'could not be read from the service',
};

/** A playlist that still opens by its share URL is copied as it is now, skipped entries reported. */
export async function recreateFromLink(
  deps: AppDeps,
  user: SessionUser,
  playlistUrl: string,
): Promise<RecreateResponse> {
  const contents = await readPlaylistFromLink(deps, user, playlistUrl);
  const tracks = contents.entries.flatMap((entry) => (entry.kind === 'track' ? [entry.track] : []));
  if (tracks.length === 0) throw badRequest('That playlist has no songs to rebuild.');
  const name = contents.playlist.name.trim() || 'Recreated playlist';
  const id = await saveImportedPlaylist(deps, {
    userId: user.id,
    name,
    originService: contents.service,
    tracks,
  });
  const problems = contents.entries.flatMap((entry) =>
    entry.kind === 'skipped'
      ? [
          {
            row: entry.position + 1,
            message: `Entry ${entry.position + 1}${entry.name ? ` (${entry.name})` : ''} ${SKIP_WORDS[entry.reason]}.`,
          },
        ]
      : [],
  );
  return { playlist: { id, name, trackCount: tracks.length }, problems, originService: contents.service };
}
