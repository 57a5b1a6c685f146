import type { SessionUser } from '../../shared/api/auth';
import type { LinkTarget } from '../../shared/api/links';
import { otherService, type ServiceId } from '../../shared/services';
import type { AppDeps } from '../app-context';
import { badRequest, notFound } from '../domain-errors';
import { ACCEPT_THRESHOLD, matchTracks } from '../matching';
import { readPlaylistFromLink } from '../playlists/shared-playlists';
import { ProviderError } from '../providers/http';
import type { NormalizedTrack } from '../providers/types';
import { canonicalUrl } from '../service-urls/open-urls';
import { parseTrackOrPlaylistLink, type SharedTrackRef } from '../service-urls/parse';
import { DatabaseMatchCache } from '../transfers/db-match-cache';

/** Artists shown for a playlist: the first few distinct names of its tracks. */
const PLAYLIST_ARTIST_COUNT = 3;

/**
 * The person's client for a service when they are connected; for Apple, the catalog client works without
 * a connection. Null when the service cannot be read for them.
 */
async function readerFor(deps: AppDeps, userId: string, service: ServiceId, storefront?: string) {
  const connection = await deps.providers.connections.get(userId, service);
  if (connection) return { provider: deps.providers.providerFor(connection), region: connection.region };
  if (service === 'apple') {
    try {
      return { provider: await deps.providers.appleCatalog(storefront), region: storefront ?? null };
    } catch {
      return null;
    }
  }
  return null;
}

async function readTrack(deps: AppDeps, userId: string, ref: SharedTrackRef): Promise<NormalizedTrack> {
  const reader = await readerFor(deps, userId, ref.service, ref.storefront);
  // Spotify has no anonymous catalog access here: this throws the usual "Please connect to Spotify…".
  const provider = reader?.provider ?? (await deps.providers.forUser(userId, ref.service));
  try {
    const track = await provider.getTrack(ref.id, ref.storefront ? { region: ref.storefront } : {});
    if (track) return track;
  } catch (error) {
    if (!(error instanceof ProviderError && error.kind === 'not_found')) throw error;
  }
  throw notFound('Could not find that track. Please check the URL and try again.');
}

/** The same recording on the other service, only when matching is confident; null otherwise. */
async function findEquivalent(
  deps: AppDeps,
  userId: string,
  track: NormalizedTrack,
  service: ServiceId,
): Promise<{ id: string; url: string } | null> {
  const reader = await readerFor(deps, userId, service);
  if (!reader) return null;
  // A Spotify account whose country is unknown gives no equivalent rather than a US one; Apple's anonymous
  // catalog reader answers for the US storefront, as its client does.
  const region = reader.region ?? (service === 'apple' ? 'us' : null);
  if (!region) return null;
  try {
    const [match] = await matchTracks([track], reader.provider, {
      region,
      cache: new DatabaseMatchCache(deps.db, service, region),
    });
    const best = match?.best;
    if (!best || best.confidence < ACCEPT_THRESHOLD || !best.sameVersion) return null;
    return { id: best.track.id, url: best.track.url ?? canonicalUrl(service, 'track', best.track.id) };
  } catch (error) {
    // The equivalent is a convenience: the link still works with a search on that service.
    deps.logger.warn({ err: error, service }, 'sniper link: no equivalent found');
    return null;
  }
}

type ServiceRef = { id: string; url: string };

function onServices(
  service: ServiceId,
  own: ServiceRef,
  other: ServiceId,
  equivalent: ServiceRef | null,
): Pick<LinkTarget, 'spotify' | 'apple'> {
  const refs: Pick<LinkTarget, 'spotify' | 'apple'> = {};
  refs[service] = own;
  if (equivalent) refs[other] = equivalent;
  return refs;
}

/**
 * Reads what a typed link points at and finds it on both services. Only ids parsed from a known link
 * form reach a service API; the typed URL is never fetched.
 */
export async function resolveLinkTarget(deps: AppDeps, user: SessionUser, url: string): Promise<LinkTarget> {
  const userId = user.id;
  const parsed = parseTrackOrPlaylistLink(url);
  if (!parsed.ok) throw badRequest(parsed.message);
  const { target } = parsed;

  if (target.kind === 'track') {
    const { service } = target.track;
    const track = await readTrack(deps, userId, target.track);
    const own = {
      id: track.id,
      url: track.url ?? canonicalUrl(service, 'track', track.id, target.track.storefront),
    };
    const other = otherService(service);
    const equivalent = await findEquivalent(deps, userId, track, other);
    return {
      kind: 'track',
      ...onServices(service, own, other, equivalent),
      title: track.name,
      artists: track.artists,
      ...(track.imageUrl ? { imageUrl: track.imageUrl } : {}),
    };
  }

  const contents = await readPlaylistFromLink(deps, user, url);
  const artists = [
    ...new Set(contents.entries.flatMap((entry) => (entry.kind === 'track' ? entry.track.artists : []))),
  ].slice(0, PLAYLIST_ARTIST_COUNT);
  const { playlist } = contents;
  return {
    kind: 'playlist',
    ...onServices(
      target.ref.service,
      {
        id: playlist.id,
        url:
          playlist.url ?? canonicalUrl(target.ref.service, 'playlist', target.ref.id, target.ref.storefront),
      },
      otherService(target.ref.service),
      null,
    ),
    title: playlist.name,
    artists,
    ...(playlist.imageUrl ? { imageUrl: playlist.imageUrl } : {}),
  };
}
