import {
  type ApiApp,
  type ApiContext,
  type ApiKit,
  apiError,
  intParam,
  MAX_ADD,
  paging,
  SCOPES,
} from './api-kit';
import { isBase62Id, randomBase62Id } from './ids';
import { insertTracks, moveItems, removeTracks, replaceTracks } from './playlist-edits';
import type { StoredPlaylist } from './state';
import { simplifiedPlaylistObject, snapshotId } from './wire-objects';

const MAX_COVER_BYTES = 256 * 1024;

/** Creating and changing playlists: details, cover, and adding, removing, reordering or replacing items. */
export function addPlaylistWriteRoutes(app: ApiApp, kit: ApiKit): void {
  // Retired in the 2026 changes; Spotify answers 403 on them, not 404.
  app.post('/v1/users/:id/playlists', (c) => apiError(c, 403, 'Forbidden'));
  app.on(['POST', 'PUT', 'DELETE'], '/v1/playlists/:id/tracks', (c) => apiError(c, 403, 'Forbidden'));

  app.post('/v1/me/playlists', (c) => createPlaylist(c, kit));
  app.put('/v1/playlists/:id', (c) => changeDetails(c, kit));
  app.put('/v1/playlists/:id/images', (c) => uploadCover(c, kit));
  app.post('/v1/playlists/:id/items', (c) => addItems(c, kit));
  app.delete('/v1/playlists/:id/items', (c) => removeItems(c, kit));
  app.put('/v1/playlists/:id/items', (c) => reorderOrReplaceItems(c, kit));
}

async function createPlaylist(c: ApiContext, kit: ApiKit) {
  const body = await c.req.json().catch(() => undefined);
  if (typeof body !== 'object' || body === null) return apiError(c, 400, 'Error parsing JSON.');
  const { name, description, public: isPublic, collaborative } = body as Record<string, unknown>;
  if (typeof name !== 'string' || name.trim() === '') return apiError(c, 400, 'Missing required field: name');
  if (collaborative === true && isPublic !== false) {
    return apiError(c, 400, 'Collaborative playlists can only be private.');
  }
  const refused = kit.missingScope(c, kit.modifyScope({ public: isPublic !== false }));
  if (refused) return refused;
  const user = c.get('user');
  const playlist: StoredPlaylist = {
    id: randomBase62Id(),
    name,
    description: typeof description === 'string' ? description : '',
    ownerId: user.id,
    public: isPublic !== false,
    collaborative: collaborative === true,
    version: 1,
    entries: [],
  };
  kit.world.store.addPlaylist(playlist);
  return c.json(
    {
      ...simplifiedPlaylistObject(kit.wire(c), playlist, user),
      description: playlist.description === '' ? null : playlist.description,
      followers: { href: null, total: 0 },
      items: paging(c, [], 0, 100, 0),
    },
    201,
  );
}

// Rename, describe, make public or private: 200 with an empty body.
async function changeDetails(c: ApiContext, kit: ApiKit) {
  const playlist = kit.findPlaylist(c.req.param('id') ?? '');
  const refused = kit.changeable(c, playlist);
  if (refused || !playlist) return refused ?? apiError(c, 404, 'Resource not found');
  const body = await c.req.json().catch(() => undefined);
  if (typeof body !== 'object' || body === null) return apiError(c, 400, 'Error parsing JSON.');
  const { name, description, public: isPublic, collaborative } = body as Record<string, unknown>;
  if (name !== undefined && (typeof name !== 'string' || name.trim() === '')) {
    return apiError(c, 400, 'Invalid name');
  }
  const nextPublic = typeof isPublic === 'boolean' ? isPublic : playlist.public;
  const nextCollaborative = typeof collaborative === 'boolean' ? collaborative : playlist.collaborative;
  if (nextCollaborative && nextPublic)
    return apiError(c, 400, 'Collaborative playlists can only be private.');
  kit.world.store.changePlaylist(playlist.id, (stored) => {
    if (typeof name === 'string') stored.name = name;
    if (typeof description === 'string') stored.description = description;
    stored.public = nextPublic;
    stored.collaborative = nextCollaborative;
    stored.version += 1;
  });
  return c.body(null, 200);
}

