import { latinSpellings } from '../catalog/latin-spellings';
import type { Catalog, CatalogRelease, CatalogTrack } from '../catalog/types';
import {
  albumIdFor,
  appleAlbumName,
  appleArtistName,
  appleSongName,
  joinArtists,
  searchTokens,
} from './apple-style';

/** A release as an Apple catalog album: the songs Apple carries, in disc and track order. */
export interface AppleAlbumRecord {
  id: string;
  release: CatalogRelease;
  name: string;
  artistName: string;
  /** Apple's UPC: the release's, unless Apple lists a reissue (`appleUpc`). */
  upc: string;
  songs: AppleSongRecord[];
  tokens: { name: string[]; artist: string[] };
}

/** A catalog track as Apple presents it, with the strings precomputed once. */
export interface AppleSongRecord {
  track: CatalogTrack;
  id: string;
  /** Lower-case storefront ids carrying the song. */
  storefronts: ReadonlySet<string>;
  release: CatalogRelease | undefined;
  albumId: string;
  name: string;
  artistName: string;
  albumName: string;
}

/** Token lists are short (a title has a handful of words), so arrays beat Sets in memory and build time. */
interface SearchFields {
  name: string[];
  artist: string[];
  album: string[];
}

/**
 * Apple's view of the catalog, indexed once: by song id, by ISRC and by search token (an inverted index,
 * so a search on a 100,000-track catalog touches only the posting lists of the query's tokens).
 */
export class AppleCatalogIndex {
  readonly songs: AppleSongRecord[] = [];
  private readonly byId = new Map<string, AppleSongRecord>();
  private readonly byIsrc = new Map<string, AppleSongRecord[]>();
  private readonly byKey = new Map<string, CatalogTrack>();
  private readonly postings = new Map<string, number[]>();
  private readonly fields: SearchFields[] = [];
  private readonly searchCache = new Map<string, AppleSongRecord[]>();
  private readonly albums = new Map<string, AppleAlbumRecord>();
  /** Tracks Apple does not carry at all: the songs behind library entries without a catalog counterpart. */
  readonly notOnApple: CatalogTrack[] = [];
  /** Every storefront some song is in. */
  readonly storefronts = new Set<string>();
  /** Most tracks share one of a few storefront lists: one Set per distinct list keeps the build fast. */
  private readonly storefrontSets = new Map<string, ReadonlySet<string>>();

  constructor(catalog: Catalog) {
    for (const track of catalog.tracks) {
      this.byKey.set(track.key, track);
      if (track.apple === null || track.apple.storefronts.length === 0) {
        this.notOnApple.push(track);
        continue;
      }
      const release = catalog.releases.get(track.releaseKey);
      const record: AppleSongRecord = {
        track,
        id: track.apple.id,
        storefronts: this.storefrontSet(track.apple.storefronts),
        release,
        albumId: albumIdFor(track.releaseKey),
        name: appleSongName(track),
        artistName: appleArtistName(track),
        albumName: appleAlbumName(release, track.title),
      };
      if (release) {
        let album = this.albums.get(record.albumId);
        if (!album) {
          const name = appleAlbumName(release, track.title);
          const artistName = joinArtists(release.artists);
          album = {
            id: record.albumId,
            release,
            name,
            artistName,
            upc: release.appleUpc ?? release.upc,
            songs: [],
            tokens: { name: searchTokens(name), artist: searchTokens(artistName) },
          };
          this.albums.set(album.id, album);
        }
        album.songs.push(record);
      }
      const index = this.songs.length;
      this.songs.push(record);
      this.byId.set(record.id, record);
      const isrc = track.isrc.toUpperCase();
      const sameIsrc = this.byIsrc.get(isrc);
      if (sameIsrc) sameIsrc.push(record);
      else this.byIsrc.set(isrc, [record]);

      // Names in another script are found by their Latin spelling too, as on Apple Music.
      const withLatin = (text: string) => [text, ...latinSpellings(text)].flatMap(searchTokens);
      const fields: SearchFields = {
        name: withLatin(record.name),
        artist: withLatin(track.artists.join(' ')),
        album: withLatin(record.albumName),
      };
      this.fields.push(fields);
      for (const tokens of [fields.name, fields.artist, fields.album]) {
        for (const token of tokens) {
          const list = this.postings.get(token);
          // Documents are added in index order, so a repeated token only ever repeats the last entry.
          if (!list) this.postings.set(token, [index]);
          else if (list[list.length - 1] !== index) list.push(index);
        }
      }
    }
    for (const album of this.albums.values()) {
      album.songs.sort(
        (a, b) => a.track.discNumber - b.track.discNumber || a.track.trackNumber - b.track.trackNumber,
      );
    }
  }

