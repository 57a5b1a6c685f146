/**
 * The matching pipeline's contract, to be run against real destination clients (the Spotify and Apple
 * clients talking to the emulator over HTTP). A provider's test file calls `describeMatchingContract` with
 * a factory that starts its emulator, seeds the catalog and says which tracks are there:
 *
 *   describeMatchingContract('apple client', async () => ({ destination, present, absent, close }));
 *
 * Not a test file itself: it runs wherever it is called from.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MusicProvider, NormalizedTrack } from '../providers/types';
import { MemoryMatchCache } from './cache';
import { matchTracks } from './pipeline';

export interface MatchingContractFixture {
  destination: MusicProvider;
  /** Source-side tracks whose recording the destination catalog holds, with the destination id to expect. */
  present: { source: NormalizedTrack; destinationId: string }[];
  /** Source-side tracks the destination catalog does not hold at all. */
  absent: NormalizedTrack[];
  /** Source-side tracks of which the destination holds only other versions (live, remix, clean…). */
  onlyOtherVersions?: NormalizedTrack[];
  region?: string;
  close?: () => Promise<void>;
}

interface CallCounts {
  searches: number;
  isrcLookups: number;
}

/** Counts the catalog calls a provider receives; every other member passes through untouched. */
function counting(provider: MusicProvider, counts: CallCounts): MusicProvider {
  return new Proxy(provider, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (property === 'searchTracks') counts.searches++;
        if (property === 'lookupIsrcs') counts.isrcLookups++;
        return Reflect.apply(value, target, args);
      };
    },
  });
}

export function describeMatchingContract(name: string, setup: () => Promise<MatchingContractFixture>): void {
  describe(`matching contract: ${name}`, () => {
    let fixture: MatchingContractFixture;

    beforeAll(async () => {
      fixture = await setup();
    });
    afterAll(async () => {
      await fixture?.close?.();
    });

    it('accepts the same recording for every track the catalog holds', async () => {
      const matches = await matchTracks(
        fixture.present.map((p) => p.source),
        fixture.destination,
        fixture.region ? { region: fixture.region } : {},
      );
      const wrong = matches.filter(
        (m, i) => m.status !== 'accepted' || m.best?.track.id !== fixture.present[i]?.destinationId,
      );
      expect(
        wrong.map((m) => ({
          source: m.source.name,
          status: m.status,
          got: m.best?.track.id,
          reasons: m.reasons,
        })),
      ).toEqual([]);
    });

    it('accepts nothing for tracks the catalog lacks or holds only in another version', async () => {
      const sources = [...fixture.absent, ...(fixture.onlyOtherVersions ?? [])];
      const matches = await matchTracks(
        sources,
        fixture.destination,
        fixture.region ? { region: fixture.region } : {},
      );
      expect(matches.filter((m) => m.status === 'accepted').map((m) => m.source.name)).toEqual([]);
    });

    it('answers a repeated run from the cache without calling the service', async () => {
      const cache = new MemoryMatchCache();
      const sources = [...fixture.present.map((p) => p.source), ...fixture.absent];
      const options = { cache, ...(fixture.region ? { region: fixture.region } : {}) };
      const first = await matchTracks(sources, fixture.destination, options);
      const counts: CallCounts = { searches: 0, isrcLookups: 0 };
      const second = await matchTracks(sources, counting(fixture.destination, counts), options);
      expect(counts).toEqual({ searches: 0, isrcLookups: 0 });
      expect(second.map((m) => m.best?.track.id)).toEqual(first.map((m) => m.best?.track.id));
    });
  });
}
