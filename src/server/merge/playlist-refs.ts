import type { SessionUser } from '../../shared/api/auth';
import { type ServiceId, serviceIdSchema } from '../../shared/services';
import type { AppDeps } from '../app-context';
import { readPlaylistFromLink } from '../playlists/shared-playlists';
import { loadSourcePlaylist } from '../playlists/source-playlists';
import type { NormalizedTrack } from '../providers/types';

/** One side of a merge once read: where it came from and its playable tracks. */
export interface LoadedSide {
  service: ServiceId;
  playlistId: string;
  name: string;
  owner: string;
  tracks: NormalizedTrack[];
}

/** `spotify:abc` → {service, id}; the `spotify:playlist:…` URI form is a link, not this. */
export function splitServiceId(value: string): { service?: ServiceId; id: string } {
  const match = /^(spotify|apple):(.+)$/.exec(value);
  if (!match || value.startsWith('spotify:playlist:')) return { id: value };
  const service = serviceIdSchema.parse(match[1]);
  return { service, id: match[2] ?? '' };
}

const looksLikeLink = (value: string) => value.includes('/') || value.startsWith('spotify:playlist:');

/** A link the share-URL parser reads back into this playlist id. */
export function linkFor(service: ServiceId, id: string): string {
  if (service === 'spotify') return `https://open.spotify.com/playlist/${encodeURIComponent(id)}`;
  if (id.startsWith('p.')) return `https://music.apple.com/library/playlist/${encodeURIComponent(id)}`;
  return `https://music.apple.com/us/playlist/${encodeURIComponent(id)}`;
}

/**
 * The service a bare playlist id (as /api/fetch-friend-playlist answered it) comes from, read off its
 * shape: Apple Music playlist ids start with `pl.` (catalog) or `p.` (library); Spotify ids are base62
 * with no dot. This lets the spec's merge call work without our optional `friendService`.
 */
export function serviceOfPlaylistId(id: string): ServiceId {
  return /^pl?\./.test(id) ? 'apple' : 'spotify';
}

const tracksOf = (contents: { entries: { kind: string; track?: NormalizedTrack }[] }) =>
  contents.entries.flatMap((entry) => (entry.kind === 'track' && entry.track ? [entry.track] : []));

/** Which service a plain id belongs to: the one asked for, else the first the person connected. */
export async function serviceFor(
  deps: AppDeps,
  userId: string,
  asked: ServiceId | undefined,
): Promise<ServiceId> {
  if (asked) return asked;
  for (const service of ['spotify', 'apple'] as const) {
    if (await deps.providers.connections.get(userId, service)) return service;
  }
  return 'spotify';
}

/** The person's own playlist (or a file they imported), read through their connection. */
export async function loadOwnSide(
  deps: AppDeps,
  user: Pick<SessionUser, 'id' | 'username'>,
  ref: { playlistId: string; service?: ServiceId | undefined },
): Promise<LoadedSide> {
  const split = splitServiceId(ref.playlistId);
  const service = split.service ?? (await serviceFor(deps, user.id, ref.service));
  const contents = await loadSourcePlaylist(deps, user.id, service, split.id);
  return {
    service,
    playlistId: split.id,
    name: contents.playlist.name,
    owner: user.username,
    tracks: tracksOf(contents),
  };
}

/** A playlist someone shared: a share URL, `<service>:<id>`, or an id with its service. */
export async function loadSharedSide(
  deps: AppDeps,
  user: SessionUser | null,
  ref: { playlistId: string; service?: ServiceId | undefined },
): Promise<LoadedSide> {
  let link = ref.playlistId;
  if (!looksLikeLink(ref.playlistId)) {
    const split = splitServiceId(ref.playlistId);
    const service = split.service ?? ref.service ?? serviceOfPlaylistId(split.id);
    link = linkFor(service, split.id);
  }
  const contents = await readPlaylistFromLink(deps, user, link);
  return {
    service: contents.service,
    playlistId: contents.playlist.id,
    name: contents.playlist.name,
    owner: contents.playlist.ownerName ?? 'Your friend',
    tracks: tracksOf(contents),
  };
}
