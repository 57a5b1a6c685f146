import type { NormalizedTrack, TrackQuery } from '../providers/types';
import { unifyText } from './normalize';
import { type PreparedTrack, prepareTrack } from './prepare';
import { transliterate } from './scripts';

export { normalizeIsrc } from './isrc';

export type SearchStrategyName =
  | 'fields'
  | 'transliterated'
  | 'simplified'
  | 'album'
  | 'title'
  | 'written'
  | 'credits'
  | 'artist';

/**
 * Searches for a song none of the others found well enough: run only while nothing found is worth a
 * review (see the pipeline), since for most songs the catalog lacks they would only cost calls.
 */
export const RESCUE_SEARCHES: ReadonlySet<SearchStrategyName> = new Set<SearchStrategyName>([
  'written',
  'credits',
  'artist',
]);

/** Names credited besides the primary artist that the 'credits' search adds: enough to narrow, few enough to match. */
const CREDITED_NAMES_IN_QUERY = 2;

export type MatchStrategy =
  | { kind: 'isrc'; isrc: string }
  | { kind: 'search'; name: SearchStrategyName; query: TrackQuery };

/** A stable key for a query, so identical searches run once and share a cache entry. */
export function queryKey(query: TrackQuery): string {
  const part = (v: string | undefined) => (v ? unifyText(v).toLowerCase() : '');
  return `t=${part(query.title)}|a=${part(query.artist)}|al=${part(query.album)}|x=${part(query.text)}`;
}

/**
 * The searches to try for one source track, most precise first: ISRC; title + primary artist as field
 * filters (the title as `queryTitle` words it: another recording's segment kept, remaster and edit notes
 * left out, since each service words those its own way); for a name in another script, the same in Latin
 * letters (both services index both forms); the simplified title + artist as free text; the album route;
 * the title alone; and last the primary artist alone, which lists that artist's songs whatever their
 * titles are written in. Queries that come out identical are listed once.
 */
export function buildStrategies(sourceTrack: NormalizedTrack | PreparedTrack): MatchStrategy[] {
  const source = 'titleKey' in sourceTrack ? sourceTrack : prepareTrack(sourceTrack);
  const strategies: MatchStrategy[] = [];
  if (source.isrc) strategies.push({ kind: 'isrc', isrc: source.isrc });

  const seen = new Set<string>();
  const addSearch = (name: SearchStrategyName, query: TrackQuery) => {
    const hasContent = Object.values(query).some((v) => typeof v === 'string' && v.trim() !== '');
    if (!hasContent) return;
    const key = queryKey(query);
    if (seen.has(key)) return;
    seen.add(key);
    strategies.push({ kind: 'search', name, query });
  };

  const artist = source.primaryArtist;
  addSearch('fields', artist ? { title: source.queryTitle, artist } : { title: source.queryTitle });
  const latinArtist = transliterate(artist);
  if (source.otherScript) {
    const latinTitle = transliterate(source.queryTitle);
    if (latinTitle !== source.queryTitle || latinArtist !== artist)
      addSearch('transliterated', { text: latinArtist ? `${latinTitle} ${latinArtist}` : latinTitle });
  }
  addSearch('simplified', { text: artist ? `${source.title} ${artist}` : source.title });
  if (source.album !== '' && artist) addSearch('album', { album: source.album, artist });
  addSearch('title', { title: source.title });
  addRescueSearches(source, latinArtist, addSearch);
  // In Latin letters when the name is written otherwise: that finds it in either script.
  if (latinArtist) addSearch('artist', { artist: latinArtist });
  return strategies;
}

function folded(text: string): string {
  return unifyText(text).toLowerCase();
}

/**
 * Two more forms of the song for when the ones above found it nowhere near, each narrowing by words the
 * others leave out, in Latin letters (both services index both forms):
 * - 'written': the title as the source writes it, every segment kept. The title query leaves out credits
 *   and release notes, and a catalog full of the artist's look-alike titles ("Song 2", "Song (Remix)")
 *   can crowd the one page out; a producer credit or subtitle both sides write narrows it back.
 * - 'credits': the title with the other credited names. A short or common title by a prolific artist
 *   ("ME!", "Home") fills the page with the artist's other songs; a featured name narrows it to theirs.
 */
function addRescueSearches(
  source: PreparedTrack,
  latinArtist: string,
  addSearch: (name: SearchStrategyName, query: TrackQuery) => void,
): void {
  const written = unifyText(source.track.name);
  if (folded(written) !== folded(source.queryTitle) && folded(written) !== folded(source.title)) {
    const latinWritten = transliterate(written);
    addSearch('written', { text: latinArtist ? `${latinWritten} ${latinArtist}` : latinWritten });
  }
  const others = source.artists.slice(1, 1 + CREDITED_NAMES_IN_QUERY).map(transliterate);
  if (latinArtist && others.length > 0) {
    addSearch('credits', { text: [transliterate(source.queryTitle), latinArtist, ...others].join(' ') });
  }
}
