import type { Rng } from './random';
import type {
  Catalog,
  CatalogRelease,
  CatalogTrack,
  DemoPlaylist,
  DemoPlaylistEntry,
  DemoSavedLibrary,
} from './types';
import { PODCASTS } from './words';

type Service = 'spotify' | 'apple';

interface PlaylistPlan {
  key: string;
  name: string;
  description: string;
  trackKeys: string[];
  /** Added-at dates are spread between these years. */
  from: number;
  to: number;
  specials?: boolean;
  followed?: { ownerId: string; ownerName: string };
}

const NON_LATIN =
  /[\u0370-\u03ff\u0400-\u04ff\u0590-\u05ff\u0600-\u06ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;
const DIACRITIC = /[\u00c0-\u024f]/;
const VERSION_MARKER = /\s-\s|\((?:[^)]*\s)?(?:remix|version|edit|mix|remaster(?:ed)?)\)/i;
const LATEST_ADDED_AT = Date.UTC(2026, 9, 31);

function isOriginal(track: CatalogTrack): boolean {
  return track.version ? track.version === 'original' : !VERSION_MARKER.test(track.title);
}

/**
 * What the demo libraries draw from that depends on the catalog alone (the tracks matching each plan,
 * tracks by key and by release, the albums): worked out once per catalog, so each person's library (one
 * per sandbox account, decision 0022) costs the random draws only. The draws, and so every library, are
 * the same as when each pool was filtered anew.
 */
interface CatalogPools {
  pool(name: string, predicate: (track: CatalogTrack) => boolean): CatalogTrack[];
  /** Anything else worked out from the catalog alone, once. */
  memo<T>(name: string, build: () => T): T;
  byKey: Map<string, CatalogTrack>;
  byRelease: Map<string, CatalogTrack[]>;
  /** Release keys each service carries some track of. */
  carried: Record<Service, Set<string>>;
}

const poolsByCatalog = new WeakMap<Catalog, CatalogPools>();

function catalogPools(catalog: Catalog): CatalogPools {
  const known = poolsByCatalog.get(catalog);
  if (known) return known;
  const filtered = new Map<string, CatalogTrack[]>();
  const memos = new Map<string, unknown>();
  const byRelease = new Map<string, CatalogTrack[]>();
  for (const track of catalog.tracks) {
    const list = byRelease.get(track.releaseKey);
    if (list) list.push(track);
    else byRelease.set(track.releaseKey, [track]);
  }
  const carriedBy = (service: Service) =>
    new Set(catalog.tracks.filter((track) => onService(track, service)).map((track) => track.releaseKey));
  const pools: CatalogPools = {
    pool(name, predicate) {
      let pool = filtered.get(name);
      if (!pool) {
        pool = catalog.tracks.filter(predicate);
        filtered.set(name, pool);
      }
      return pool;
    },
    memo<T>(name: string, build: () => T): T {
      if (!memos.has(name)) memos.set(name, build());
      return memos.get(name) as T;
    },
    byKey: new Map(catalog.tracks.map((track) => [track.key, track])),
    byRelease,
    carried: { spotify: carriedBy('spotify'), apple: carriedBy('apple') },
  };
  poolsByCatalog.set(catalog, pools);
  return pools;
}

type Choose = (name: string, predicate: (track: CatalogTrack) => boolean, count: number) => string[];

const isGeoLocked = (track: CatalogTrack) =>
  (track.spotify !== null && track.spotify.markets.length < 20) ||
  (track.apple !== null && track.apple.storefronts.length < 20);

