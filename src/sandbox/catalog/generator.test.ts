import { describe, expect, it } from 'vitest';
import { generateCatalog } from './generator';
import type { Catalog, CatalogTrack, TrackVersion } from './types';
import { GENRES, MARKETS } from './words';

const catalog = generateCatalog();
const byKey = new Map(catalog.tracks.map((track) => [track.key, track]));

function snapshot(value: Catalog): string {
  return JSON.stringify({
    tracks: value.tracks,
    releases: [...value.releases],
    libraries: value.demoLibraries,
  });
}

function groupBy<K>(tracks: CatalogTrack[], key: (track: CatalogTrack) => K): Map<K, CatalogTrack[]> {
  const groups = new Map<K, CatalogTrack[]>();
  for (const track of tracks) {
    const k = key(track);
    const group = groups.get(k);
    if (group) group.push(track);
    else groups.set(k, [track]);
  }
  return groups;
}

describe('generateCatalog determinism', () => {
  it('produces an identical catalog for the same seed', () => {
    expect(snapshot(generateCatalog())).toBe(snapshot(catalog));
  });

  it('produces a different catalog for a different seed', () => {
    const other = generateCatalog({ seed: 'another seed' });
    expect(other.tracks.length).toBe(catalog.tracks.length);
    const sameTitles = other.tracks.filter(
      (track, index) => track.title === catalog.tracks[index]?.title,
    ).length;
    expect(sameTitles).toBeLessThan(catalog.tracks.length / 10);
    expect(other.tracks[0]?.spotify?.id).not.toBe(catalog.tracks[0]?.spotify?.id);
  });

  it('honours trackCount and keeps a consistent demo library for small catalogs', () => {
    const small = generateCatalog({ seed: 'small', trackCount: 3_000 });
    expect(small.tracks).toHaveLength(3_000);
    const keys = new Set(small.tracks.map((track) => track.key));
    const entries = [...small.demoLibraries.spotify, ...small.demoLibraries.apple].flatMap(
      (playlist) => playlist.entries,
    );
    expect(entries.filter((entry) => entry.kind === 'track' && !keys.has(entry.trackKey))).toEqual([]);
  });
});

