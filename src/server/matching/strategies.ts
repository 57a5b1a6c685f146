import type { NormalizedTrack, TrackQuery } from '../providers/types';
import { unifyText } from './normalize';
import { type PreparedTrack, prepareTrack } from './prepare';

export { normalizeIsrc } from './isrc';

export type SearchStrategyName = 'fields' | 'simplified' | 'album' | 'title';

export type MatchStrategy =
  | { kind: 'isrc'; isrc: string }
  | { kind: 'search'; name: SearchStrategyName; query: TrackQuery };

const INLINE_CREDIT_RE = /\s*[([](?:feat\.?|ft\.?|featuring|with)\s[^)\]]*[)\]]/gi;

/** The title as the source shows it, minus "(feat. X)" credits: version words stay so the search finds that version. */
function titleWithoutCredits(track: NormalizedTrack): string {
  return unifyText(track.name.replace(INLINE_CREDIT_RE, ''));
}

/** A stable key for a query, so identical searches run once and share a cache entry. */
export function queryKey(query: TrackQuery): string {
  const part = (v: string | undefined) => (v ? unifyText(v).toLowerCase() : '');
  return `t=${part(query.title)}|a=${part(query.artist)}|al=${part(query.album)}|x=${part(query.text)}`;
}

/**
 * The searches to try for one source track, most precise first: ISRC, title + primary artist as field
 * filters, the simplified title (version and credits stripped) + primary artist as free text, the album
 * route, then the title alone. Queries that come out identical are listed once.
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

  const fullTitle = titleWithoutCredits(source.track);
  const artist = source.primaryArtist;
  addSearch('fields', artist ? { title: fullTitle, artist } : { title: fullTitle });
  addSearch('simplified', { text: artist ? `${source.title} ${artist}` : source.title });
  if (source.album !== '' && artist) addSearch('album', { album: source.album, artist });
  addSearch('title', { title: source.title });
  return strategies;
}
