import { generateCatalog } from '../../sandbox/catalog/generator';
import type { Catalog, CatalogTrack } from '../../sandbox/catalog/types';
import type { ServiceId } from '../../shared/services';
import type { NormalizedTrack } from '../providers/types';
import { startAppleSandbox } from '../testing/apple-sandbox';
import { connectedProvider, startSandbox } from '../testing/spotify-sandbox';
import { describeMatchingContract, type MatchingContractFixture } from './pipeline.contract';

/**
 * The matching contract against the real Spotify and Apple Music clients talking to their emulators over
 * HTTP, once with the rate limiter off and once with a limit so small that nearly every step runs into
 * it (the emulator's clock moves on when the client waits, so the test does not wait in real time).
 */
const catalog: Catalog = generateCatalog({ seed: 'matching-contract', trackCount: 3000 });
const releaseName = (track: CatalogTrack) => catalog.releases.get(track.releaseKey)?.name ?? '';

/** A source track as the other service would hand it over (Spotify style: feat. artists in the list). */
const asSource = (track: CatalogTrack): NormalizedTrack => ({
  id: `source-${track.key}`,
  uri: `source:${track.key}`,
  name: track.title,
  artists: track.artists,
  album: releaseName(track),
  durationMs: track.durationMs,
  isrc: track.isrc,
  explicit: track.explicit,
});

function fixtureTracks(destination: ServiceId) {
  const onDestination = catalog.tracks.filter((track) => track[destination] !== null);
  const isrcCount = new Map<string, number>();
  for (const track of onDestination) isrcCount.set(track.isrc, (isrcCount.get(track.isrc) ?? 0) + 1);
  const songsThere = new Set(onDestination.map((track) => track.songKey ?? track.key));
  const present = onDestination
    .filter(
      (track) =>
        track.version === 'original' &&
        isrcCount.get(track.isrc) === 1 &&
        track[destination === 'apple' ? 'spotify' : 'apple'],
    )
    .slice(0, 30)
    .map((track) => ({ source: asSource(track), destinationId: track[destination]?.id ?? '' }));
  const absent = catalog.tracks
    .filter((track) => track[destination] === null && !songsThere.has(track.songKey ?? track.key))
    .slice(0, 10)
    .map(asSource);
  // The contract means little on a handful of tracks: make sure the catalog gave us enough.
  if (present.length < 30 || absent.length < 5)
    throw new Error(`thin fixture: ${present.length} present, ${absent.length} absent`);
  return { present, absent };
}

for (const limited of [false, true]) {
  const label = limited ? 'rate limited (5 calls per second)' : 'no rate limit';

  describeMatchingContract(`Apple Music client, ${label}`, async (): Promise<MatchingContractFixture> => {
    let clock = 1_700_000_000_000;
    const sandbox = await startAppleSandbox({
      catalog,
      ...(limited ? { rateLimit: { budget: 5, windowMs: 1000 }, now: () => clock } : {}),
    });
    const destination = sandbox.provider({
      storefront: 'us',
      http: {
        backoffBaseMs: 200,
        sleep: async (ms) => {
          clock += ms;
        },
      },
    });
    return { destination, ...fixtureTracks('apple'), region: 'us', close: () => sandbox.close() };
  });

  describeMatchingContract(`Spotify client, ${label}`, async (): Promise<MatchingContractFixture> => {
    let clock = 1_700_000_000_000;
    const sandbox = await startSandbox({
      catalog,
      ...(limited ? { rateLimit: { budget: 5, windowMs: 1000 }, now: () => clock } : {}),
    });
    const { provider } = await connectedProvider(sandbox, {
      market: 'US',
      http: {
        sleep: async (ms) => {
          clock += ms;
        },
      },
    });
    return { destination: provider, ...fixtureTracks('spotify'), region: 'us', close: () => sandbox.close() };
  });
}
