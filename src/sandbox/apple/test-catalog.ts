import type { Catalog, CatalogRelease, CatalogTrack, DemoPlaylistEntry } from '../catalog/types';

/**
 * A small hand-made catalog for the Apple emulator and client tests (the real generator lives elsewhere).
 * It holds the cases Apple makes awkward: a recording on a single and an album sharing an ISRC, featured
 * and multiple artists, a song only some storefronts carry, a track Apple lacks, uploads, and a 250-song
 * playlist that needs three pages.
 */

export const FILLER_COUNT = 250;
export const fillerIsrc = (index: number) => `QZFIL24${String(index).padStart(5, '0')}`;
export const fillerAppleId = (index: number) => String(1_600_000_000 + index);

const release = (
  key: string,
  name: string,
  type: CatalogRelease['type'],
  artists: string[],
  releaseDate: string,
) =>
  [
    key,
    { key, name, type, artists, releaseDate, totalTracks: 10, upc: `0000${key.length}00000000` },
  ] as const;

function track(
  partial: Partial<CatalogTrack> & Pick<CatalogTrack, 'key' | 'isrc' | 'title' | 'artists'>,
): CatalogTrack {
  return {
    featured: [],
    releaseKey: 'r-northern',
    trackNumber: 1,
    discNumber: 1,
    durationMs: 200_000,
    explicit: false,
    genres: ['Pop'],
    spotify: {
      id: `${partial.key
        .replace(/[^A-Za-z0-9]/g, '')
        .padEnd(22, 'x')
        .slice(0, 22)}`,
      markets: ['US'],
    },
    apple: null,
    ...partial,
  };
}

export const TEST_TRACKS = {
  heavenSingle: track({
    key: 't-heaven-single',
    isrc: 'USAAA2400001',
    title: 'Heaven',
    artists: ['Maya Stone'],
    releaseKey: 'r-heaven',
    durationMs: 215_000,
    apple: { id: '1500000001', storefronts: ['US', 'GB', 'JP'] },
  }),
  heavenAlbum: track({
    key: 't-heaven-album',
    isrc: 'USAAA2400001',
    title: 'Heaven',
    artists: ['Maya Stone'],
    trackNumber: 4,
    durationMs: 215_500,
    apple: { id: '1500000002', storefronts: ['US', 'GB'] },
  }),
  nightDrive: track({
    key: 't-night-drive',
    isrc: 'USAAA2400002',
    title: 'Night Drive',
    artists: ['Maya Stone', 'Leo Park', 'Ana Ruiz'],
    featured: ['Ana Ruiz'],
    explicit: true,
    genres: ['Pop', 'Electronic'],
    apple: { id: '1500000003', storefronts: ['US', 'GB', 'JP'] },
  }),
  heavenAcoustic: track({
    key: 't-heaven-acoustic',
    isrc: 'USAAA2400003',
    title: 'Heaven - Acoustic',
    artists: ['Maya Stone'],
    trackNumber: 9,
    apple: { id: '1500000004', storefronts: ['US'] },
  }),
  usOnly: track({
    key: 't-us-only',
    isrc: 'USAAA2400004',
    title: 'Border Town',
    artists: ['The Quiet Hours'],
    version: 'clean',
    apple: { id: '1500000005', storefronts: ['US'] },
  }),
  notOnApple: track({
    key: 't-not-on-apple',
    isrc: 'USAAA2400005',
    title: 'Lost Tape',
    artists: ['Nobody Famous'],
    apple: null,
  }),
  trio: track({
    key: 't-trio',
    isrc: 'USAAA2400006',
    title: 'Three Voices',
    artists: ['Ana Ruiz', 'Leo Park', 'Maya Stone'],
    releaseKey: 'r-heaven',
    apple: { id: '1500000007', storefronts: ['US', 'JP'] },
  }),
} satisfies Record<string, CatalogTrack>;

export const ROAD_TRIP_ENTRIES = 7;
export const FRIEND_NAME = 'Jordan Lee';

export function buildTestCatalog(): Catalog {
  const fillers = Array.from({ length: FILLER_COUNT }, (_, index) =>
    track({
      key: `t-filler-${index}`,
      isrc: fillerIsrc(index),
      title: `Filler Song ${index}`,
      artists: ['Paging Band'],
      releaseKey: 'r-filler',
      trackNumber: (index % 20) + 1,
      apple: { id: fillerAppleId(index), storefronts: ['US', 'GB'] },
    }),
  );
  const addedAt = '2025-03-01T10:00:00Z';
  const entry = (trackKey: string): DemoPlaylistEntry => ({ kind: 'track', trackKey, addedAt });
  return {
    tracks: [...Object.values(TEST_TRACKS), ...fillers],
    releases: new Map([
      release('r-northern', 'Northern Lights', 'album', ['Maya Stone'], '2024-05-10'),
      release('r-heaven', 'Heaven', 'single', ['Maya Stone'], '2024-02-02'),
      release('r-filler', 'Pages', 'album', ['Paging Band'], '2023'),
    ]),
    demoLibraries: {
      spotify: [],
      apple: [
        {
          key: 'big-mix',
          name: 'Big Mix',
          description: 'Two hundred and fifty songs',
          entries: fillers.map((filler) => entry(filler.key)),
        },
        {
          key: 'road-trip',
          name: 'Road Trip',
          description: 'Songs for the drive',
          entries: [
            entry(TEST_TRACKS.heavenSingle.key),
            entry(TEST_TRACKS.nightDrive.key),
            { kind: 'unavailable', addedAt },
            {
              kind: 'local',
              title: 'Garage Demo',
              artist: 'My Band',
              album: 'Tapes',
              durationMs: 123_000,
              addedAt,
            },
            entry(TEST_TRACKS.notOnApple.key),
            entry(TEST_TRACKS.trio.key),
            { kind: 'episode', title: 'Episode 1', show: 'A Podcast', durationMs: 1_800_000, addedAt },
            entry(TEST_TRACKS.heavenAcoustic.key),
          ],
        },
        { key: 'empty', name: 'Nothing Yet', description: '', entries: [] },
        {
          key: 'friend-picks',
          name: 'Friend Picks',
          description: 'Followed, not owned',
          ownerName: FRIEND_NAME,
          followedOnly: true,
          entries: [entry(TEST_TRACKS.nightDrive.key), entry(TEST_TRACKS.usOnly.key)],
        },
      ],
    },
  };
}
