export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 20_000;

export const IMPORT_MESSAGES = {
  empty: 'The file is empty.',
  tooLarge: 'The file is larger than 5 MB; split the playlist into smaller files and import them one by one.',
  tooManyRows:
    'The file has more than 20,000 tracks; split it into smaller files and import them one by one.',
  notText: "This file isn't a text CSV file. Save or export it as CSV (UTF-8) and try again.",
  notUtf8: "This file isn't UTF-8 text. Save or export it as CSV (UTF-8) and try again.",
  spreadsheet:
    'This looks like an Excel or Numbers workbook, not a CSV file. Save it as CSV (UTF-8) and try again.',
  noNameColumn:
    'The file has no track-name column. Its first row should be a header such as "Track Name,Artist Name(s),Album Name" (Exportify) or "Track Name,Artist,Album,Duration".',
  headerOnly: 'The file has a header but no tracks.',
  noUsableRows: 'No row of the file has a track name, so there is nothing to import.',
  unreadable: "The file couldn't be read as CSV. Export it again and try once more.",
} as const;
