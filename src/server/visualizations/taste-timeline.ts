import type { TimelineRange } from '../../shared/api/visualizations';
import { genreLabel, type Library, uniqueTracks } from './library';
import { MOODS, moodForGenre } from './moods';
import { largestRemainderPercentages } from './percentages';

/**
 * The taste timeline (spec section 2). A track belongs to the year it was released: neither
 * `MusicProvider` nor Apple's library API gives us when a song was added, so release years are the one
 * date every track carries. Each track's weight (1) is split evenly over its genres, and over those
 * genres' moods (see moods.ts); tracks with no known genre are left out. The leading `TOP_GENRES` genres
 * get their own series and the rest is "Other". Years with no classified track are omitted rather than
 * drawn as 0 %, so each listed year's series sum to exactly 100.
 */

const TOP_GENRES = 8;
const OTHER = 'Other';

export interface TimelineShape {
  years: string[];
  genres: Record<string, number[]>;
  moods: Record<string, number[]>;
}

export function firstYearOf(range: TimelineRange, currentYear: number, earliest: number): number {
  if (range === '5years') return currentYear - 4;
  if (range === 'decade') return currentYear - 9;
  return Math.min(earliest, currentYear);
}

export function buildTasteTimeline(library: Library, range: TimelineRange, now = new Date()): TimelineShape {
  const currentYear = now.getUTCFullYear();
  const classified = uniqueTracks(library).filter(
    (track) => track.genres.length > 0 && track.releaseYear !== undefined && track.releaseYear <= currentYear,
  );
  const earliest = Math.min(currentYear, ...classified.map((track) => track.releaseYear ?? currentYear));
  const from = firstYearOf(range, currentYear, earliest);
  const inRange = classified.filter((track) => (track.releaseYear ?? 0) >= from);

  const genreWeights = new Map<number, Map<string, number>>();
  const moodWeights = new Map<number, Map<string, number>>();
  const genreTotals = new Map<string, number>();
  const add = (table: Map<number, Map<string, number>>, year: number, name: string, weight: number) => {
    const row = table.get(year) ?? new Map<string, number>();
    row.set(name, (row.get(name) ?? 0) + weight);
    table.set(year, row);
  };
  for (const track of inRange) {
    const year = track.releaseYear ?? currentYear;
    const share = 1 / track.genres.length;
    for (const genre of track.genres) {
      const label = genreLabel(genre);
      add(genreWeights, year, label, share);
      add(moodWeights, year, moodForGenre(genre), share);
      genreTotals.set(label, (genreTotals.get(label) ?? 0) + share);
    }
  }

  const ranked = [...genreTotals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const leading = ranked.slice(0, TOP_GENRES).map(([name]) => name);
  const genreSeries = ranked.length > TOP_GENRES ? [...leading, OTHER] : leading;
  const leadingSet = new Set(leading);

  const moodTotals = new Map<string, number>();
  for (const row of moodWeights.values()) {
    for (const [mood, weight] of row) moodTotals.set(mood, (moodTotals.get(mood) ?? 0) + weight);
  }
  const moodSeries = MOODS.filter((mood) => moodTotals.has(mood)).sort(
    (a, b) => (moodTotals.get(b) ?? 0) - (moodTotals.get(a) ?? 0),
  );

  const years: number[] = [];
  for (let year = from; year <= currentYear; year += 1) if (genreWeights.has(year)) years.push(year);

  const genres: Record<string, number[]> = Object.fromEntries(genreSeries.map((name) => [name, []]));
  const moods: Record<string, number[]> = Object.fromEntries(moodSeries.map((name) => [name, []]));
  for (const year of years) {
    const genreRow = genreWeights.get(year) ?? new Map<string, number>();
    const folded = genreSeries.map((name) =>
      name === OTHER
        ? [...genreRow]
            .filter(([label]) => !leadingSet.has(label))
            .reduce((sum, [, weight]) => sum + weight, 0)
        : (genreRow.get(name) ?? 0),
    );
    largestRemainderPercentages(folded).forEach((value, index) => {
      genres[genreSeries[index] ?? OTHER]?.push(value);
    });
    const moodRow = moodWeights.get(year) ?? new Map<string, number>();
    largestRemainderPercentages(moodSeries.map((mood) => moodRow.get(mood) ?? 0)).forEach((value, index) => {
      moods[moodSeries[index] ?? OTHER]?.push(value);
    });
  }
  return { years: years.map(String), genres, moods };
}
