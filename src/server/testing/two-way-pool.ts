import type { SyncRun, SyncRunList } from '../../shared/api/syncs';
import type { AppDeps } from '../app-context';
import type { NormalizedTrack } from '../providers/types';
import type { TestClient } from './test-server';
import { waitUntil } from './wait-until';

/** A song both services carry, as each names it. */
export interface TwinSong {
  spotify: NormalizedTrack;
  apple: NormalizedTrack;
}

const isrcOf = (track: { isrc?: string | undefined }) => track.isrc?.toUpperCase() ?? '';

/**
 * Songs of the person's Spotify library whose match to Apple Music is sure both ways (one Apple track per
 * ISRC, the same title and artists, and taken by the matching engine without review, as a one-way preview
 * of them all shows), with distinct titles, so that a song is found on a playlist page by its title. Two-way
 * sync tests build their playlists from these, so what they assert does not depend on a review band.
 */
export async function sureSongs(deps: AppDeps, client: TestClient, userId: string): Promise<TwinSong[]> {
  const spotify = await deps.providers.forUser(userId, 'spotify');
  const apple = await deps.providers.forUser(userId, 'apple');
  const tracks: NormalizedTrack[] = [];
  for (const playlist of await spotify.listPlaylists()) {
    if (playlist.isOwned === false || playlist.id.includes(':')) continue;
    for (const entry of (await spotify.getPlaylist(playlist.id)).entries)
      if (entry.kind === 'track' && entry.track.isrc && !tracks.some((t) => t.isrc === entry.track.isrc))
        tracks.push(entry.track);
    if (tracks.length >= 120) break;
  }
  const onApple = await apple.lookupIsrcs(tracks.map(isrcOf));
  const titles = new Set<string>();
  const candidates = tracks.flatMap((track) => {
    const twins = onApple.get(isrcOf(track)) ?? [];
    const twin = twins[0];
    if (!twin || twins.length !== 1 || twin.name !== track.name || titles.has(track.name)) return [];
    if (twin.artists.join() !== track.artists.join()) return [];
    titles.add(track.name);
    return [{ spotify: track, apple: twin }];
  });
  const probe = await spotify.createPlaylist('Probe of sure songs');
  await spotify.addTracks(
    probe.id,
    candidates.map((item) => item.spotify.uri),
  );
  const created = await client.post('/api/syncs', {
    sourceService: 'spotify',
    sourcePlaylistId: probe.id,
    destinationService: 'apple',
    schedule: 'manual',
    removals: false,
  });
  const { sync, run } = created.body as { sync: { id: string }; run: SyncRun };
  const previewed = await waitUntil(
    async () =>
      ((await client.get(`/api/syncs/${sync.id}/runs`)).body as SyncRunList).runs.find(
        (item) => item.id === run.id,
      ),
    (item) => item !== undefined && !['queued', 'running'].includes(item.status),
    120_000,
    50,
  );
  await client.send('DELETE', `/api/syncs/${sync.id}`);
  const added = new Set((previewed?.added ?? []).map((track) => track.name));
  return candidates.filter((item) => added.has(item.apple.name));
}
