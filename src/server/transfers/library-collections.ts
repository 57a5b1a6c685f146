import type { PlaylistKind } from '../../shared/api/playlists';
import type { AlbumMatchView } from '../../shared/api/transfer';
import { parseCollectionId } from '../../shared/library-ids';
import { SERVICE_LABELS, type ServiceId } from '../../shared/services';
import type { StoredAlbumMatch } from '../db/stored-json';
import { type AlbumInfo, findAlbumMatch, mapAlbumTracks, type PairedTrack } from '../matching/albums';
import type { MusicProvider, NormalizedTrack } from '../providers/types';

/**
 * Library collections as a transfer's source (issue 14): Liked Songs / Apple favourites and saved albums
 * travel through the same match → review → transfer flow as playlists, under the ids of
 * src/shared/library-ids.ts. This module holds what differs: the album-level match, and how the result
 * says where things went.
 */

export const collectionKind = (playlistId: string): PlaylistKind =>
  parseCollectionId(playlistId)?.kind ?? 'playlist';

/**
 * The source album as its service lists it (with its UPC), or, when the library no longer lists it,
 * what its tracks say.
 */
export async function sourceAlbumInfo(
  source: MusicProvider,
  albumId: string,
  tracks: readonly NormalizedTrack[],
): Promise<AlbumInfo> {
  const library = await source.listLibrary();
  const listed = library.albums.find((entry) => entry.album.id === albumId)?.album;
  if (listed) return listed;
  const first = tracks[0];
  return {
    id: albumId,
    name: first?.album ?? '',
    artists: first ? first.artists.slice(0, 1) : [],
    trackCount: tracks.length,
  };
}

/** Finds the album on the destination and reads its tracks (matching stores the answer once). */
export async function matchSavedAlbum(
  sourceAlbum: AlbumInfo,
  destination: MusicProvider,
  region: string,
): Promise<StoredAlbumMatch> {
  const match = await findAlbumMatch(sourceAlbum, destination, { region });
  const destinationTracks = match ? await destination.getAlbumTracks(match.album.id, { region }) : [];
  return { source: sourceAlbum, match, destinationTracks };
}

/** Each source track's pair on the matched album, by source position; empty when no album matched. */
export function pairedByPosition(
  stored: StoredAlbumMatch | null,
  tracks: readonly { position: number; track: NormalizedTrack }[],
): Map<number, PairedTrack> {
  const pairs = new Map<number, PairedTrack>();
  if (!stored?.match) return pairs;
  const paired = mapAlbumTracks(
    tracks.map((entry) => entry.track),
    stored.destinationTracks,
  );
  tracks.forEach((entry, index) => {
    const pair = paired[index];
    if (pair) pairs.set(entry.position, pair);
  });
  return pairs;
}

export function albumMatchView(stored: StoredAlbumMatch): AlbumMatchView {
  const match = stored.match;
  return {
    sourceAlbum: {
      name: stored.source.name,
      artists: stored.source.artists,
      trackCount: stored.source.trackCount,
    },
    matchedAlbum: match
      ? {
          id: match.album.id,
          name: match.album.name,
          artists: match.album.artists,
          trackCount: match.album.trackCount,
          ...(match.album.imageUrl ? { imageUrl: match.album.imageUrl } : {}),
          ...(match.album.url ? { url: match.album.url } : {}),
        }
      : null,
    method: match?.method ?? null,
    confidence: match?.confidence ?? 0,
    reason:
      match?.reason ??
      'no album with this UPC, or this title, artist and track count: matched track by track',
  };
}

/** Where tracks saved one by one end up: Spotify's Liked Songs, Apple's library (as favourites). */
export const savedTracksPlace = (service: ServiceId) =>
  service === 'spotify' ? 'your Liked Songs on Spotify' : 'your Apple Music library';

/** The sentence the result, the history and the CSV say about where a collection went. */
export function savedToText(input: {
  kind: 'liked' | 'album';
  destination: ServiceId;
  albumSaved: boolean;
  savedTracks: number;
  playlistName: string | null;
}): string {
  const { destination } = input;
  const library = `your ${SERVICE_LABELS[destination]} library`;
  const songs = (count: number) => `${count} ${count === 1 ? 'song' : 'songs'}`;
  let text: string;
  if (input.kind === 'liked') {
    text = `Saved to ${savedTracksPlace(destination)}`;
    if (destination === 'apple') text += ' as favourites';
  } else if (input.albumSaved) {
    text = `Saved to ${library} as an album`;
    if (input.savedTracks > 0)
      text += `, and ${songs(input.savedTracks)} not on that album to ${savedTracksPlace(destination)}`;
  } else {
    text = `No matching album on ${SERVICE_LABELS[destination]}: its ${songs(input.savedTracks)} were saved one by one to ${savedTracksPlace(destination)}`;
  }
  if (input.playlistName) text += `, and to the new playlist “${input.playlistName}”`;
  return text;
}