describe('the default catalog has the variety real catalogs have', () => {
  it('has at least 20,000 tracks', () => {
    expect(catalog.tracks.length).toBeGreaterThanOrEqual(20_000);
  });

  it('has every kind of version', () => {
    const kinds: TrackVersion[] = [
      'original',
      'remaster',
      'live',
      'acoustic',
      'remix',
      'instrumental',
      'a-cappella',
      'karaoke',
      'cover',
      'radio-edit',
      'extended',
      'sped-up',
      'demo',
      'mono',
      'clean',
    ];
    const counts = new Map<TrackVersion | undefined, number>();
    for (const track of catalog.tracks) counts.set(track.version, (counts.get(track.version) ?? 0) + 1);
    for (const kind of kinds) expect(counts.get(kind) ?? 0, kind).toBeGreaterThan(0);
  });

  it('marks versions in the title the way the services do', () => {
    const titled = (version: TrackVersion, pattern: RegExp) =>
      catalog.tracks.filter((track) => track.version === version).every((track) => pattern.test(track.title));
    expect(titled('remaster', /( - Remastered \d{4}| - \d{4} Remaster)$/)).toBe(true);
    expect(titled('remix', /\(.+ Remix\)$/)).toBe(true);
    expect(titled('live', / - Live/)).toBe(true);
    expect(titled('radio-edit', / - Radio Edit$/)).toBe(true);
    expect(titled('karaoke', /\(Karaoke Version\)$/)).toBe(true);
  });

  it('shares the ISRC of one recording between its single, album and compilation releases', () => {
    const types = [...groupBy(catalog.tracks, (track) => track.isrc).values()].map(
      (group) => new Set(group.map((track) => catalog.releases.get(track.releaseKey)?.type)),
    );
    expect(types.filter((set) => set.has('single') && set.has('album')).length).toBeGreaterThan(100);
    expect(types.filter((set) => set.has('compilation') && set.size > 1).length).toBeGreaterThan(100);
  });

  it('keeps a shared ISRC on the same title, artist and length', () => {
    const differing = [...groupBy(catalog.tracks, (track) => track.isrc).values()].filter((group) => {
      const [first, ...rest] = group;
      return rest.some(
        (track) =>
          track.title !== first?.title ||
          track.artists[0] !== first?.artists[0] ||
          track.durationMs !== first?.durationMs,
      );
    });
    expect(differing).toEqual([]);
  });

  it('has clean and explicit versions of the same song under different ISRCs', () => {
    const pairs = [...groupBy(catalog.tracks, (track) => track.songKey).values()].filter(
      (group) =>
        group.some((track) => track.version === 'clean' && !track.explicit) &&
        group.some((track) => track.version === 'original' && track.explicit),
    );
    expect(pairs.length).toBeGreaterThan(50);
    for (const group of pairs) {
      const clean = group.find((track) => track.version === 'clean');
      const explicit = group.find((track) => track.version === 'original');
      expect(clean?.isrc).not.toBe(explicit?.isrc);
      expect(clean?.title).toBe(explicit?.title);
    }
  });

  it('makes radio edits shorter and extended mixes longer than the original', () => {
    const originals = new Map(
      catalog.tracks.filter((track) => track.version === 'original').map((track) => [track.songKey, track]),
    );
    const wrong = catalog.tracks.filter((track) => {
      const original = originals.get(track.songKey);
      if (!original) return false;
      if (track.version === 'radio-edit') return track.durationMs > original.durationMs;
      if (track.version === 'extended') return track.durationMs < original.durationMs;
      return false;
    });
    expect(wrong).toEqual([]);
    expect(catalog.tracks.filter((track) => track.version === 'radio-edit').length).toBeGreaterThan(100);
  });

  it('has covers by other artists and feat. credits', () => {
    const originals = new Map(
      catalog.tracks.filter((track) => track.version === 'original').map((track) => [track.songKey, track]),
    );
    const covers = catalog.tracks.filter((track) => track.version === 'cover');
    expect(covers.every((cover) => cover.artists[0] !== originals.get(cover.songKey)?.artists[0])).toBe(true);
    const featuring = catalog.tracks.filter((track) => track.featured.length > 0);
    expect(featuring.length).toBeGreaterThan(500);
    expect(
      featuring.every((track) => track.featured.every((name) => track.artists.slice(1).includes(name))),
    ).toBe(true);
  });

  it('has titles in non-Latin scripts and names with diacritics', () => {
    const scripts: Record<string, RegExp> = {
      hangul: /[\uac00-\ud7af]/,
      kana: /[\u3040-\u30ff]/,
      cjk: /[\u4e00-\u9fff]/,
      cyrillic: /[\u0400-\u04ff]/,
      greek: /[\u0370-\u03ff]/,
      arabic: /[\u0600-\u06ff]/,
      hebrew: /[\u0590-\u05ff]/,
    };
    for (const [name, pattern] of Object.entries(scripts)) {
      expect(catalog.tracks.filter((track) => pattern.test(track.title)).length, name).toBeGreaterThan(20);
    }
    expect(
      catalog.tracks.filter((track) => /[\u00c0-\u017f]/.test(track.artists.join(' '))).length,
    ).toBeGreaterThan(500);
  });

  it('keeps durations, dates and genres plausible', () => {
    const known = new Set<string>(GENRES);
    const implausible = catalog.tracks.filter(
      (track) =>
        track.durationMs < 90_000 ||
        track.durationMs > 480_000 ||
        track.genres.length < 1 ||
        track.genres.length > 3 ||
        track.genres.some((genre) => !known.has(genre)),
    );
    expect(implausible).toEqual([]);
    const genres = new Set(catalog.tracks.flatMap((track) => track.genres));
    expect(genres.size).toBeGreaterThanOrEqual(30);
    const badDates = [...catalog.releases.values()].filter(
      (release) =>
        !/^\d{4}(-\d{2}-\d{2})?$/.test(release.releaseDate) ||
        release.releaseDate < '1960' ||
        release.releaseDate > '2026-11',
    );
    expect(badDates).toEqual([]);
    const years = new Set([...catalog.releases.values()].map((release) => release.releaseDate.slice(0, 3)));
    expect(years).toEqual(new Set(['196', '197', '198', '199', '200', '201', '202']));
  });

  it('counts each release’s tracks', () => {
    const counts = new Map<string, number>();
    for (const track of catalog.tracks) counts.set(track.releaseKey, (counts.get(track.releaseKey) ?? 0) + 1);
    const miscounted = [...catalog.releases.values()].filter(
      (release) => counts.get(release.key) !== release.totalTracks,
    );
    expect(miscounted).toEqual([]);
    expect([...counts.keys()].every((key) => catalog.releases.has(key))).toBe(true);
  });
});