  private storefrontSet(storefronts: string[]): ReadonlySet<string> {
    const key = storefronts.join(',');
    const known = this.storefrontSets.get(key);
    if (known) return known;
    const set = new Set(storefronts.map((storefront) => storefront.toLowerCase()));
    for (const storefront of set) this.storefronts.add(storefront);
    this.storefrontSets.set(key, set);
    return set;
  }

  /** The album when the storefront carries some of its songs (any storefront without one). */
  album(id: string, storefront?: string): AppleAlbumRecord | undefined {
    const album = this.albums.get(id);
    if (!album?.songs.some((song) => storefront === undefined || song.storefronts.has(storefront)))
      return undefined;
    return album;
  }

  albumsByUpc(upc: string, storefront: string): AppleAlbumRecord[] {
    return [...this.albums.values()].flatMap((album) =>
      album.upc === upc ? (this.album(album.id, storefront) ?? []) : [],
    );
  }

  /** Albums whose name and artist hold every token of `term`, closest names first. */
  searchAlbums(term: string, storefront: string): AppleAlbumRecord[] {
    const tokens = [...new Set(searchTokens(term))];
    if (tokens.length === 0) return [];
    return [...this.albums.values()]
      .filter((album) =>
        tokens.every((token) => album.tokens.name.includes(token) || album.tokens.artist.includes(token)),
      )
      .flatMap((album) => this.album(album.id, storefront) ?? [])
      .sort((a, b) => a.tokens.name.length - b.tokens.name.length);
  }

  trackByKey(key: string): CatalogTrack | undefined {
    return this.byKey.get(key);
  }

  song(id: string, storefront: string): AppleSongRecord | undefined {
    const record = this.byId.get(id);
    return record?.storefronts.has(storefront) ? record : undefined;
  }

  /** Any storefront: used to accept an id the user adds to a library playlist. */
  songAnywhere(id: string): AppleSongRecord | undefined {
    return this.byId.get(id);
  }

  songsByIsrc(isrc: string, storefront: string): AppleSongRecord[] {
    return (this.byIsrc.get(isrc.toUpperCase()) ?? []).filter((record) => record.storefronts.has(storefront));
  }

  /**
   * Songs matching every token of `term` (or, when none does, at least half of them), best first: title
   * hits weigh most, then artist, then album; shorter titles win ties so "Heaven" ranks above
   * "Heaven - Acoustic" for the query "heaven".
   */
  search(term: string, storefront: string): AppleSongRecord[] {
    const tokens = [...new Set(searchTokens(term))];
    if (tokens.length === 0) return [];
    const cacheKey = `${storefront}\u0000${tokens.join(' ')}`;
    const cached = this.searchCache.get(cacheKey);
    if (cached) return cached;
    const lists = tokens.map((token) => this.postings.get(token) ?? []);
    let candidates = intersect(lists);
    if (candidates.length === 0 && tokens.length > 1) candidates = atLeastHalf(lists, this.songs.length);
    const scored: { index: number; score: number }[] = [];
    for (const index of candidates) {
      const record = this.songs[index];
      const fields = this.fields[index];
      if (!record || !fields || !record.storefronts.has(storefront)) continue;
      let score = 0;
      for (const token of tokens) {
        if (fields.name.includes(token)) score += 3;
        if (fields.artist.includes(token)) score += 2;
        if (fields.album.includes(token)) score += 1;
      }
      scored.push({ index, score: score - fields.name.length * 0.01 });
    }
    scored.sort((a, b) => b.score - a.score || a.index - b.index);
    const result = scored.flatMap(({ index }) => {
      const record = this.songs[index];
      return record ? [record] : [];
    });
    // The matching engine repeats searches (title+artist, then simplified title); a small cache saves work.
    if (this.searchCache.size >= 500) this.searchCache.clear();
    this.searchCache.set(cacheKey, result);
    return result;
  }
}

/** Posting lists are sorted, so each candidate of the shortest list is checked by binary search. */
function intersect(lists: number[][]): number[] {
  const [smallest, ...rest] = [...lists].sort((a, b) => a.length - b.length);
  if (!smallest) return [];
  return smallest.filter((index) => rest.every((list) => contains(list, index)));
}

function contains(sorted: number[], value: number): boolean {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = sorted[middle] ?? -1;
    if (found === value) return true;
    if (found < value) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** Documents holding at least half of the query's tokens: the fallback when no document holds them all. */
function atLeastHalf(lists: number[][], size: number): number[] {
  const needed = Math.ceil(lists.length / 2);
  const counts = new Uint8Array(size);
  const result: number[] = [];
  for (const list of lists) {
    for (const index of list) {
      counts[index] = (counts[index] ?? 0) + 1;
      if (counts[index] === needed) result.push(index);
    }
  }
  return result.sort((a, b) => a - b);
}
