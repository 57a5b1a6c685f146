/**
 * The finder's order of preference against a minimal fake of a service's catalog with per-region
 * availability. The fake stands in for the external service only; region-api.int.test.ts runs the same code
 * against the sandbox emulators over HTTP.
 */
import { describe, expect, it } from 'vitest';
import { LocalAiEngine } from '../ai/local-engine';
import type { MusicProvider, NormalizedTrack, TrackQuery } from '../providers/types';
import { findAlternatives } from './find-alternatives';

type RegionalTrack = NormalizedTrack & { regions: string[] };

class FakeCatalog implements MusicProvider {
  readonly service = 'spotify' as const;
  readonly addBatchSize = 100;
  readonly isrcBatchSize = 1;
  readonly appendOnly = false;
  constructor(private readonly tracks: RegionalTrack[]) {}
  private playable(track: RegionalTrack, region?: string) {
    return region === undefined || track.regions.includes(region.toUpperCase());
  }
  async getAvailability(ids: string[], region: string) {
    return new Map(ids.map((id) => [id, this.tracks.some((t) => t.id === id && this.playable(t, region))]));
  }
  async lookupIsrcs(isrcs: string[], options?: { region?: string }) {
    return new Map(
      isrcs.map((isrc) => [
        isrc,
        this.tracks.filter((t) => t.isrc === isrc && this.playable(t, options?.region)),
      ]),
    );
  }
  async searchTracks(query: TrackQuery, options?: { region?: string }) {
    const words = [query.title, query.artist].join(' ').toLowerCase().split(/\s+/).filter(Boolean);
    return this.tracks.filter((t) => {
      const text = `${t.name} ${t.artists.join(' ')}`.toLowerCase();
      return words.every((w) => text.includes(w)) && this.playable(t, options?.region);
    });
  }
  getCurrentUser = async () => ({ id: 'x' });
  listPlaylists = async () => [];
  getPlaylist = async () => ({ playlist: { id: 'p', name: 'p', trackCount: 0 }, entries: [] });
  getTrack = async () => null;
  createPlaylist = async () => ({ id: 'n', url: 'u' });
  addTracks = async () => undefined;
  readSharedPlaylist = async () => ({ playlist: { id: 'p', name: 'p', trackCount: 0 }, entries: [] });
  listLibrary = async () => ({
    liked: { id: 'library:liked', name: 'Liked Songs', trackCount: 0 },
    albums: [],
  });
  saveTracks = async () => undefined;
  saveAlbums = async () => undefined;
  savedTracksContain = async (uris: string[]) => uris.map(() => false);
  findAlbums = async () => [];
  getAlbumTracks = async () => [];
}

const track = (
  id: string,
  name: string,
  regions: string[],
  extra: Partial<NormalizedTrack> = {},
): RegionalTrack => ({
  id,
  uri: `spotify:track:${id}`,
  name,
  artists: ['Mira Lane'],
  album: 'Album',
  durationMs: 200_000,
  regions,
  ...extra,
});

const ai = new LocalAiEngine();

describe('findAlternatives', () => {
  it('prefers the same recording, then the same song on another album, then another version, else none', async () => {
    const lockedWithTwin = track('a1', 'Golden Hour', ['US'], { isrc: 'USRC10000001', album: 'Single' });
    const twin = track('a2', 'Golden Hour', ['US', 'JP'], { isrc: 'USRC10000001', album: 'Best Of' });
    const lockedStudio = track('b1', 'Neon Rain', ['US'], { isrc: 'USRC10000002' });
    const otherAlbum = track('b2', 'Neon Rain', ['US', 'JP'], { isrc: 'USRC10000003', album: 'Deluxe' });
    const liveOfB = track('b3', 'Neon Rain - Live', ['JP'], { isrc: 'USRC10000004' });
    const lockedC = track('c1', 'Paper Moon', ['US'], { isrc: 'USRC10000005' });
    const liveOfC = track('c2', 'Paper Moon - Live', ['JP'], {
      isrc: 'USRC10000006',
      album: 'Live in Tokyo',
    });
    const lockedD = track('d1', 'Slow Burn', ['US']);
    const elsewhere = track('d2', 'Slow Burn', ['KR']);
    const playable = track('e1', 'Ocean Eyes', ['US', 'JP']);
    const catalog = new FakeCatalog([
      lockedWithTwin,
      twin,
      lockedStudio,
      otherAlbum,
      liveOfB,
      lockedC,
      liveOfC,
      lockedD,
      elsewhere,
      playable,
    ]);

    const result = await findAlternatives(
      catalog,
      ai,
      [lockedWithTwin, lockedStudio, lockedC, lockedD, playable],
      'JP',
    );
    expect(result.checked).toBe(5);
    expect(result.unavailable).toBe(4);
    const byId = new Map(result.alternatives.map((entry) => [entry.original.id, entry]));
    expect(byId.get('a1')).toMatchObject({ kind: 'same_recording', alternative: { id: 'a2' } });
    expect(byId.get('b1')).toMatchObject({ kind: 'same_song', alternative: { id: 'b2' } });
    expect(byId.get('c1')).toMatchObject({ kind: 'other_version', alternative: { id: 'c2' } });
    expect(byId.get('d1')).toMatchObject({ kind: 'none', alternative: null, confidence: 0 });
    expect(byId.has('e1')).toBe(false);
    const confidence = (id: string) => byId.get(id)?.confidence ?? -1;
    expect(confidence('a1')).toBeGreaterThan(confidence('b1'));
    expect(confidence('b1')).toBeGreaterThan(confidence('c1'));
    for (const entry of result.alternatives) expect(entry.explanation.length).toBeGreaterThan(0);
    expect(result.chosen.get('b1')?.id).toBe('b2');
  });
});
