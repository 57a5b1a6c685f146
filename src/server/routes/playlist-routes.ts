import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import {
  type FetchPlaylistTracksResponse,
  type FriendPlaylist,
  fetchFriendPlaylistRequestSchema,
  fetchPlaylistTracksRequestSchema,
} from '../../shared/api/playlists';
import { serviceIdSchema } from '../../shared/services';
import type { AppDeps, AppEnv } from '../app-context';
import { badRequest, invalidRows } from '../domain-errors';
import { ApiError } from '../http/errors';
import { requireUser } from '../http/require-user';
import { readJson, validate } from '../http/validation';
import { MAX_IMPORT_BYTES, parsePlaylistCsv } from '../import/csv-playlist';
import { readPlaylistFromLink } from '../playlists/shared-playlists';
import {
  listSourcePlaylistsJson,
  saveImportedPlaylist,
  toPlaylistDto,
  toTrackDto,
} from '../playlists/source-playlists';

/** Playlists: the person's own, shared links, and file imports (spec sections 3 and 7). */
export function playlistRoutes(deps: AppDeps) {
  return new Hono<AppEnv>()
    .get('/playlists/:service', async (c) => {
      const user = requireUser(c);
      const service = validate(serviceIdSchema, c.req.param('service'));
      // `Cache-Control: no-cache` (a reload) asks the service again rather than the short cache.
      const fresh = /no-cache/i.test(c.req.header('cache-control') ?? '');
      const json = await listSourcePlaylistsJson(deps, user.id, service, { fresh });
      return c.body(json, 200, { 'content-type': 'application/json' });
    })
    .post('/fetch-playlist-tracks', async (c) => {
      const { playlistUrl } = await readJson(c, fetchPlaylistTracksRequestSchema);
      const contents = await readPlaylistFromLink(deps, c.get('user'), playlistUrl);
      const answer: FetchPlaylistTracksResponse = {
        playlist: { ...toPlaylistDto(contents.playlist), service: contents.service },
        tracks: contents.entries.flatMap((entry) =>
          entry.kind === 'track' ? [toTrackDto(entry.track)] : [],
        ),
        skipped: contents.entries.flatMap((entry) =>
          entry.kind === 'skipped'
            ? [
                {
                  position: entry.position,
                  reason: entry.reason,
                  ...(entry.name ? { name: entry.name } : {}),
                },
              ]
            : [],
        ),
      };
      return c.json(answer);
    })
    .post('/fetch-friend-playlist', async (c) => {
      const { shareUrl } = await readJson(c, fetchFriendPlaylistRequestSchema);
      const contents = await readPlaylistFromLink(deps, c.get('user'), shareUrl);
      const answer: FriendPlaylist = {
        id: contents.playlist.id,
        name: contents.playlist.name,
        owner: contents.playlist.ownerName ?? 'Unknown',
        trackCount: contents.entries.filter((entry) => entry.kind === 'track').length,
        service: contents.service,
      };
      return c.json(answer);
    })
    .post(
      '/import/csv',
      bodyLimit({
        maxSize: MAX_IMPORT_BYTES,
        onError: () => {
          throw new ApiError(413, 'The file is too large (5 MB at most).');
        },
      }),
      async (c) => {
        const user = requireUser(c);
        const fileName = c.req.query('fileName') ?? undefined;
        const bytes = new Uint8Array(await c.req.arrayBuffer());
        if (bytes.length === 0) throw badRequest('The file is empty.');
        const result = parsePlaylistCsv(bytes, fileName ? { fileName } : {});
        if (!result.ok) throw invalidRows(result.message, result.problems);
        const playlistId = await saveImportedPlaylist(deps, {
          userId: user.id,
          name: result.playlistName,
          originService: result.entries.some((entry) => entry.sourceService === 'spotify') ? 'spotify' : null,
          tracks: result.entries.map(
            ({ row: _row, sourceService: _service, addedAt: _added, ...track }) => track,
          ),
        });
        return c.json(
          {
            playlist: { id: playlistId, name: result.playlistName, trackCount: result.entries.length },
            warnings: result.warnings,
          },
          201,
        );
      },
    );
}
