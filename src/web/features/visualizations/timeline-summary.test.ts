import { describe, expect, it } from 'vitest';
import { chartRows, timelineSummary } from './timeline-summary';

describe('timelineSummary', () => {
  it('names the three leading series by average share, never "Other"', () => {
    const series = { Other: [70, 70], Rock: [10, 20], Pop: [15, 5], 'Hip-Hop': [5, 5] };
    expect(timelineSummary(series, 'listening')).toBe(
      'Rock leads your listening, followed by Pop and Hip-Hop.',
    );
  });

  it('reads well with one or two series, and with none', () => {
    expect(timelineSummary({ Chill: [100] }, 'moods')).toBe('Chill leads your moods.');
    expect(timelineSummary({ Chill: [60], Happy: [40] }, 'moods')).toBe(
      'Chill leads your moods, followed by Happy.',
    );
    expect(timelineSummary({}, 'moods')).toBe('There is not enough information to describe your moods yet.');
  });
});

describe('chartRows', () => {
  it('turns series into one row per year', () => {
    expect(chartRows(['2020', '2021'], { Pop: [40, 30], Rock: [60, 70] })).toEqual([
      { year: '2020', Pop: 40, Rock: 60 },
      { year: '2021', Pop: 30, Rock: 70 },
    ]);
  });
});
