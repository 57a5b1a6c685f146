import type { NormalizedTrack, PlaylistEntry } from '../types';
import { playlistItemSchema, type SpotifyPlaylistItem, type SpotifyTrack } from './schemas';

const ALBUM_TYPES = new Set(['album', 'single', 'compilation']);

export function normalizeTrack(track: SpotifyTrack): NormalizedTrack | null {
  if (track.id === null || track.is_local === true) return null;
  const isrc = track.external_ids?.isrc?.toUpperCase();
  const imageUrl = track.album.images?.[0]?.url;
  const albumType = track.album.album_type;
  const availability: NonNullable<NormalizedTrack['availability']> = {};
  if (track.is_playable !== undefined) availability.playable = track.is_playable;
  if (track.available_markets) availability.regions = track.available_markets;
  return {
    id: track.id,
    uri: track.uri,
    name: track.name,
    artists: track.artists.map((artist) => artist.name),
    album: track.album.name,
    durationMs: track.duration_ms,
    ...(isrc ? { isrc } : {}),
    ...(track.explicit === undefined ? {} : { explicit: track.explicit }),
    ...(imageUrl ? { imageUrl } : {}),
    ...(track.album.release_date ? { releaseDate: track.album.release_date } : {}),
    ...(albumType && ALBUM_TYPES.has(albumType)
      ? { albumType: albumType as NonNullable<NormalizedTrack['albumType']> }
      : {}),
    ...(track.track_number === undefined ? {} : { trackNumber: track.track_number }),
    ...(track.external_urls?.spotify ? { url: track.external_urls.spotify } : {}),
    ...(Object.keys(availability).length > 0 ? { availability } : {}),
  };
}

/**
 * One playlist item as an entry: a track, or a skipped entry that keeps what is known of it. Parsed on its
 * own, so an item of a kind we do not know (or with a broken field) is reported, not fatal to the page.
 */
export function toPlaylistEntry(raw: unknown, position: number): PlaylistEntry {
  const parsed = playlistItemSchema.safeParse(raw);
  if (!parsed.success) {
    const content =
      (raw as { item?: unknown; track?: unknown } | null)?.item ?? (raw as { track?: unknown } | null)?.track;
    const name = (content as { name?: unknown } | null | undefined)?.name;
    return {
      position,
      kind: 'skipped',
      reason: 'unreadable',
      ...(typeof name === 'string' ? { name } : {}),
    };
  }
  return parsedEntry(parsed.data, position);
}

function parsedEntry(item: SpotifyPlaylistItem, position: number): PlaylistEntry {
  const content = item.item ?? item.track ?? null;
  if (content === null) return { position, kind: 'skipped', reason: 'unavailable' };
  if (content.type === 'episode') {
    return {
      position,
      kind: 'skipped',
      reason: 'episode',
      name: content.name,
      ...(content.show ? { artists: [content.show.name] } : {}),
      ...(content.duration_ms === undefined ? {} : { durationMs: content.duration_ms }),
    };
  }
  if (item.is_local === true || content.is_local === true) {
    return {
      position,
      kind: 'skipped',
      reason: 'local_file',
      name: content.name,
      artists: content.artists.map((artist) => artist.name),
      album: content.album.name,
      durationMs: content.duration_ms,
    };
  }
  const track = normalizeTrack(content);
  return track ? { position, kind: 'track', track } : { position, kind: 'skipped', reason: 'unavailable' };
}