/** The playlists built around tastes (genres, versions, scripts), drawn in this order. */
function tastePlans(choose: Choose): PlaylistPlan[] {
  const withGenres =
    (genres: string[], originalOnly = true) =>
    (track: CatalogTrack) =>
      (!originalOnly || isOriginal(track)) && track.genres.some((genre) => genres.includes(genre));
  const withTitle = (pattern: RegExp) => (track: CatalogTrack) => pattern.test(track.title);
  return [
    {
      key: 'road-trip',
      name: 'Road Trip',
      description: 'Windows down, volume up.',
      trackKeys: choose('road-trip', withGenres(['rock', 'country', 'pop', 'indie', 'folk']), 48),
      from: 2016,
      to: 2023,
    },
    {
      key: 'late-night-jazz',
      name: 'Late Night Jazz',
      description: 'Smoky rooms and slow brushes.',
      trackKeys: choose('late-night-jazz', withGenres(['jazz', 'soul', 'bossa nova', 'blues']), 36),
      from: 2015,
      to: 2021,
    },
    {
      key: 'gym-rotation',
      name: 'Gym Rotation',
      description: 'No skips. Radio edits and extended mixes welcome.',
      trackKeys: [
        ...choose('gym-rotation', withGenres(['hip-hop', 'electronic', 'metal', 'house', 'reggaeton']), 40),
        ...choose('gym-rotation-versions', withTitle(/Radio Edit|Extended Mix|Sped Up/), 10),
      ],
      from: 2019,
      to: 2026,
    },
    {
      key: 'k-pop-favourites',
      name: 'K-Pop Favourites',
      description: '최애 songs, all in one place.',
      trackKeys: choose('k-pop', withGenres(['k-pop']), 32),
      from: 2018,
      to: 2026,
    },
    {
      key: 'around-the-world',
      name: 'Around the World',
      description: 'Songs in every script, including a few that are not available everywhere.',
      trackKeys: [
        ...choose(
          'non-latin',
          (track) => NON_LATIN.test(track.title) || NON_LATIN.test(track.artists[0] ?? ''),
          28,
        ),
        ...choose(
          'diacritic',
          (track) => DIACRITIC.test(track.title) || DIACRITIC.test(track.artists[0] ?? ''),
          10,
        ),
        ...choose('geo-locked', isGeoLocked, 8),
      ],
      from: 2017,
      to: 2025,
    },
    {
      key: 'live-and-remastered',
      name: 'Live & Remastered',
      description: 'The live takes and the remasters, not the studio originals.',
      trackKeys: [
        ...choose('live', withTitle(/\bLive\b/), 12),
        ...choose('remaster', withTitle(/Remaster/), 12),
        ...choose('acoustic', withTitle(/Acoustic|Demo|Mono/), 8),
      ],
      from: 2014,
      to: 2024,
    },
    {
      key: 'sunday-morning',
      name: 'Sunday Morning ☕',
      description: 'Slow coffee, soft songs.',
      trackKeys: choose('sunday-morning', withGenres(['folk', 'ambient', 'classical', 'lo-fi', 'soul']), 30),
      from: 2020,
      to: 2026,
    },
    {
      key: 'clean-for-the-car',
      name: 'Clean Versions (Kids in the Car)',
      description: 'Only the clean edits.',
      trackKeys: choose(
        'clean',
        (track) => track.version === 'clean' || (!track.version && !track.explicit),
        20,
      ),
      from: 2021,
      to: 2026,
    },
    {
      key: 'old-phone-imports',
      name: 'Old Phone Imports',
      description: 'Whatever survived the move from my old phone.',
      trackKeys: choose('originals', isOriginal, 24),
      from: 2012,
      to: 2016,
      specials: true,
    },
  ];
}

/**
 * The demo user's library, the same music presented as each service's own library: playlists built around
 * tastes (genres, versions, scripts) plus the awkward cases a transfer must handle (unavailable entries,
 * local files, an episode, an empty playlist, a very long one, a followed playlist the user cannot edit).
 */
