import { describe, expect, it } from 'vitest';
import type { Library } from './library';
import { genreLabel, sampleLibrary } from './library';
import { moodForGenre } from './moods';
import { buildTasteGraph } from './taste-graph';
import { buildTasteTimeline } from './taste-timeline';

const track = (key: string, artists: string[], genres: string[], releaseYear: number) => ({
  key,
  name: key,
  artists,
  genres,
  releaseYear,
});

const library: Library = {
  services: ['spotify'],
  sample: false,
  playlists: [
    { id: 'a', name: 'A', tracks: [track('1', ['Ann'], ['pop'], 2024), track('2', ['Bob'], ['rock'], 2024)] },
    {
      id: 'b',
      name: 'B',
      tracks: [track('1', ['Ann'], ['pop'], 2024), track('3', ['Bob'], ['rock', 'metal'], 2025)],
    },
    { id: 'c', name: 'C', tracks: [track('4', ['Cy'], ['jazz'], 1999)] },
  ],
};

describe('taste graph', () => {
  it('links genres that share a playlist, weighted by how many playlists', () => {
    const graph = buildTasteGraph(library, 'genres');
    expect(graph.nodes.map((node) => [node.label, node.value])).toEqual([
      ['Rock', 2],
      ['Jazz', 1],
      ['Metal', 1],
      ['Pop', 1],
    ]);
    const pop = graph.edges.find((edge) => edge.from === 'genre:pop' && edge.to === 'genre:rock');
    expect(pop?.value).toBe(2);
    expect(graph.edges.some((edge) => edge.from.includes('jazz') || edge.to.includes('jazz'))).toBe(false);
  });

  it('is the same graph every time for the same library', () => {
    expect(buildTasteGraph(sampleLibrary(), 'connections')).toEqual(
      buildTasteGraph(sampleLibrary(), 'connections'),
    );
  });
});

describe('taste timeline', () => {
  it('places tracks by release year, skips empty years and splits multi-genre tracks', () => {
    const timeline = buildTasteTimeline(library, '5years', new Date('2026-06-01T00:00:00Z'));
    expect(timeline.years).toEqual(['2024', '2025']);
    expect(timeline.genres).toEqual({ Rock: [50, 50], Pop: [50, 0], Metal: [0, 50] });
    expect(timeline.moods).toEqual({ Energetic: [50, 50], Happy: [50, 0], Intense: [0, 50] });
    const all = buildTasteTimeline(library, 'all', new Date('2026-06-01T00:00:00Z'));
    expect(all.years[0]).toBe('1999');
  });
});

describe('genre helpers', () => {
  it('labels and maps genres predictably', () => {
    expect(genreLabel('hip-hop')).toBe('Hip-Hop');
    expect(genreLabel('bossa nova')).toBe('Bossa Nova');
    expect(genreLabel('r&b')).toBe('R&B');
    expect(moodForGenre('Hip-Hop/Rap')).toBe('Energetic');
    expect(moodForGenre('dream pop')).toBe('Happy');
    expect(moodForGenre('gregorian chant')).toBe('Eclectic');
  });
});
