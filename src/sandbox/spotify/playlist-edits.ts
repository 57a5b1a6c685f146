import { isoSeconds } from './api-kit';
import type { StoredEntry, StoredPlaylist } from './state';
import type { SpotifyWorld } from './world';

/**
 * Changes to a playlist's items, one place for the Web API and the sandbox's own web page: each write
 * bumps the playlist's version (a new `snapshot_id`) and is stored before the caller answers.
 */

/** Inserts tracks at `position` (the end when undefined), added by `userId` now. */
export function insertTracks(
  world: SpotifyWorld,
  playlistId: string,
  userId: string,
  trackIds: string[],
  position?: number,
): StoredPlaylist | undefined {
  const addedAt = isoSeconds(world.now());
  return world.store.changePlaylist(playlistId, (playlist) => {
    const entries: StoredEntry[] = trackIds.map((trackId) => ({
      kind: 'track',
      trackId,
      addedAt,
      addedBy: userId,
    }));
    playlist.entries.splice(position ?? playlist.entries.length, 0, ...entries);
    playlist.version += 1;
    return playlist;
  });
}

/** Removes every occurrence of each track (the Web API's rule). */
export function removeTracks(
  world: SpotifyWorld,
  playlistId: string,
  trackIds: ReadonlySet<string>,
): StoredPlaylist | undefined {
  return world.store.changePlaylist(playlistId, (playlist) => {
    playlist.entries = playlist.entries.filter(
      (entry) => !(entry.kind === 'track' && trackIds.has(entry.trackId)),
    );
    playlist.version += 1;
    return playlist;
  });
}

/** Removes the one item at `position` (what the app's "Remove from this playlist" does). */
export function removeItemAt(world: SpotifyWorld, playlistId: string, position: number) {
  return world.store.changePlaylist(playlistId, (playlist) => {
    playlist.entries.splice(position, 1);
    playlist.version += 1;
    return playlist;
  });
}

/**
 * Moves `rangeLength` items starting at `rangeStart` to before the item at `insertBefore` (positions of
 * the playlist before the move), as Spotify's reorder does.
 */
export function moveItems(
  world: SpotifyWorld,
  playlistId: string,
  move: { rangeStart: number; insertBefore: number; rangeLength: number },
) {
  return world.store.changePlaylist(playlistId, (playlist) => {
    const { rangeStart, insertBefore, rangeLength } = move;
    const moved = playlist.entries.splice(rangeStart, rangeLength);
    const target = insertBefore > rangeStart ? insertBefore - moved.length : insertBefore;
    playlist.entries.splice(target, 0, ...moved);
    playlist.version += 1;
    return playlist;
  });
}

/** Replaces every item with these tracks (the Web API's PUT with `uris`). */
export function replaceTracks(world: SpotifyWorld, playlistId: string, userId: string, trackIds: string[]) {
  const addedAt = isoSeconds(world.now());
  return world.store.changePlaylist(playlistId, (playlist) => {
    playlist.entries = trackIds.map((trackId) => ({ kind: 'track', trackId, addedAt, addedBy: userId }));
    playlist.version += 1;
    return playlist;
  });
}
