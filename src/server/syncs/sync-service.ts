import type { CreateSyncRequest, Sync, SyncRun } from '../../shared/api/syncs';
import type { AppDeps } from '../app-context';
import { badRequest, notFound } from '../domain-errors';
import { loadSourcePlaylist } from '../playlists/source-playlists';
import { ProviderError } from '../providers/http';
import { insertSync, startRun, toSyncView } from './sync-store';

/** Creating a sync (issue 14, item 4; decision 0017): both playlists read before anything is stored. */

/** A provider's "not there" or "not yours" on a playlist the person named, as a clear 4xx. */
function playlistError(error: unknown, which: string): unknown {
  if (error instanceof ProviderError && (error.kind === 'not_found' || error.kind === 'bad_request')) {
    return notFound(`The ${which} playlist was not found.`);
  }
  if (error instanceof ProviderError && error.kind === 'forbidden') {
    return badRequest(`Crossfade cannot read the ${which} playlist: choose one of your own.`);
  }
  return error;
}

/** Creates a sync and starts its first run, which is always a preview. */
export async function createSync(
  deps: AppDeps,
  userId: string,
  input: CreateSyncRequest,
): Promise<{ sync: Sync; run: SyncRun }> {
  // Both services must be connected, and the playlists readable, before anything is stored.
  const destination = await deps.providers.forUser(userId, input.destinationService);
  const source = await loadSourcePlaylist(deps, userId, input.sourceService, input.sourcePlaylistId).catch(
    (error: unknown) => {
      throw playlistError(error, 'source');
    },
  );
  let destinationUrl: string | null = null;
  if (input.destinationPlaylistId) {
    const existing = await destination.getPlaylist(input.destinationPlaylistId).catch((error: unknown) => {
      throw playlistError(error, 'destination');
    });
    if (existing.playlist.isOwned === false) {
      throw badRequest(
        'Choose one of your own playlists as the destination: Crossfade can only add to those.',
      );
    }
    destinationUrl = existing.playlist.url ?? null;
  }
  if (
    input.direction === 'two-way' &&
    (source.playlist.isOwned === false || input.sourcePlaylistId.startsWith('import:'))
  ) {
    throw badRequest(
      'A two-way sync writes to both playlists: choose one of your own playlists on each side.',
    );
  }
  const sync = await insertSync(deps.db, userId, input, {
    sourcePlaylistName: source.playlist.name,
    destinationUrl,
  });
  const run = await startRun(deps, userId, sync.id, { trigger: 'first', dryRun: true });
  return { sync: toSyncView(sync, undefined), run };
}
