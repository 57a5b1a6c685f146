import type { SessionUser } from '../../shared/api/auth';
import { SERVICE_LABELS } from '../../shared/services';
import type { AppDeps } from '../app-context';
import { badRequest, notFound, unauthorized } from '../domain-errors';
import { ProviderError } from '../providers/http';
import type { PlaylistContents } from '../providers/types';
import { parsePlaylistLink } from '../service-urls/parse';

/**
 * Reads a playlist someone shared by link. Only ids parsed from a known link form reach a service API;
 * the typed URL itself is never fetched. Apple catalog playlists need no sign-in (developer token);
 * Spotify and Apple library playlists are read through the person's own connection.
 */
export async function readPlaylistFromLink(
  deps: AppDeps,
  user: SessionUser | null,
  link: string,
): Promise<PlaylistContents & { service: 'spotify' | 'apple' }> {
  const parsed = parsePlaylistLink(link);
  if (!parsed.ok) throw badRequest(parsed.message);
  const { ref } = parsed;
  const label = SERVICE_LABELS[ref.service];

  try {
    if (ref.service === 'apple' && ref.id.startsWith('pl.')) {
      const provider = await deps.providers.appleCatalog(ref.storefront);
      return { ...(await provider.readSharedPlaylist(ref)), service: 'apple' };
    }
    if (!user) throw unauthorized(`Sign in and connect ${label} to read ${label} playlists.`);
    const provider = await deps.providers.forUser(user.id, ref.service);
    const contents = ref.id.startsWith('p.')
      ? await provider.getPlaylist(ref.id)
      : await provider.readSharedPlaylist(ref);
    return { ...contents, service: ref.service };
  } catch (error) {
    if (error instanceof ProviderError && error.kind === 'not_found') {
      throw notFound('Could not find or access the playlist. Please check the URL and try again.');
    }
    throw error;
  }
}
