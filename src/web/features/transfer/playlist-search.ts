import type { PlaylistSummary } from '../../../shared/api/playlists';

/** Spec section 2: case-insensitive substring match on the name; a blank query keeps every playlist. */
export function filterPlaylists<T extends Pick<PlaylistSummary, 'name'>>(
  playlists: readonly T[],
  query: string,
) {
  const needle = query.trim().toLocaleLowerCase();
  if (needle === '') return [...playlists];
  return playlists.filter((playlist) => playlist.name.toLocaleLowerCase().includes(needle));
}

export interface TextPart {
  text: string;
  match: boolean;
}

/** Splits `text` around every case-insensitive occurrence of `query`, for <mark>ing the matched parts. */
export function highlightParts(text: string, query: string): TextPart[] {
  const needle = query.trim().toLocaleLowerCase();
  if (needle === '') return [{ text, match: false }];
  const haystack = text.toLocaleLowerCase();
  // Lower-casing can change a string's length (e.g. "İ"); highlighting is then skipped rather than misplaced.
  if (haystack.length !== text.length) return [{ text, match: false }];
  const parts: TextPart[] = [];
  let from = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) {
    if (at > from) parts.push({ text: text.slice(from, at), match: false });
    parts.push({ text: text.slice(at, at + needle.length), match: true });
    from = at + needle.length;
  }
  if (from < text.length) parts.push({ text: text.slice(from), match: false });
  return parts;
}
