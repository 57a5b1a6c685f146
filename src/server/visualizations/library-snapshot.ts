import type { ServiceId } from '../../shared/services';
import type { AppDeps } from '../app-context';
import { ProviderError } from '../providers/http';
import type { MusicProvider, NormalizedTrack } from '../providers/types';
import { type Library, type LibraryPlaylist, type LibraryTrack, releaseYearOf } from './library';

/**
 * Reads a person's library from their connected services for the taste views, and keeps it in memory for
 * `SNAPSHOT_TTL_MS` per person and service, so moving between the graph's tabs and the timeline's ranges
 * does not read a 1,000-track playlist again each time. A concurrent second request shares the first's
 * read instead of starting its own.
 *
 * Genres: Apple catalog songs carry `genreNames`. Spotify track objects carry none (genres sit on artist
 * objects, which Spotify no longer serves to new apps), so Spotify tracks without genres are looked up by
 * ISRC in the Apple catalog (`deps.providers.appleCatalog()`, developer token only) and take the genres of
 * the first song found. At most `MAX_ISRC_LOOKUPS` ISRCs are looked up per snapshot; when the Apple
 * catalog is not configured, or a track has no ISRC or no match, it keeps no genre and the views say how
 * many tracks that was.
 */

export const SNAPSHOT_TTL_MS = 5 * 60_000;
/** More playlists than this are not read: the views are about taste, not inventory. */
const MAX_PLAYLISTS = 50;
const MAX_ISRC_LOOKUPS = 1000;
const PLAYLIST_READ_CONCURRENCY = 4;

interface CacheEntry {
  expiresAt: number;
  playlists: Promise<LibraryPlaylist[]>;
}

const snapshots = new Map<string, CacheEntry>();

/** The person's library over every connected service, or null when none is connected. */
export async function loadLibrary(deps: AppDeps, userId: string): Promise<Library | null> {
  const services: ServiceId[] = [];
  for (const service of ['spotify', 'apple'] as const) {
    if (await deps.providers.connections.get(userId, service)) services.push(service);
  }
  if (services.length === 0) return null;
  const perService = await Promise.all(services.map((service) => snapshotFor(deps, userId, service)));
  return { services, playlists: perService.flat(), sample: false };
}

/** Drops cached snapshots (a person's, or everyone's), e.g. after a library changes. */
export function forgetLibrarySnapshots(userId?: string) {
  if (!userId) snapshots.clear();
  else for (const key of snapshots.keys()) if (key.startsWith(`${userId}:`)) snapshots.delete(key);
}

function snapshotFor(deps: AppDeps, userId: string, service: ServiceId): Promise<LibraryPlaylist[]> {
  const key = `${userId}:${service}`;
  const now = Date.now();
  for (const [cachedKey, entry] of snapshots) if (entry.expiresAt <= now) snapshots.delete(cachedKey);
  const cached = snapshots.get(key);
  if (cached) return cached.playlists;
  const playlists = readLibrary(deps, userId, service);
  snapshots.set(key, { expiresAt: now + SNAPSHOT_TTL_MS, playlists });
  // A failed read must not be served from the cache for five minutes.
  playlists.catch(() => snapshots.delete(key));
  return playlists;
}

async function readLibrary(deps: AppDeps, userId: string, service: ServiceId): Promise<LibraryPlaylist[]> {
  const provider = await deps.providers.forUser(userId, service);
  const summaries = (await provider.listPlaylists()).slice(0, MAX_PLAYLISTS);
  const read: { id: string; name: string; tracks: NormalizedTrack[] }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < summaries.length) {
      const summary = summaries[next];
      next += 1;
      if (!summary || summary.trackCount === 0) continue;
      const tracks = await readTracks(provider, summary.id);
      if (tracks) read.push({ id: summary.id, name: summary.name, tracks });
    }
  };
  await Promise.all(Array.from({ length: PLAYLIST_READ_CONCURRENCY }, worker));
  // Workers finish in any order; keep the service's playlist order so answers are stable.
  const order = new Map(summaries.map((summary, index) => [summary.id, index]));
  read.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));

  const genresByIsrc =
    service === 'spotify'
      ? await catalogGenres(
          deps,
          read.flatMap((p) => p.tracks),
        )
      : new Map();
  return read.map((playlist) => ({
    id: playlist.id,
    name: playlist.name,
    tracks: playlist.tracks.map((track) => toLibraryTrack(service, track, genresByIsrc)),
  }));
}

/** A playlist's tracks, or null for one the service will not let us read (followed, in Spotify dev mode). */
async function readTracks(provider: MusicProvider, playlistId: string): Promise<NormalizedTrack[] | null> {
  try {
    const contents = await provider.getPlaylist(playlistId);
    return contents.entries.flatMap((entry) => (entry.kind === 'track' ? [entry.track] : []));
  } catch (error) {
    if (error instanceof ProviderError && (error.kind === 'forbidden' || error.kind === 'not_found'))
      return null;
    throw error;
  }
}

function toLibraryTrack(
  service: ServiceId,
  track: NormalizedTrack,
  genresByIsrc: Map<string, string[]>,
): LibraryTrack {
  const own = track.genres ?? [];
  const genres = own.length > 0 ? own : track.isrc ? (genresByIsrc.get(track.isrc.toUpperCase()) ?? []) : [];
  const releaseYear = releaseYearOf(track.releaseDate);
  return {
    key: `${service}:${track.id}`,
    name: track.name,
    artists: track.artists,
    genres: [...new Set(genres.map((genre) => genre.trim().toLowerCase()).filter(Boolean))],
    ...(releaseYear ? { releaseYear } : {}),
  };
}

async function catalogGenres(deps: AppDeps, tracks: NormalizedTrack[]): Promise<Map<string, string[]>> {
  const isrcs = [
    ...new Set(
      tracks
        .filter((track) => !track.genres?.length && track.isrc)
        .map((track) => track.isrc?.toUpperCase() ?? ''),
    ),
  ]
    .filter((isrc) => /^[A-Z0-9]{12}$/.test(isrc))
    .slice(0, MAX_ISRC_LOOKUPS);
  const genres = new Map<string, string[]>();
  if (isrcs.length === 0) return genres;
  let catalog: MusicProvider;
  try {
    catalog = await deps.providers.appleCatalog();
  } catch {
    // No Apple developer token on this server: Spotify tracks simply stay without genres.
    return genres;
  }
  try {
    const found = await catalog.lookupIsrcs(isrcs);
    for (const [isrc, songs] of found) {
      const withGenres = songs.find((song) => song.genres && song.genres.length > 0);
      if (withGenres?.genres) genres.set(isrc, withGenres.genres);
    }
  } catch (error) {
    deps.logger.warn({ err: error }, 'genre lookup in the Apple catalog failed');
  }
  return genres;
}
