import { latinSpellings } from '../src/sandbox/catalog/latin-spellings';
import { foldText } from '../src/server/matching/normalize';
import type { MusicProvider, NormalizedTrack, TrackQuery } from '../src/server/providers/types';
import type { ServiceId } from '../src/shared/services';

/**
 * The benchmark's stand-in for a catalog search: an inverted index over folded words, ranked by the
 * summed rarity of the query words a track contains. Only search and ISRC lookup exist; the benchmark
 * never creates playlists.
 */
const COMMON_WORD_POSTINGS = 2_000;

function containsSorted(list: readonly number[], value: number): boolean {
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const at = list[mid] ?? 0;
    if (at === value) return true;
    if (at < value) low = mid + 1;
    else high = mid - 1;
  }
  return false;
}

export class CatalogIndex implements MusicProvider {
  readonly addBatchSize = 100;
  readonly appendOnly = true;
  searchCalls = 0;
  isrcCalls = 0;

  private readonly postings = new Map<string, number[]>();
  private readonly titlePostings = new Map<string, number[]>();
  private readonly byIsrc = new Map<string, NormalizedTrack[]>();

  constructor(
    private readonly tracks: readonly NormalizedTrack[],
    readonly service: ServiceId = 'apple',
    readonly isrcBatchSize = 25,
  ) {
    // Names in another script are found by their Latin spelling too, as on both services.
    const withLatin = (text: string) => [text, ...latinSpellings(text)].join(' ');
    tracks.forEach((track, index) => {
      const text = `${track.name} ${track.artists.join(' ')} ${track.album}`;
      const words = new Set(foldText(withLatin(text)).split(' '));
      for (const word of words) {
        if (word === '') continue;
        const list = this.postings.get(word);
        if (list) list.push(index);
        else this.postings.set(word, [index]);
      }
      for (const word of new Set(foldText(withLatin(track.name)).split(' '))) {
        if (word === '') continue;
        const list = this.titlePostings.get(word);
        if (list) list.push(index);
        else this.titlePostings.set(word, [index]);
      }
      if (track.isrc) {
        const list = this.byIsrc.get(track.isrc) ?? [];
        list.push(track);
        this.byIsrc.set(track.isrc, list);
      }
    });
  }

  async searchTracks(query: TrackQuery, options?: { limit?: number }): Promise<NormalizedTrack[]> {
    this.searchCalls++;
    const limit = options?.limit ?? 10;
    const text = [query.title, query.artist, query.album, query.text].filter(Boolean).join(' ');
    const words = [...new Set(foldText(text).split(' '))].filter((w) => w !== '');
    const lists = words
      .map((word) => this.postings.get(word))
      .filter((list): list is number[] => list !== undefined)
      .sort((a, b) => a.length - b.length);
    const scores = new Map<number, number>();
    for (const [position, list] of lists.entries()) {
      // Very common words ("the", "love") only rank, they never widen the net: a real search engine is
      // just as unhelpful on them and scanning their postings would dominate the benchmark's time.
      const weight = Math.log(1 + this.tracks.length / list.length);
      if (position > 0 && list.length > COMMON_WORD_POSTINGS) {
        for (const [index, score] of scores)
          if (containsSorted(list, index)) scores.set(index, score + weight);
        continue;
      }
      for (const index of list) scores.set(index, (scores.get(index) ?? 0) + weight);
    }
    // Like a real catalog search, a word found in the title counts more than one found in the album.
    const titleWords = foldText([query.title, query.text].filter(Boolean).join(' ')).split(' ');
    for (const word of new Set(titleWords)) {
      const list = this.titlePostings.get(word);
      if (!list) continue;
      const weight = Math.log(1 + this.tracks.length / list.length);
      for (const [index, score] of scores) if (containsSorted(list, index)) scores.set(index, score + weight);
    }
    return [...scores.entries()]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, limit)
      .map(([index]) => this.tracks[index])
      .filter((t): t is NormalizedTrack => t !== undefined);
  }

  async lookupIsrcs(isrcs: string[]): Promise<Map<string, NormalizedTrack[]>> {
    this.isrcCalls++;
    if (isrcs.length > this.isrcBatchSize)
      throw new Error(`ISRC batch of ${isrcs.length} over ${this.isrcBatchSize}`);
    const answer = new Map<string, NormalizedTrack[]>();
    for (const isrc of isrcs) answer.set(isrc, this.byIsrc.get(isrc) ?? []);
    return answer;
  }

  private unsupported(): never {
    throw new Error('The benchmark catalog only searches.');
  }

  getCurrentUser = async () => this.unsupported();
  listPlaylists = async () => this.unsupported();
  getPlaylist = async () => this.unsupported();
  getTrack = async () => this.unsupported();
  createPlaylist = async () => this.unsupported();
  addTracks = async () => this.unsupported();
  getAvailability = async () => this.unsupported();
  readSharedPlaylist = async () => this.unsupported();
  listLibrary = async () => this.unsupported();
  saveTracks = async () => this.unsupported();
  saveAlbums = async () => this.unsupported();
  savedTracksContain = async () => this.unsupported();
  findAlbums = async () => this.unsupported();
  getAlbumTracks = async () => this.unsupported();
}