// Cover upload: the body is a base64 JPEG (at most 256 KB), answered 202 with no body.
async function uploadCover(c: ApiContext, kit: ApiKit) {
  const playlist = kit.findPlaylist(c.req.param('id') ?? '');
  const refused = kit.changeable(c, playlist, SCOPES.imageUpload);
  if (refused || !playlist) return refused ?? apiError(c, 404, 'Resource not found');
  if (!(c.req.header('content-type') ?? '').startsWith('image/jpeg')) {
    return apiError(c, 400, 'Content-Type must be image/jpeg');
  }
  const text = (await c.req.text()).trim();
  const bytes = /^[A-Za-z0-9+/]+={0,2}$/.test(text) ? Buffer.from(text, 'base64') : undefined;
  if (bytes?.[0] !== 0xff || bytes[1] !== 0xd8)
    return apiError(c, 400, 'Image must be a base64-encoded JPEG');
  if (bytes.length > MAX_COVER_BYTES) return apiError(c, 413, 'Image too large (at most 256 KB)');
  kit.world.store.changePlaylist(playlist.id, (stored) => {
    stored.coverJpeg = text;
    stored.version += 1;
  });
  return c.body(null, 202);
}

/** The JSON body of an items call ({} when empty), or the 400 Spotify answers. */
async function itemsBody(c: ApiContext): Promise<Record<string, unknown> | Response> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return apiError(c, 400, 'Error parsing JSON.');
  }
}

/** The track ids of `uris` (query first, as Spotify reads them), or the 400 Spotify answers. */
function trackIdsOf(c: ApiContext, kit: ApiKit, body: Record<string, unknown>): string[] | Response {
  const queryUris = c.req.query('uris');
  const uris: unknown = queryUris !== undefined ? queryUris.split(',').map((uri) => uri.trim()) : body.uris;
  if (!Array.isArray(uris) || uris.length === 0 || !uris.every((uri) => typeof uri === 'string')) {
    return apiError(c, 400, 'No uris provided');
  }
  if (uris.length > MAX_ADD)
    return apiError(c, 400, `You can add a maximum of ${MAX_ADD} tracks per request.`);
  const trackIds: string[] = [];
  for (const uri of uris as string[]) {
    if (uri.startsWith('spotify:local:'))
      return apiError(c, 400, 'Local tracks cannot be added to a playlist.');
    const id = /^spotify:track:(.+)$/.exec(uri)?.[1];
    if (id === undefined) return apiError(c, 400, `Unsupported URL / URI: ${uri}`);
    if (!isBase62Id(id)) return apiError(c, 400, 'Invalid base62 id');
    if (!kit.world.track(id)) return apiError(c, 400, 'Payload contains a non-existing ID');
    trackIds.push(id);
  }
  return trackIds;
}

/** The playlist an items write targets, when the caller owns it (or it is collaborative) with the scope. */
function writableItems(c: ApiContext, kit: ApiKit, verb: 'add' | 'remove') {
  const playlist = kit.findPlaylist(c.req.param('id') ?? '');
  if (!playlist) return apiError(c, 404, 'Resource not found');
  if (playlist.ownerId !== c.get('user').id && !playlist.collaborative) {
    const what = verb === 'add' ? 'add tracks to' : 'remove tracks from';
    return apiError(c, 403, `You cannot ${what} a playlist you don't own.`);
  }
  return kit.missingScope(c, kit.modifyScope(playlist)) ?? playlist;
}