describe('service presence and ids', () => {
  it('puts most tracks on both services and about 3% on only one', () => {
    const total = catalog.tracks.length;
    const spotifyOnly = catalog.tracks.filter((track) => track.spotify && !track.apple).length / total;
    const appleOnly = catalog.tracks.filter((track) => !track.spotify && track.apple).length / total;
    expect(catalog.tracks.every((track) => track.spotify || track.apple)).toBe(true);
    expect(spotifyOnly).toBeGreaterThan(0.01);
    expect(spotifyOnly).toBeLessThan(0.06);
    expect(appleOnly).toBeGreaterThan(0.01);
    expect(appleOnly).toBeLessThan(0.06);
  });

  it('gives unique, well-formed ids and ISRCs', () => {
    const spotifyIds = catalog.tracks.flatMap((track) => (track.spotify ? [track.spotify.id] : []));
    const appleIds = catalog.tracks.flatMap((track) => (track.apple ? [track.apple.id] : []));
    expect(new Set(spotifyIds).size).toBe(spotifyIds.length);
    expect(new Set(appleIds).size).toBe(appleIds.length);
    expect(spotifyIds.filter((id) => !/^[A-Za-z0-9]{22}$/.test(id))).toEqual([]);
    expect(appleIds.filter((id) => !/^\d{9,10}$/.test(id))).toEqual([]);
    expect(catalog.tracks.filter((track) => !/^[A-Z]{2}[A-Z0-9]{3}\d{7}$/.test(track.isrc))).toEqual([]);
    expect(new Set(catalog.tracks.map((track) => track.key)).size).toBe(catalog.tracks.length);
  });

  it('gives every geo-locked track another release of the recording that is available there', () => {
    const byIsrc = groupBy(catalog.tracks, (track) => track.isrc);
    const markets = MARKETS;
    let locked = 0;
    const stranded: string[] = [];
    for (const track of catalog.tracks) {
      const others = (byIsrc.get(track.isrc) ?? []).filter((other) => other !== track);
      for (const market of markets) {
        if (track.spotify && !track.spotify.markets.includes(market)) {
          locked++;
          if (!others.some((other) => other.spotify?.markets.includes(market)))
            stranded.push(`${track.key} ${market}`);
        }
        const storefront = market.toLowerCase();
        if (track.apple && !track.apple.storefronts.includes(storefront)) {
          if (!others.some((other) => other.apple?.storefronts.includes(storefront)))
            stranded.push(`${track.key} ${storefront}`);
        }
      }
    }
    expect(stranded).toEqual([]);
    expect(locked).toBeGreaterThan(200);
    expect(catalog.tracks.some((track) => track.spotify && !track.spotify.markets.includes('JP'))).toBe(true);
    expect(catalog.tracks.some((track) => track.spotify && !track.spotify.markets.includes('RU'))).toBe(true);
  });
});

