import { describe, expect, it } from 'vitest';
import { overallConfidenceBand, rowConfidenceBand } from '../../lib/confidence';
import { formatEta, percentDone, rateLimitWaitSeconds } from './job-progress';
import { filterPlaylists, highlightParts } from './playlist-search';

describe('confidence bands (spec section 9)', () => {
  it('colours rows green from 95, amber from 80, red below', () => {
    expect([100, 95, 94.9, 80, 79, 0].map(rowConfidenceBand)).toEqual([
      'success',
      'success',
      'warning',
      'warning',
      'error',
      'error',
    ]);
  });

  it('colours the overall confidence green from 90, amber from 70', () => {
    expect([90, 89, 70, 69].map(overallConfidenceBand)).toEqual(['success', 'warning', 'warning', 'error']);
  });
});

describe('playlist search (spec section 2)', () => {
  const playlists = [{ name: 'Road Trip' }, { name: 'Long Haul' }, { name: 'trip hop' }];

  it('matches case-insensitive substrings of the name; blank shows all', () => {
    expect(filterPlaylists(playlists, 'TRIP').map((p) => p.name)).toEqual(['Road Trip', 'trip hop']);
    expect(filterPlaylists(playlists, '   ')).toHaveLength(3);
    expect(filterPlaylists(playlists, 'jazz')).toEqual([]);
  });

  it('marks every matched part, keeping the original letters', () => {
    expect(highlightParts('Trip to Trip', 'trip')).toEqual([
      { text: 'Trip', match: true },
      { text: ' to ', match: false },
      { text: 'Trip', match: true },
    ]);
    expect(highlightParts('Road Trip', '')).toEqual([{ text: 'Road Trip', match: false }]);
  });
});

describe('job progress', () => {
  it('says how long is left', () => {
    expect(formatEta(null)).toBeNull();
    expect(formatEta(12.4)).toBe('About 12 s left');
    expect(formatEta(150)).toBe('About 3 min left');
  });

  it('counts down a rate-limit wait and ignores one that is over', () => {
    const now = Date.parse('2026-11-22T10:00:00.000Z');
    const progress = { done: 1, total: 4, phase: 'matching', waitingUntil: '2026-11-22T10:00:11.200Z' };
    expect(rateLimitWaitSeconds(progress, now)).toBe(12);
    expect(rateLimitWaitSeconds(progress, now + 20_000)).toBeNull();
    expect(percentDone(progress)).toBe(25);
    expect(percentDone(null)).toBe(0);
  });
});
