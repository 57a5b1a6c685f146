import type { NormalizedTrack, TrackQuery } from '../providers/types';
import { unifyText } from './normalize';
import { type PreparedTrack, prepareTrack } from './prepare';
import { transliterate } from './scripts';

export { normalizeIsrc } from './isrc';

export type SearchStrategyName = 'fields' | 'transliterated' | 'simplified' | 'album' | 'title' | 'artist';

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
  // In Latin letters when the name is written otherwise: that finds it in either script.
  if (latinArtist) addSearch('artist', { artist: latinArtist });
  return strategies;
}