describe('demo libraries', () => {
  const { spotify, apple } = catalog.demoLibraries;

  it('refers only to catalog tracks the service carries', () => {
    for (const [service, playlists] of [
      ['spotify', spotify],
      ['apple', apple],
    ] as const) {
      for (const playlist of playlists) {
        const missing = playlist.entries.filter(
          (entry) => entry.kind === 'track' && !byKey.get(entry.trackKey)?.[service],
        );
        expect(missing, playlist.name).toEqual([]);
      }
    }
  });

  it('presents the same playlists on both services, plus a followed one on Spotify', () => {
    expect(apple.map((playlist) => playlist.name)).toEqual(
      spotify.filter((playlist) => !playlist.followedOnly).map((playlist) => playlist.name),
    );
    const followed = spotify.filter((playlist) => playlist.followedOnly);
    expect(followed).toHaveLength(1);
    expect(followed[0]?.ownerId).toBeTruthy();
    expect(followed[0]?.entries.length).toBeGreaterThan(0);
  });

  it('has a playlist of at least 1,000 tracks and an empty one on both services', () => {
    for (const playlists of [spotify, apple]) {
      const everything = playlists.find((playlist) => playlist.name === 'Everything I Love');
      expect(everything?.entries.filter((entry) => entry.kind === 'track').length).toBeGreaterThanOrEqual(
        1_000,
      );
      expect(playlists.find((playlist) => playlist.name === 'New Playlist')?.entries).toEqual([]);
      expect(playlists.length).toBeGreaterThanOrEqual(8);
    }
  });

  it('includes unavailable entries, local files and an episode among normal tracks', () => {
    const kinds = new Set(spotify.flatMap((playlist) => playlist.entries.map((entry) => entry.kind)));
    expect(kinds).toEqual(new Set(['track', 'unavailable', 'local', 'episode']));
    const mixed = spotify.find((playlist) => playlist.entries.some((entry) => entry.kind === 'unavailable'));
    expect(mixed?.entries.some((entry) => entry.kind === 'track')).toBe(true);
    expect(apple.some((playlist) => playlist.entries.some((entry) => entry.kind === 'unavailable'))).toBe(
      true,
    );
    expect(apple.some((playlist) => playlist.entries.some((entry) => entry.kind === 'episode'))).toBe(false);
  });

  it('contains specific versions (live, remastered) that matching must keep', () => {
    const versions = new Set(
      spotify.flatMap((playlist) =>
        playlist.entries.flatMap((entry) =>
          entry.kind === 'track' ? [byKey.get(entry.trackKey)?.version] : [],
        ),
      ),
    );
    expect(versions.has('live')).toBe(true);
    expect(versions.has('remaster')).toBe(true);
    expect(versions.has('original')).toBe(true);
  });

  it('spreads added-at dates over years, in order within each playlist', () => {
    const everything = spotify.find((playlist) => playlist.name === 'Everything I Love');
    const dates = everything?.entries.map((entry) => entry.addedAt) ?? [];
    expect(dates.filter((date) => !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(date))).toEqual([]);
    expect([...dates].sort()).toEqual(dates);
    expect(new Set(dates.map((date) => date.slice(0, 4))).size).toBeGreaterThanOrEqual(8);
    expect(dates.every((date) => date < '2026-11-22')).toBe(true);
  });
});

describe('the saved library (liked songs and albums)', () => {
  const saved = catalog.demoLibraries.saved;
  const onService = (key: string, service: 'spotify' | 'apple') => {
    const track = byKey.get(key);
    return service === 'spotify'
      ? (track?.spotify?.markets.length ?? 0) > 0
      : (track?.apple?.storefronts.length ?? 0) > 0;
  };

  it('likes 60–150 songs, newest first, the same music on both services', () => {
    if (!saved) throw new Error('no saved library');
    for (const service of ['spotify', 'apple'] as const) {
      const liked = saved[service].liked;
      expect(liked.length).toBeGreaterThanOrEqual(59);
      expect(liked.length).toBeLessThanOrEqual(150);
      expect(liked.every((entry) => onService(entry.trackKey, service))).toBe(true);
      const dates = liked.map((entry) => entry.addedAt);
      expect([...dates].sort().reverse()).toEqual(dates);
    }
    const spotify = new Set(saved.spotify.liked.map((entry) => entry.trackKey));
    const shared = saved.apple.liked.filter((entry) => spotify.has(entry.trackKey));
    // Only songs the other service lacks differ (as in the playlists).
    expect(shared.length).toBeGreaterThanOrEqual(saved.apple.liked.length * 0.9);
    const differing = saved.apple.liked.filter((entry) => !spotify.has(entry.trackKey));
    expect(differing.every((entry) => !onService(entry.trackKey, 'spotify'))).toBe(true);
    // A couple of geo-locked songs among them.
    const locked = saved.spotify.liked.filter(
      (entry) => (byKey.get(entry.trackKey)?.spotify?.markets.length ?? 0) < 20,
    );
    expect(locked.length).toBeGreaterThanOrEqual(1);
  });

  it('saves 5–8 whole albums: one Apple lists under another UPC, one on one service only', () => {
    if (!saved) throw new Error('no saved library');
    const all = new Set([...saved.spotify.albums, ...saved.apple.albums].map((entry) => entry.releaseKey));
    expect(all.size).toBeGreaterThanOrEqual(5);
    expect(all.size).toBeLessThanOrEqual(8);
    const releases = [...all].map((key) => catalog.releases.get(key));
    expect(releases.every((release) => release?.type === 'album' && /^\d+$/.test(release.upc))).toBe(true);
    expect(
      releases.some((release) => release?.appleUpc !== undefined && release.appleUpc !== release.upc),
    ).toBe(true);
    const spotify = new Set(saved.spotify.albums.map((entry) => entry.releaseKey));
    const apple = new Set(saved.apple.albums.map((entry) => entry.releaseKey));
    expect([...all].filter((key) => spotify.has(key) !== apple.has(key))).toHaveLength(1);
  });
});