export function buildDemoLibraries(catalog: Catalog, rng: Rng): Catalog['demoLibraries'] {
  const pools = catalogPools(catalog);
  const originals = pools.pool('originals', isOriginal);
  const used = new Set<string>();

  /** `name` names the predicate's pool: the same name, the same tracks. */
  const choose: Choose = (name, predicate, count) => {
    const pool = pools.pool(name, predicate);
    const picked = rng.sample(pool, count);
    // Small catalogs (or a file without those genres) still get full playlists: pad with originals.
    if (picked.length < count) picked.push(...rng.sample(originals, count - picked.length));
    const keys = [...new Set(picked.map((track) => track.key))];
    for (const key of keys) used.add(key);
    return keys;
  };
  const plans = tastePlans(choose);
  // The long playlist: a bit of everything, mostly already-used favourites plus a wide spread.
  const favourites = rng.sample([...used], Math.min(used.size, 200));
  const everything = [
    ...new Set([
      ...favourites,
      ...choose('originals', isOriginal, 950),
      ...choose('versions', (t) => !isOriginal(t), 120),
    ]),
  ];
  plans.push(
    {
      key: 'everything-i-love',
      name: 'Everything I Love',
      description: 'The big one. Twelve years of liking things.',
      trackKeys: everything,
      from: 2014,
      to: 2026,
    },
    { key: 'new-playlist', name: 'New Playlist', description: '', trackKeys: [], from: 2026, to: 2026 },
  );
  const followed: PlaylistPlan = {
    key: 'fresh-finds-friday',
    name: 'Fresh Finds Friday',
    description: 'New music every Friday, picked by a friend.',
    trackKeys: choose('recent', (track) => isOriginal(track) && releaseYear(catalog, track) >= 2024, 25),
    from: 2025,
    to: 2026,
    followed: { ownerId: 'mixtape-maker', ownerName: 'Mixtape Maker' },
  };

  const { byKey } = pools;
  const render = (plan: PlaylistPlan, service: Service): DemoPlaylist => {
    const present = plan.trackKeys.filter((key) => byKey.get(key)?.[service]);
    const entries = present.map((key): DemoPlaylistEntry => ({ kind: 'track', trackKey: key, addedAt: '' }));
    if (plan.specials) insertSpecials(entries, service, rng);
    const times = spreadDates(rng, plan.from, plan.to, entries.length);
    entries.forEach((entry, index) => {
      entry.addedAt = times[index] ?? times[0] ?? isoSeconds(Date.UTC(plan.from, 0, 1));
    });
    const playlist: DemoPlaylist = {
      key: plan.key,
      name: plan.name,
      description: plan.description,
      entries,
      createdAt: times[0] ?? isoSeconds(Date.UTC(plan.from, 0, 1) + rng.int(0, 200) * 86_400_000),
    };
    if (plan.followed) {
      playlist.ownerId = plan.followed.ownerId;
      playlist.ownerName = plan.followed.ownerName;
      playlist.followedOnly = true;
    }
    return playlist;
  };

  const spotify = [...plans, followed].map((plan) => render(plan, 'spotify'));
  const apple = plans.map((plan) => render(plan, 'apple'));
  // Drawn after the playlists, so adding the saved library left every playlist as it was.
  const saved = planSavedLibrary(catalog, pools, rng, [...used], isGeoLocked);
  return {
    spotify,
    apple,
    saved: { spotify: renderSaved(pools, saved, 'spotify'), apple: renderSaved(pools, saved, 'apple') },
  };
}

/** Whether the service carries the track anywhere (Spotify: in some market). */
function onService(track: CatalogTrack | undefined, service: Service): boolean {
  if (!track) return false;
  return service === 'spotify'
    ? (track.spotify?.markets.length ?? 0) > 0
    : (track.apple?.storefronts.length ?? 0) > 0;
}

/**
 * Liked songs and saved albums, the same music on both services: 60–150 liked songs (mostly songs of the
 * playlists, two geo-locked ones and one only one service has), and up to seven whole albums: five
 * plain ones, one Apple lists under another UPC (so album matching needs title, artist and track count)
 * and one only one service has.
 */
function planSavedLibrary(
  catalog: Catalog,
  pools: CatalogPools,
  rng: Rng,
  used: string[],
  isGeoLocked: (track: CatalogTrack) => boolean,
): DemoSavedLibrary {
  const count = rng.int(60, 150);
  const favourites = rng.sample(used, count - 3);
  if (favourites.length < count - 3) {
    const known = new Set(favourites);
    const more = catalog.tracks.filter((track) => !known.has(track.key) && isOriginal(track));
    favourites.push(...rng.sample(more, count - 3 - favourites.length).map((track) => track.key));
  }
  const locked = rng.sample(
    pools.pool(
      'geo-locked-on-both',
      (track) => isGeoLocked(track) && onService(track, 'spotify') && onService(track, 'apple'),
    ),
    2,
  );
  const oneSided = rng.sample(
    pools.pool('one-sided', (track) => onService(track, 'spotify') !== onService(track, 'apple')),
    1,
  );
  const likedKeys = [...new Set([...favourites, ...[...locked, ...oneSided].map((track) => track.key)])];
  const liked = rng.sample(likedKeys, likedKeys.length);

  const albums = pools.memo('saved-albums', () => albumPools(catalog, pools.byRelease));
  const chosen = [
    ...rng.sample(albums.plain, 5),
    ...rng.sample(albums.otherUpc, 1),
    ...rng.sample(albums.oneSided, 1),
  ];
  const albumKeys = rng.sample(
    chosen.map((release) => release.key),
    chosen.length,
  );
  const likedDates = spreadDates(rng, 2019, 2026, liked.length).reverse();
  const albumDates = spreadDates(rng, 2018, 2026, albumKeys.length).reverse();
  return {
    liked: liked.map((trackKey, i) => ({ trackKey, addedAt: likedDates[i] ?? '2026-01-01T00:00:00Z' })),
    albums: albumKeys.map((releaseKey, i) => ({
      releaseKey,
      addedAt: albumDates[i] ?? '2026-01-01T00:00:00Z',
    })),
  };
}

