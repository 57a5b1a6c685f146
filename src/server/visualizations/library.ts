import { SAMPLE_PLAYLISTS } from '../../shared/api/visualizations';
import type { ServiceId } from '../../shared/services';

/** A person's library reduced to what the taste views need. */
export interface LibraryTrack {
  /** `service:id`, so the same id on two services never collides. */
  key: string;
  name: string;
  artists: string[];
  /** Lower-cased genre names; empty when neither the service nor the Apple catalog knew any. */
  genres: string[];
  releaseYear?: number;
}

export interface LibraryPlaylist {
  id: string;
  name: string;
  tracks: LibraryTrack[];
}

export interface Library {
  services: ServiceId[];
  playlists: LibraryPlaylist[];
  sample: boolean;
}

export const sampleLibrary = (): Library => ({
  services: [],
  sample: true,
  playlists: SAMPLE_PLAYLISTS.map((playlist) => ({
    id: playlist.id,
    name: playlist.name,
    tracks: playlist.tracks.map((track) => ({
      key: `sample:${track.id}`,
      name: track.name,
      artists: track.artists,
      genres: track.genres,
      releaseYear: track.releaseYear,
    })),
  })),
});

/** Each track once, however many playlists hold it. */
export function uniqueTracks(library: Library): LibraryTrack[] {
  const byKey = new Map<string, LibraryTrack>();
  for (const playlist of library.playlists) {
    for (const track of playlist.tracks) if (!byKey.has(track.key)) byKey.set(track.key, track);
  }
  return [...byKey.values()];
}

const SPECIAL_LABELS: Record<string, string> = { 'r&b': 'R&B', 'r&b/soul': 'R&B/Soul', edm: 'EDM' };

/** "hip-hop" → "Hip-Hop", "bossa nova" → "Bossa Nova", "r&b" → "R&B". */
export function genreLabel(genre: string): string {
  const special = SPECIAL_LABELS[genre];
  if (special) return special;
  return genre.replace(
    /(^|[\s\-/&])(\p{L})/gu,
    (_, before: string, letter: string) => before + letter.toUpperCase(),
  );
}

export const releaseYearOf = (date: string | undefined): number | undefined => {
  const year = Number(date?.slice(0, 4));
  return Number.isInteger(year) && year > 1800 ? year : undefined;
};

export function librarySummary(library: Library) {
  const tracks = uniqueTracks(library);
  return {
    sample: library.sample,
    services: library.services,
    playlistCount: library.playlists.length,
    trackCount: tracks.length,
    tracksWithoutGenres: tracks.filter((track) => track.genres.length === 0).length,
  };
}
