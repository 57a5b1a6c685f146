/**
 * CSV as RFC 4180 describes it (CRLF line ends, fields quoted when they hold a comma, quote, CR or LF,
 * quotes doubled), made safe to open in a spreadsheet: a cell that starts with `=`, `+`, `-`, `@`, tab or
 * CR would be run as a formula, so it gets a leading `'` (OWASP's CSV-injection advice). Playlist and
 * track names are written by strangers, so every cell is treated this way, header included.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV record, ending in CRLF. */
export const csvLine = (row: readonly string[]) => `${row.map(csvCell).join(',')}\r\n`;

/** One CSV document: the header, then each row, every record ending in CRLF. */
export function toCsv(header: string[], rows: string[][]): string {
  return [header, ...rows].map(csvLine).join('');
}