/**
 * Albums a saved library draws from: whole on both services (plain, or listed by Apple under another
 * UPC), and albums only one service has.
 */
function albumPools(catalog: Catalog, byRelease: Map<string, CatalogTrack[]>) {
  const albums = [...catalog.releases.values()].filter(
    (release) => release.type === 'album' && release.totalTracks >= 4 && release.totalTracks <= 20,
  );
  const whole = (release: CatalogRelease, service: Service) =>
    (byRelease.get(release.key) ?? []).every((track) => onService(track, service));
  const some = (release: CatalogRelease, service: Service) =>
    (byRelease.get(release.key) ?? []).some((track) => onService(track, service));
  const onBoth = albums.filter((release) => whole(release, 'spotify') && whole(release, 'apple'));
  return {
    plain: onBoth.filter((release) => release.appleUpc === undefined),
    otherUpc: onBoth.filter((release) => release.appleUpc !== undefined),
    oneSided: albums.filter((release) => some(release, 'spotify') !== some(release, 'apple')),
  };
}

/** The saved library as one service has it: only what the service carries. */
function renderSaved(pools: CatalogPools, saved: DemoSavedLibrary, service: Service): DemoSavedLibrary {
  return {
    liked: saved.liked.filter((entry) => onService(pools.byKey.get(entry.trackKey), service)),
    albums: saved.albums.filter((entry) => pools.carried[service].has(entry.releaseKey)),
  };
}

function releaseYear(catalog: Catalog, track: CatalogTrack): number {
  const date = catalog.releases.get(track.releaseKey)?.releaseDate ?? '';
  return Number.parseInt(date.slice(0, 4), 10) || 0;
}

/** Unavailable entries, local files and (Spotify only) a podcast episode, scattered among the tracks. */
function insertSpecials(entries: DemoPlaylistEntry[], service: Service, rng: Rng): void {
  const specials: DemoPlaylistEntry[] = [
    { kind: 'unavailable', addedAt: '' },
    { kind: 'unavailable', addedAt: '' },
    { kind: 'unavailable', addedAt: '' },
    {
      kind: 'local',
      title: 'Garage Jam 3 (final)',
      artist: 'Our Old Band',
      album: 'Basement Tapes',
      durationMs: 187_000,
      addedAt: '',
    },
    {
      kind: 'local',
      title: 'voice memo - melody idea',
      artist: 'Unknown Artist',
      album: '',
      durationMs: 64_000,
      addedAt: '',
    },
    {
      kind: 'local',
      title: 'Wedding First Dance (Live Recording)',
      artist: 'Cousin Maya',
      album: 'Wedding 2013',
      durationMs: 242_000,
      addedAt: '',
    },
  ];
  if (service === 'spotify') {
    const podcast = PODCASTS[0];
    if (podcast)
      specials.push({
        kind: 'episode',
        title: podcast.title,
        show: podcast.show,
        durationMs: 2_712_000,
        addedAt: '',
      });
  }
  for (const special of specials) entries.splice(rng.int(0, entries.length), 0, special);
}

/** `count` ascending ISO timestamps (second precision, like Spotify's `added_at`) between two years. */
function spreadDates(rng: Rng, fromYear: number, toYear: number, count: number): string[] {
  const start = Date.UTC(fromYear, 0, 1);
  const end = Math.min(Date.UTC(toYear, 11, 31), LATEST_ADDED_AT);
  const times: number[] = [];
  for (let i = 0; i < count; i++) times.push(start + Math.floor(rng.float() * (end - start)));
  times.sort((a, b) => a - b);
  return times.map(isoSeconds);
}

function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
