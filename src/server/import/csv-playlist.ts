import { type CsvError, parse } from 'csv-parse/sync';
import { type ColumnKey, type ColumnMap, mapColumns } from './csv-headers';
import {
  normalizeIsrc,
  parseAddedAt,
  parseDuration,
  parseExplicit,
  parseReleaseDate,
  splitArtists,
  spotifyTrackId,
} from './csv-values';
import { decodeImportText } from './decode-text';
import { IMPORT_MESSAGES as M, MAX_IMPORT_ROWS } from './limits';
import type { ImportedTrack, ImportFailure, RowProblem } from './types';

export { IMPORT_MESSAGES, MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from './limits';
export type { ImportedTrack, ImportFailure, RowProblem } from './types';

export interface CsvImportOptions {
  /** The uploaded file's name; the playlist is named after it. */
  fileName?: string;
}

export type CsvImportResult =
  | { ok: true; playlistName: string; entries: ImportedTrack[]; warnings: RowProblem[] }
  | ImportFailure;

const DEFAULT_PLAYLIST_NAME = 'Imported playlist';
const MAX_NAME_LENGTH = 100;

const failure = (message: string, problems: RowProblem[] = []): ImportFailure => ({
  ok: false,
  message,
  problems,
});

/** Quotes a cell value for a message, short enough to read. */
const shown = (value: string): string => {
  const text = value.trim();
  return `"${text.length > 40 ? `${text.slice(0, 39)}…` : text}"`;
};

/** "my_road_trip.csv" → "my road trip" (Exportify names files after the playlist, spaces as underscores). */
export const playlistNameFromFileName = (fileName: string | undefined): string => {
  const base = (fileName ?? '').split(/[/\\]/).pop() ?? '';
  const name = base
    .replace(/\.(?:csv|tsv|txt)$/i, '')
    .replace(/[_\p{Cc}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return name === '' ? DEFAULT_PLAYLIST_NAME : name.slice(0, MAX_NAME_LENGTH);
};

/**
 * Exportify writes commas; spreadsheets in many European locales save with ";", and copying from a sheet
 * gives tabs. The header line decides: whichever of the three it holds most often outside quotes.
 */
const sniffDelimiter = (text: string): string => {
  const counts = new Map<string, number>([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ]);
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best = ',';
  for (const [delimiter, count] of counts) if (count > (counts.get(best) ?? 0)) best = delimiter;
  return best;
};

interface CsvRecord {
  row: number;
  fields: string[];
}

interface ReadRecords {
  records: CsvRecord[];
  problems: RowProblem[];
  /** Row where an unclosed quote swallowed the rest of the file. */
  brokenAt?: number;
  /** Set when reading stopped early because the file has far more rows than the limit. */
  tooManyRows?: true;
}

const isBlank = (fields: readonly string[]): boolean => fields.every((field) => field.trim() === '');

// Each skipped record costs csv-parse an Error object, so a 5 MB file of one-character junk lines would
// take minutes: stop reading once there are clearly more rows than the limit allows.
const MAX_RECORDS_READ = 2 * MAX_IMPORT_ROWS + 2;

/**
 * Reads every record, numbering rows as a spreadsheet does (header = row 1, blank lines count, a quoted
 * field with line breaks stays one row). Ragged rows are reported, not padded.
 */
const readRecords = (text: string): ReadRecords => {
  const records: CsvRecord[] = [];
  const problems: RowProblem[] = [];
  let seen = 0;
  let expected = 0;
  let brokenAt: number | undefined;
  let tooManyRows = false;
  const nextRow = (emptyLinesBefore: unknown): number => {
    seen += 1;
    if (seen > MAX_RECORDS_READ) {
      tooManyRows = true;
      throw new Error('row limit reached');
    }
    return seen + (typeof emptyLinesBefore === 'number' ? emptyLinesBefore : 0);
  };
  try {
    parse(text, {
      delimiter: sniffDelimiter(text.replace(/^\s+/, '')),
      bom: true,
      relax_column_count: false,
      // A stray quote inside an unquoted field (`12" Mix`) is read as text, as spreadsheets do.
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_record: (fields: string[], context) => {
        const row = nextRow(context.empty_lines);
        if (records.length === 0) expected = fields.length;
        records.push({ row, fields });
        return null;
      },
      on_skip: (error: CsvError | undefined) => {
        const row = nextRow(error?.empty_lines);
        if (error?.code === 'CSV_QUOTE_NOT_CLOSED') {
          brokenAt = row;
          return;
        }
        const fields = Array.isArray(error?.record) ? (error.record as unknown[]) : undefined;
        if (error?.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH' && fields !== undefined) {
          // A line of spaces is a blank row, not a broken one.
          if (fields.every((field) => typeof field !== 'string' || field.trim() === '')) return;
          problems.push({
            row,
            message: `Row ${row} has ${fields.length} fields but the header has ${expected}, so it was skipped.`,
          });
          return;
        }
        problems.push({
          row,
          message: `Row ${row} couldn't be read as CSV (a quote is misplaced), so it was skipped.`,
        });
      },
    });
  } catch (error) {
    if (!tooManyRows) throw error;
    return { records, problems, tooManyRows: true };
  }
  return brokenAt === undefined ? { records, problems } : { records, problems, brokenAt };
};

const cell = (fields: readonly string[], columns: ColumnMap, key: ColumnKey): string => {
  const index = columns[key];
  return index === undefined ? '' : (fields[index] ?? '');
};

// A line break typed into a spreadsheet cell is layout, not part of the title.
const cellText = (fields: readonly string[], columns: ColumnMap, key: ColumnKey): string =>
  cell(fields, columns, key).replace(/\s+/g, ' ').trim();

const toTrack = (
  record: CsvRecord,
  columns: ColumnMap,
  problems: RowProblem[],
): ImportedTrack | undefined => {
  const { row, fields } = record;
  const name = cellText(fields, columns, 'name');
  if (name === '') {
    problems.push({ row, message: `Row ${row} has no track name, so it was skipped.` });
    return undefined;
  }

  const rawDuration = cell(fields, columns, 'duration');
  const duration = parseDuration(rawDuration);
  if (!duration.ok) {
    problems.push({
      row,
      message: `Row ${row}: the duration ${shown(rawDuration)} is neither milliseconds nor m:ss, so it was left out.`,
    });
  }
  const rawIsrc = cell(fields, columns, 'isrc');
  const isrc = normalizeIsrc(rawIsrc);
  if (isrc === undefined && rawIsrc.trim() !== '') {
    problems.push({ row, message: `Row ${row}: ${shown(rawIsrc)} is not a valid ISRC, so it was left out.` });
  }

  const spotifyId = spotifyTrackId(cell(fields, columns, 'uri'));
  const track: ImportedTrack = {
    id: spotifyId ?? `csv-${row}`,
    uri: spotifyId === undefined ? `csv-${row}` : `spotify:track:${spotifyId}`,
    name,
    artists: splitArtists(cellText(fields, columns, 'artists')),
    album: cellText(fields, columns, 'album'),
    durationMs: (duration.ok ? duration.ms : undefined) ?? 0,
    row,
  };
  if (spotifyId !== undefined) track.sourceService = 'spotify';
  if (isrc !== undefined) track.isrc = isrc;
  const explicit = parseExplicit(cell(fields, columns, 'explicit'));
  if (explicit !== undefined) track.explicit = explicit;
  const releaseDate = parseReleaseDate(cell(fields, columns, 'releaseDate'));
  if (releaseDate !== undefined) track.releaseDate = releaseDate;
  const addedAt = parseAddedAt(cell(fields, columns, 'addedAt'));
  if (addedAt !== undefined) track.addedAt = addedAt;
  return track;
};

const parseCheckedCsv = (input: string | Uint8Array, options: CsvImportOptions): CsvImportResult => {
  const decoded = decodeImportText(input);
  if (!decoded.ok) return failure(decoded.message);

  const { records, problems, brokenAt, tooManyRows } = readRecords(decoded.text);
  if (tooManyRows) return failure(M.tooManyRows);
  if (brokenAt !== undefined) {
    return failure(
      `The file is cut off or damaged: a quoted field that starts on row ${brokenAt} is never closed.`,
      problems,
    );
  }
  const [header, ...rest] = records;
  if (header === undefined || isBlank(header.fields)) return failure(M.empty, problems);
  const columns = mapColumns(header.fields);
  if (columns.name === undefined) return failure(M.noNameColumn, problems);

  const dataRows = rest.filter((record) => !isBlank(record.fields));
  if (dataRows.length + problems.length > MAX_IMPORT_ROWS) return failure(M.tooManyRows);
  if (dataRows.length === 0 && problems.length === 0) return failure(M.headerOnly);

  const entries: ImportedTrack[] = [];
  for (const record of dataRows) {
    const track = toTrack(record, columns, problems);
    if (track !== undefined) entries.push(track);
  }
  problems.sort((a, b) => a.row - b.row);
  if (entries.length === 0) return failure(M.noUsableRows, problems);
  return { ok: true, playlistName: playlistNameFromFileName(options.fileName), entries, warnings: problems };
};

/**
 * Reads a playlist CSV: Exportify exports (any column order, extra columns ignored, headers matched
 * loosely and in several languages) and Crossfade's own "Track Name, Artist, Album, Duration" export.
 * Takes raw upload bytes (checked as UTF-8) or already-decoded text. Never throws; values are not
 * neutralised here (the CSV export does that when writing).
 */
export const parsePlaylistCsv = (
  input: string | Uint8Array,
  options: CsvImportOptions = {},
): CsvImportResult => {
  try {
    return parseCheckedCsv(input, options);
  } catch {
    return failure(M.unreadable);
  }
};
