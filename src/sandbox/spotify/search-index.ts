import { latinSpellings } from '../catalog/latin-spellings';

/**
 * Track search for the emulator: an inverted index over normalized tokens (per field and across fields) plus
 * an ISRC map, built once, so a search touches only the posting lists of its own tokens, never the catalog.
 */

export interface SearchableTrack {
  title: string;
  artists: string[];
  album: string;
  isrc: string;
  /** Release year, for `year:` filters. */
  year: number | undefined;
}

export interface ParsedSearchQuery {
  isrc?: string;
  /** `upc:`, which only album search heeds. */
  upc?: string;
  track: string[];
  artist: string[];
  album: string[];
  free: string[];
  year?: { from: number; to: number };
  /**
   * A `track:`, `artist:` or `album:` value with an apostrophe in it: Spotify's field filters then find
   * nothing at all (spotify/web-api#1041, #1212), though the same words as free text do.
   */
  unmatchable?: boolean;
  /** Raw texts of the `track:` and `artist:` filters, for exact-match ranking. */
  trackText?: string;
  artistText?: string;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export function normalizeText(text: string): string {
  let value = text.toLowerCase();
  // Most titles are plain ASCII: skip Unicode decomposition for them (index build time on 100k tracks).
  const ascii = PRINTABLE_ASCII.test(value);
  if (!ascii) value = value.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  // Spotify joins a word across an apostrophe: "Carissa's" is found as "carissas", not "carissa s".
  value = value.replace(/&/g, ' and ').replace(/['\u2018\u2019`]/g, '');
  return (ascii ? value.replace(/[^a-z0-9]+/g, ' ') : value.replace(/[^\p{L}\p{N}]+/gu, ' ')).trim();
}

export function tokenize(text: string): string[] {
  const normalized = normalizeText(text);
  return normalized === '' ? [] : normalized.split(' ');
}

const QUERY_PART = /([A-Za-z]+):(?:"([^"]*)"?|(\S+))|"([^"]*)"?|(\S+)/g;

/** Spotify's query syntax: free text plus `track:`, `artist:`, `album:`, `isrc:` and `year:` filters. */
export function parseSearchQuery(q: string): ParsedSearchQuery {
  const parsed: ParsedSearchQuery = { track: [], artist: [], album: [], free: [] };
  for (const match of q.matchAll(QUERY_PART)) {
    const [whole, field, quoted, bare, freeQuoted, freeBare] = match;
    if (field === undefined) {
      parsed.free.push(...tokenize(freeQuoted ?? freeBare ?? ''));
      continue;
    }
    const value = quoted ?? bare ?? '';
    if (['track', 'artist', 'album'].includes(field.toLowerCase()) && /['\u2018\u2019]/.test(value)) {
      parsed.unmatchable = true;
    }
    switch (field.toLowerCase()) {
      case 'isrc':
        parsed.isrc = value.trim().toUpperCase();
        break;
      case 'track':
        parsed.track.push(...tokenize(value));
        parsed.trackText = `${parsed.trackText ? `${parsed.trackText} ` : ''}${value}`;
        break;
      case 'artist':
        parsed.artist.push(...tokenize(value));
        parsed.artistText = `${parsed.artistText ? `${parsed.artistText} ` : ''}${value}`;
        break;
      case 'album':
        parsed.album.push(...tokenize(value));
        break;
      case 'year': {
        const range = /^(\d{4})(?:-(\d{4}))?$/.exec(value.trim());
        if (range?.[1]) {
          const from = Number(range[1]);
          parsed.year = { from, to: range[2] ? Number(range[2]) : from };
        }
        break;
      }
      case 'upc':
        parsed.upc = value.trim();
        break;
      case 'genre':
      case 'tag':
        // Filters that do not apply to track search in the emulator's model: ignored, as Spotify does.
        break;
      default:
        parsed.free.push(...tokenize(whole));
    }
  }
  return parsed;
}

const EMPTY: readonly number[] = [];

type Field = 'title' | 'artist' | 'album' | 'any';

export class TrackSearchIndex {
  /** One map per field, keyed by the bare token (no concatenated keys: they made 100k-track builds slow). */
  private readonly postings: Record<Field, Map<string, number[]>> = {
    title: new Map(),
    artist: new Map(),
    album: new Map(),
    any: new Map(),
  };
  private readonly byIsrc = new Map<string, number[]>();
  private readonly titles: string[] = [];
  private readonly titleTokenCounts: number[] = [];
  private readonly primaryArtists: string[] = [];
  private readonly years: (number | undefined)[] = [];

  constructor(tracks: readonly SearchableTrack[]) {
    // Artist and album names repeat across a catalog: normalize each distinct one once.
    const cache = new Map<string, string[]>();
    const cachedWords = (text: string) => {
      let value = cache.get(text);
      if (value === undefined) {
        value = tokenize(text);
        cache.set(text, value);
      }
      return value;
    };
    tracks.forEach((track, index) => {
      const title = normalizeText(track.title);
      const titleTokens = title === '' ? [] : title.split(' ');
      this.titles.push(title);
      this.titleTokenCounts.push(new Set(titleTokens).size);
      this.primaryArtists.push(
        (track.artists[0] === undefined ? [] : cachedWords(track.artists[0])).join(' '),
      );
      this.years.push(track.year);
      for (const token of titleTokens) this.add('title', token, index);
      for (const artist of track.artists)
        for (const token of cachedWords(artist)) this.add('artist', token, index);
      for (const token of cachedWords(track.album)) this.add('album', token, index);
      // Names in another script are found by their Latin spelling too, as on Spotify.
      const latin = (field: Field, text: string) => {
        for (const spelling of latinSpellings(text))
          for (const token of cachedWords(spelling)) this.add(field, token, index);
      };
      latin('title', track.title);
      for (const artist of track.artists) latin('artist', artist);
      latin('album', track.album);
      const isrc = track.isrc.toUpperCase();
      const list = this.byIsrc.get(isrc);
      if (list) list.push(index);
      else this.byIsrc.set(isrc, [index]);
    });
  }

  /** Indices of matching tracks, best first; `accept` filters (market availability) before ranking. */
  search(query: ParsedSearchQuery, accept: (index: number) => boolean): number[] {
    const terms: [Field, string][] = [
      ...new Set(query.track.map((t) => `title ${t}`)),
      ...new Set(query.artist.map((t) => `artist ${t}`)),
      ...new Set(query.album.map((t) => `album ${t}`)),
      ...new Set(query.free.map((t) => `any ${t}`)),
    ].map((term) => {
      const space = term.indexOf(' ');
      return [term.slice(0, space) as Field, term.slice(space + 1)];
    });
    const lists = terms.map(([field, token]) => this.postings[field].get(token) ?? EMPTY);
    const keep = (index: number) => accept(index) && this.inYear(index, query.year);

    let candidates: number[];
    if (query.isrc !== undefined) {
      candidates = (this.byIsrc.get(query.isrc) ?? []).filter((i) => lists.every((list) => has(list, i)));
    } else if (lists.length === 0) {
      return [];
    } else {
      candidates = intersect(lists);
    }
    let hits = new Map<number, number>(candidates.filter(keep).map((i) => [i, lists.length]));

    // Nothing carries every word: fall back to most words (a stray "feat." or "remastered" should not hide
    // the song), the way a real search engine still answers a slightly-off query.
    if (hits.size === 0 && query.isrc === undefined && lists.length >= 2) {
      const needed = Math.ceil(lists.length * 0.6);
      const counts = new Map<number, number>();
      for (const list of lists) for (const i of list) counts.set(i, (counts.get(i) ?? 0) + 1);
      hits = new Map([...counts].filter(([i, count]) => count >= needed && keep(i)));
    }

    const trackText = normalizeText(query.trackText ?? query.free.join(' '));
    const artistText = normalizeText(query.artistText ?? '');
    const queryTokens = new Set([...query.track, ...query.free]);
    const score = (index: number, matched: number) => {
      let value = matched * 10;
      if (trackText !== '' && this.titles[index] === trackText) value += 5;
      if (artistText !== '' && this.primaryArtists[index] === artistText) value += 3;
      // Fewer words beyond the query's ranks the plain version above "… - Live" or "… (Remix)".
      value -= Math.max(0, (this.titleTokenCounts[index] ?? 0) - queryTokens.size) * 0.5;
      return value;
    };
    return [...hits]
      .map(([index, matched]) => ({ index, value: score(index, matched) }))
      .sort((a, b) => b.value - a.value || a.index - b.index)
      .map((hit) => hit.index);
  }

  private inYear(index: number, year: ParsedSearchQuery['year']): boolean {
    if (!year) return true;
    const value = this.years[index];
    return value !== undefined && value >= year.from && value <= year.to;
  }

  /** Tracks arrive in index order, so a repeated token of one track is always the list's last entry. */
  private add(field: Field, token: string, index: number) {
    for (const target of [field, 'any'] as const) {
      const list = this.postings[target].get(token);
      if (!list) this.postings[target].set(token, [index]);
      else if (list[list.length - 1] !== index) list.push(index);
    }
  }
}

/** Posting lists are ascending by construction, so membership is a binary search. */
function has(list: readonly number[], value: number): boolean {
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const item = list[middle] ?? 0;
    if (item === value) return true;
    if (item < value) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

function intersect(lists: readonly (readonly number[])[]): number[] {
  const sorted = [...lists].sort((a, b) => a.length - b.length);
  const [smallest = EMPTY, ...rest] = sorted;
  return smallest.filter((value) => rest.every((list) => has(list, value)));
}
