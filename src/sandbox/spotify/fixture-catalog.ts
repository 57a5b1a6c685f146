import type { Catalog, CatalogRelease, CatalogTrack, DemoPlaylistEntry } from '../catalog/types';
import { base62Id } from './ids';

/**
 * A small hand-made catalog for the emulator's and the client's tests (the real generator lives in
 * src/sandbox/catalog). It holds the cases a transfer meets: a plain song and its acoustic version, a
 * featured artist, accents, a geo-locked song, a song Spotify lacks, a shared ISRC, and a long playlist.
 */

const EVERYWHERE = ['US', 'GB', 'DE', 'FR', 'CA', 'AU', 'JP', 'KR', 'BR', 'IN', 'ZA'];

export const FIXTURE_KEYS = {
  heaven: 'heaven',
  heavenAcoustic: 'heaven-acoustic',
  goldenHour: 'golden-hour',
  dejaVu: 'deja-vu',
  neonRain: 'neon-rain',
  appleOnly: 'apple-only',
  withdrawn: 'withdrawn',
  paperPlanesSingle: 'paper-planes-single',
  paperPlanesAlbum: 'paper-planes-album',
} as const;

export const fixtureSpotifyId = (key: string) => base62Id(`fixture-track:${key}`);

export const ROAD_TRIP_KEY = 'road-trip';
export const LONG_PLAYLIST_KEY = 'long-haul';
export const LONG_PLAYLIST_LENGTH = 120;

function release(
  key: string,
  name: string,
  type: CatalogRelease['type'],
  artists: string[],
  date: string,
  total: number,
) {
  return {
    key,
    name,
    type,
    artists,
    releaseDate: date,
    totalTracks: total,
    upc: `00${base62Id(key).replace(/\D/g, '').padEnd(10, '7').slice(0, 10)}`,
  };
}

interface TrackSpec {
  key: string;
  title: string;
  artists: string[];
  featured?: string[];
  releaseKey: string;
  isrc: string;
  markets?: string[] | null;
  explicit?: boolean;
  durationMs?: number;
  trackNumber?: number;
}

function track(spec: TrackSpec): CatalogTrack {
  const markets = spec.markets === undefined ? EVERYWHERE : spec.markets;
  return {
    key: spec.key,
    isrc: spec.isrc,
    title: spec.title,
    artists: spec.artists,
    featured: spec.featured ?? [],
    releaseKey: spec.releaseKey,
    trackNumber: spec.trackNumber ?? 1,
    discNumber: 1,
    durationMs: spec.durationMs ?? 215_000,
    explicit: spec.explicit ?? false,
    genres: ['pop'],
    spotify: markets === null ? null : { id: fixtureSpotifyId(spec.key), markets },
    apple: {
      id: String(1_400_000_000 + spec.isrc.length * 1000 + spec.key.length),
      storefronts: ['us', 'gb'],
    },
  };
}

