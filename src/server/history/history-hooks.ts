import { parseCollectionId } from '../../shared/library-ids';
import type { ServiceId } from '../../shared/services';
import type { AppDeps } from '../app-context';
import type { syncs } from '../db/schema';
import { IMPORT_PREFIX } from '../playlists/source-playlists';
import type { MusicProvider, PlaylistContents, PlaylistEntry } from '../providers/types';
import { type Observation, recordObservation } from './playlist-history';

/**
 * The calls transfers, syncs, batches and restores make to keep every playlist's history (decision
 * 0030): `history.read` after reading a playlist, `history.wrote` after writing one. A history that cannot
 * be written never fails the work it describes: it is logged. (A backup's versions are its contents, so
 * the backup job calls `recordBackupVersion` itself, decision 0038.)
 */

interface Where {
  userId: string;
  service: ServiceId;
  playlistId: string;
}

/** Imported lists and library collections (Liked Songs, albums) are not playlists with a history. */
const hasHistory = (playlistId: string) =>
  !playlistId.startsWith(IMPORT_PREFIX) && parseCollectionId(playlistId) === null;

async function record(deps: Pick<AppDeps, 'db' | 'logger'>, observation: Observation) {
  if (!hasHistory(observation.playlistId)) return null;
  try {
    return await recordObservation(deps.db, observation);
  } catch (error) {
    deps.logger.warn(
      { err: error, service: observation.service, playlistId: observation.playlistId },
      'the playlist history was not recorded',
    );
    return null;
  }
}

export const history = {
  /** Crossfade read this playlist for a transfer, sync or batch. */
  read: (
    deps: Pick<AppDeps, 'db' | 'logger'>,
    where: Where & { contents: PlaylistContents; cause: Observation['cause']; origin?: string },
  ) =>
    record(deps, {
      ...where,
      name: where.contents.playlist.name,
      entries: where.contents.entries,
      mode: 'read',
    }),

  /**
   * Crossfade wrote this playlist: what it holds now, as the writer's read-back saw it (`entries`), else
   * read once more with the writer's client.
   */
  async wrote(
    deps: Pick<AppDeps, 'db' | 'logger'>,
    where: Where & {
      provider: MusicProvider;
      cause: Observation['cause'];
      origin: string;
      readBack?: { name: string; entries: PlaylistEntry[] } | null;
    },
  ) {
    if (!hasHistory(where.playlistId)) return null;
    let contents = where.readBack ?? null;
    if (!contents) {
      try {
        const read = await where.provider.getPlaylist(where.playlistId);
        contents = { name: read.playlist.name, entries: read.entries };
      } catch (error) {
        deps.logger.warn(
          { err: error, playlistId: where.playlistId },
          'the playlist was not read for its history',
        );
        return null;
      }
    }
    const { provider: _provider, readBack: _readBack, ...rest } = where;
    return record(deps, { ...rest, name: contents.name, entries: contents.entries, mode: 'write' });
  },

  /** What a sync run read of both its playlists (a destination not yet created has none). */
  async readSyncPair(
    deps: Pick<AppDeps, 'db' | 'logger'>,
    sync: Pick<SyncRow, 'userId' | 'sourceService' | 'sourcePlaylistId' | 'destinationService'>,
    source: PlaylistContents,
    destination: { playlistId: string | null; entries: PlaylistEntry[] },
  ) {
    const { userId } = sync;
    await history.read(deps, {
      userId,
      service: sync.sourceService,
      playlistId: sync.sourcePlaylistId,
      contents: source,
      cause: 'sync',
    });
    if (!destination.playlistId) return;
    await history.read(deps, {
      userId,
      service: sync.destinationService,
      playlistId: destination.playlistId,
      contents: {
        playlist: { ...source.playlist, id: destination.playlistId },
        entries: destination.entries,
      },
      cause: 'sync',
    });
  },
};

type SyncRow = typeof syncs.$inferSelect;

/** The origins writers record, so an undo finds what a run or a transfer wrote. */
export const transferOrigin = (transferId: string) => `transfer:${transferId}`;
export const syncRunOrigin = (syncId: string, runId: string) => `sync:${syncId}:run:${runId}`;
