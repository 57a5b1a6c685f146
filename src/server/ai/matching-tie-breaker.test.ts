import { describe, expect, it } from 'vitest';
import { rankCandidates } from '../matching';
import type { NormalizedTrack } from '../providers/types';
import { LocalAiEngine } from './local-engine';
import { createMatchingTieBreaker } from './matching-tie-breaker';

function track(id: string, overrides: Partial<NormalizedTrack> = {}): NormalizedTrack {
  return {
    id,
    uri: `spotify:track:${id}`,
    name: 'Dreams',
    artists: ['Fleetwood Mac'],
    album: 'Rumours',
    durationMs: 257_800,
    explicit: false,
    albumType: 'album',
    ...overrides,
  };
}

describe('createMatchingTieBreaker', () => {
  it("feeds matching's own candidates and version labels to the engine", async () => {
    const source = track('src', { name: 'Dreams - 2004 Remaster' });
    const candidates = rankCandidates(source, [
      track('live', { name: 'Dreams - Live', album: 'The Dance', durationMs: 258_300 }),
      track('plain', { durationMs: 258_100 }),
      track('remastered', {
        name: 'Dreams (2004 Remaster)',
        album: 'Rumours (Super Deluxe)',
        durationMs: 257_900,
      }),
    ]);
    const answer = await createMatchingTieBreaker(new LocalAiEngine())(source, candidates);
    expect(answer?.chosenId).toBe('remastered');
    expect(answer?.reason).toContain('"Dreams - Live": another version (live');
  });
});