export function buildFixtureCatalog(): Catalog {
  const releases = [
    release('northern-lights', 'Northern Lights', 'album', ['Aurora Vale'], '2021-03-19', 11),
    release('heaven-acoustic-single', 'Heaven (Acoustic)', 'single', ['Aurora Vale'], '2022-01-07', 1),
    release('sunset-sessions', 'Sunset Sessions', 'album', ['Milo Reyes'], '2019-06', 9),
    release('memoires', 'Mémoires', 'album', ['Élodie Marchand'], '2016', 10),
    release('city-circuits', 'City Circuits', 'album', ['Kite Machine'], '2023-09-01', 8),
    release('paper-planes-single', 'Paper Planes', 'single', ['Juno Park'], '2020-02-14', 1),
    release('paper-planes-album', 'Flight Paths', 'album', ['Juno Park'], '2020-05-01', 12),
    release('long-haul-album', 'Long Haul', 'album', ['Various Drivers'], '2018-08-08', LONG_PLAYLIST_LENGTH),
  ];
  const tracks: CatalogTrack[] = [
    track({
      key: FIXTURE_KEYS.heaven,
      title: 'Heaven',
      artists: ['Aurora Vale'],
      releaseKey: 'northern-lights',
      isrc: 'USAV12100001',
      trackNumber: 3,
    }),
    track({
      key: FIXTURE_KEYS.heavenAcoustic,
      title: 'Heaven - Acoustic',
      artists: ['Aurora Vale'],
      releaseKey: 'heaven-acoustic-single',
      isrc: 'USAV12200001',
    }),
    track({
      key: FIXTURE_KEYS.goldenHour,
      title: 'Golden Hour',
      artists: ['Milo Reyes', 'Aurora Vale'],
      featured: ['Aurora Vale'],
      releaseKey: 'sunset-sessions',
      isrc: 'USMR11900004',
      explicit: true,
      trackNumber: 4,
    }),
    track({
      key: FIXTURE_KEYS.dejaVu,
      title: 'Déjà Vu',
      artists: ['Élodie Marchand'],
      releaseKey: 'memoires',
      isrc: 'FREM11600002',
      trackNumber: 2,
    }),
    track({
      key: FIXTURE_KEYS.neonRain,
      title: 'Neon Rain',
      artists: ['Kite Machine'],
      releaseKey: 'city-circuits',
      isrc: 'GBKM12300005',
      markets: ['US', 'GB'],
      trackNumber: 5,
    }),
    track({
      key: FIXTURE_KEYS.appleOnly,
      title: 'Orchard Song',
      artists: ['Kite Machine'],
      releaseKey: 'city-circuits',
      isrc: 'GBKM12300006',
      markets: null,
      trackNumber: 6,
    }),
    track({
      key: FIXTURE_KEYS.withdrawn,
      title: 'Withdrawn Single',
      artists: ['Kite Machine'],
      releaseKey: 'city-circuits',
      isrc: 'GBKM12300007',
      markets: [],
      trackNumber: 7,
    }),
    track({
      key: FIXTURE_KEYS.paperPlanesSingle,
      title: 'Paper Planes',
      artists: ['Juno Park'],
      releaseKey: 'paper-planes-single',
      isrc: 'KRJP12000001',
    }),
    track({
      key: FIXTURE_KEYS.paperPlanesAlbum,
      title: 'Paper Planes',
      artists: ['Juno Park'],
      releaseKey: 'paper-planes-album',
      isrc: 'KRJP12000001',
      trackNumber: 7,
    }),
  ];
  const words = ['Amber', 'Blue', 'Cedar', 'Drift', 'Echo', 'Fable', 'Glow', 'Harbor', 'Iris', 'Jade'];
  for (let n = 1; n <= LONG_PLAYLIST_LENGTH; n++) {
    tracks.push(
      track({
        key: `long-${n}`,
        title: `Mile ${n} ${words[n % words.length]}`,
        artists: [`Driver ${words[(n * 3) % words.length]}`],
        releaseKey: 'long-haul-album',
        isrc: `USLH1180${String(n).padStart(4, '0')}`,
        trackNumber: n,
        durationMs: 180_000 + n * 1000,
      }),
    );
  }

  const at = (day: number) => `2025-0${1 + (day % 9)}-1${day % 10}T08:00:00Z`;
  const roadTrip: DemoPlaylistEntry[] = [
    { kind: 'track', trackKey: FIXTURE_KEYS.heaven, addedAt: at(1) },
    { kind: 'track', trackKey: FIXTURE_KEYS.goldenHour, addedAt: at(2) },
    { kind: 'unavailable', addedAt: at(3) },
    {
      kind: 'local',
      title: 'Garage Demo',
      artist: 'The Basement',
      album: 'Tapes & Things',
      durationMs: 185_000,
      addedAt: at(4),
    },
    {
      kind: 'episode',
      title: 'Episode 12: Road Songs',
      show: 'Music Talk',
      durationMs: 1_800_000,
      addedAt: at(5),
    },
    { kind: 'track', trackKey: FIXTURE_KEYS.neonRain, addedAt: at(6) },
    { kind: 'track', trackKey: FIXTURE_KEYS.appleOnly, addedAt: at(7) },
    { kind: 'track', trackKey: FIXTURE_KEYS.dejaVu, addedAt: at(8) },
  ];
  const longHaul: DemoPlaylistEntry[] = Array.from({ length: LONG_PLAYLIST_LENGTH }, (_, i) => ({
    kind: 'track',
    trackKey: `long-${i + 1}`,
    addedAt: at(i),
  }));

  return {
    tracks,
    releases: new Map(releases.map((r) => [r.key, r])),
    demoLibraries: {
      spotify: [
        { key: ROAD_TRIP_KEY, name: 'Road Trip', description: 'Songs for the drive', entries: roadTrip },
        { key: LONG_PLAYLIST_KEY, name: 'Long Haul', description: 'A long one', entries: longHaul },
      ],
      apple: [],
    },
  };
}
