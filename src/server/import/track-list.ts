import { decodeImportText } from './decode-text';
import { IMPORT_MESSAGES, MAX_IMPORT_ROWS } from './limits';
import type { ImportFailure, RowProblem } from './types';

/** One song typed or pasted as a line of text (the /recreate page). */
export interface ListedTrack {
  /** 1-based line number in the pasted text. */
  row: number;
  title: string;
  artist?: string;
  /** From a trailing "3:45" or "(3:45)". */
  durationMs?: number;
  /** The cleaned line, for a free-text search when the split guessed wrong. */
  text: string;
}

export type TrackListResult = { ok: true; entries: ListedTrack[]; problems: RowProblem[] } | ImportFailure;

export const TRACK_LIST_MESSAGES = {
  empty: 'Paste at least one song, one per line, such as "Artist - Title".',
  tooMany: 'That is more than 20,000 lines; paste a shorter list.',
  noSongs: 'None of the lines looks like a song. Write one per line, such as "Artist - Title".',
  tooLarge: 'That list is larger than 5 MB; paste a shorter one.',
  notText: "That doesn't look like plain text; paste the list of songs as text.",
} as const;

const decodeFailureMessage = (message: string): string => {
  if (message === IMPORT_MESSAGES.empty) return TRACK_LIST_MESSAGES.empty;
  if (message === IMPORT_MESSAGES.tooLarge) return TRACK_LIST_MESSAGES.tooLarge;
  return TRACK_LIST_MESSAGES.notText;
};

const MAX_LINE_LENGTH = 500;

// "1. ", "01) ", "- ", "* ", "• " at the start of a line: list markup, not part of the song.
const LIST_MARKER = /^(?:[-*•·▪‣◦>]+\s+|\(?\d{1,4}[.)\]]\s+|#\d{1,4}\s+)/u;
const TRAILING_DURATION = /\s+[([]?(\d{1,3}):([0-5]\d)[)\]]?$/;
const SURROUNDING_QUOTES = /^["'“”‘’«»„]+|["'“”‘’«»„]+$/gu;
const LINK = /^(?:[a-z][a-z0-9+.-]*:\/\/|www\.|spotify:)/i;

const unquote = (value: string): string => value.replace(SURROUNDING_QUOTES, '').trim();

const split = (line: string): { title: string; artist?: string } => {
  const pick = (title: string, artist: string) => {
    const [t, a] = [unquote(title), unquote(artist)];
    if (t === '') return { title: a };
    return a === '' ? { title: t } : { title: t, artist: a };
  };
  // Order of the separators matters: "Title — Artist" uses an em dash, "Artist - Title" a hyphen or en dash.
  const emDash = line.indexOf(' — ');
  if (emDash > 0) return pick(line.slice(0, emDash), line.slice(emDash + 3));
  const dash = /\s[-–]\s/.exec(line);
  if (dash) return pick(line.slice(dash.index + 3), line.slice(0, dash.index));
  // The last " by " so that "Stand by Me by Ben E. King" keeps its title; a bare "Stand by Me" is ambiguous
  // and is read as title "Stand" by "Me" (the free-text `text` still holds the whole line).
  const by = line.toLowerCase().lastIndexOf(' by ');
  if (by > 0) return pick(line.slice(0, by), line.slice(by + 4));
  return { title: unquote(line) };
};

const readLine = (raw: string, row: number): ListedTrack | RowProblem => {
  let line = raw.replace(/\s+/g, ' ').trim();
  if (line === '') return { row, message: `Line ${row} is empty.` };
  if (line.length > MAX_LINE_LENGTH) return { row, message: `Line ${row} is too long to be a song.` };
  if (LINK.test(line))
    return { row, message: `Line ${row} is a link; write the song as "Artist - Title" instead.` };
  line = line.replace(LIST_MARKER, '').trim();

  let durationMs: number | undefined;
  const duration = TRAILING_DURATION.exec(line);
  if (duration) {
    durationMs = (Number(duration[1]) * 60 + Number(duration[2])) * 1000;
    line = line.slice(0, duration.index).trim();
  }
  if (!/[\p{L}\p{N}]/u.test(line)) return { row, message: `Line ${row} doesn't look like a song.` };

  const { title, artist } = split(line);
  const entry: ListedTrack = { row, title, text: line };
  if (artist !== undefined) entry.artist = artist;
  if (durationMs !== undefined) entry.durationMs = durationMs;
  return entry;
};

/**
 * A pasted list of songs, one per line: "Artist - Title", "Title by Artist", "Title — Artist" or just
 * "Title", with list numbering and a trailing duration tolerated. Blank and garbage lines inside the
 * list are reported; blank lines before and after it are not. Never throws.
 */
export const parseTrackList = (input: string): TrackListResult => {
  try {
    const decoded = decodeImportText(input);
    if (!decoded.ok) {
      return { ok: false, message: decodeFailureMessage(decoded.message), problems: [] };
    }
    const leading = /^(?:[ \t]*\r?\n)*/.exec(decoded.text)?.[0] ?? '';
    const firstRow = leading.split('\n').length;
    const lines = decoded.text
      .slice(leading.length)
      .trimEnd()
      .split(/\r\n|\r|\n/);
    if (lines.length > MAX_IMPORT_ROWS)
      return { ok: false, message: TRACK_LIST_MESSAGES.tooMany, problems: [] };

    const entries: ListedTrack[] = [];
    const problems: RowProblem[] = [];
    lines.forEach((raw, index) => {
      const result = readLine(raw, firstRow + index);
      if ('message' in result) problems.push(result);
      else entries.push(result);
    });
    if (entries.length === 0) return { ok: false, message: TRACK_LIST_MESSAGES.noSongs, problems };
    return { ok: true, entries, problems };
  } catch {
    return { ok: false, message: TRACK_LIST_MESSAGES.noSongs, problems: [] };
  }
};