async function addItems(c: ApiContext, kit: ApiKit) {
  const playlist = writableItems(c, kit, 'add');
  if (playlist instanceof Response) return playlist;
  const body = await itemsBody(c);
  if (body instanceof Response) return body;
  const trackIds = trackIdsOf(c, kit, body);
  if (trackIds instanceof Response) return trackIds;
  const rawPosition =
    c.req.query('position') ?? (body.position === undefined ? undefined : String(body.position));
  const position = intParam(rawPosition, playlist.entries.length, 0, playlist.entries.length);
  if (position === null) return apiError(c, 400, 'Index out of bounds');
  const { dropAdds } = kit.options;
  const kept = dropAdds ? dropAdds(trackIds) : trackIds;
  const updated = insertTracks(kit.world, playlist.id, c.get('user').id, kept, position);
  if (!updated) return apiError(c, 404, 'Resource not found');
  return c.json({ snapshot_id: snapshotId(updated) }, 201);
}

// Remove Playlist Items: every occurrence of each uri goes (Spotify's rule), at most 100 per call.
async function removeItems(c: ApiContext, kit: ApiKit) {
  const playlist = writableItems(c, kit, 'remove');
  if (playlist instanceof Response) return playlist;
  const body: unknown = await c.req.json().catch(() => undefined);
  const items = typeof body === 'object' && body !== null ? (body as { items?: unknown }).items : undefined;
  if (!Array.isArray(items) || items.length === 0) return apiError(c, 400, 'Missing required field: items');
  if (items.length > MAX_ADD)
    return apiError(c, 400, `You can remove a maximum of ${MAX_ADD} tracks per request.`);
  const trackIds = new Set<string>();
  for (const item of items) {
    const uri = typeof item === 'object' && item !== null ? (item as { uri?: unknown }).uri : undefined;
    const id = typeof uri === 'string' ? /^spotify:track:(.+)$/.exec(uri)?.[1] : undefined;
    if (id === undefined || !isBase62Id(id)) return apiError(c, 400, `Unsupported URL / URI: ${String(uri)}`);
    trackIds.add(id);
  }
  const updated = removeTracks(kit.world, playlist.id, trackIds);
  if (!updated) return apiError(c, 404, 'Resource not found');
  return c.json({ snapshot_id: snapshotId(updated) });
}

/**
 * Update Playlist Items: `range_start`, `insert_before` (and `range_length`, default 1) move items; `uris`
 * replaces them all. (Spotify applies a reorder to the `snapshot_id` it names; the emulator applies it to
 * the current items, which is the same while nobody else edits the playlist.)
 */
async function reorderOrReplaceItems(c: ApiContext, kit: ApiKit) {
  const playlist = writableItems(c, kit, 'add');
  if (playlist instanceof Response) return playlist;
  const body = await itemsBody(c);
  if (body instanceof Response) return body;
  if (c.req.query('uris') !== undefined || body.uris !== undefined) {
    const trackIds = trackIdsOf(c, kit, body);
    if (trackIds instanceof Response) return trackIds;
    const updated = replaceTracks(kit.world, playlist.id, c.get('user').id, trackIds);
    return updated ? c.json({ snapshot_id: snapshotId(updated) }) : apiError(c, 404, 'Resource not found');
  }
  const total = playlist.entries.length;
  const number = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) ? value : null);
  const rangeStart = number(body.range_start);
  const insertBefore = number(body.insert_before);
  const rangeLength = body.range_length === undefined ? 1 : number(body.range_length);
  if (rangeStart === null || insertBefore === null || rangeLength === null) {
    return apiError(c, 400, 'Missing or invalid range_start, insert_before or range_length');
  }
  const inRange = insertBefore > rangeStart && insertBefore < rangeStart + rangeLength;
  if (rangeStart < 0 || rangeLength < 1 || rangeStart + rangeLength > total || insertBefore < 0) {
    return apiError(c, 400, 'Index out of bounds');
  }
  if (insertBefore > total || inRange) return apiError(c, 400, 'Index out of bounds');
  const updated = moveItems(kit.world, playlist.id, { rangeStart, insertBefore, rangeLength });
  return updated ? c.json({ snapshot_id: snapshotId(updated) }) : apiError(c, 404, 'Resource not found');
}
