import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';

describe('toCsv', () => {
  it('writes a header and rows with CRLF line ends', () => {
    expect(toCsv(['Track Name', 'Artist'], [['Song', 'Band']])).toBe('Track Name,Artist\r\nSong,Band\r\n');
  });

  it('quotes commas, quotes and line breaks so a reader gets the original text back', () => {
    const rows = [['Hello, "World"', 'Line one\nLine two', 'carriage\rreturn']];
    const text = toCsv(['a', 'b', 'c'], rows);
    expect(text).toContain('"Hello, ""World"""');
    expect(parse(text, { columns: true })).toEqual([
      { a: 'Hello, "World"', b: 'Line one\nLine two', c: 'carriage\rreturn' },
    ]);
  });

  it('defuses cells a spreadsheet would run as formulas', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      expect(csvCell(`${start}SUM(A1:A9)`).replace(/^"/, '')).toMatch(/^'/);
    }
    expect(toCsv(['x'], [['=HYPERLINK("http://evil")']])).toBe('x\r\n"\'=HYPERLINK(""http://evil"")"\r\n');
    expect(csvCell('Plain title')).toBe('Plain title');
    expect(csvCell('Mid-song = fine')).toBe('Mid-song = fine');
  });

  it('keeps non-Latin text as is', () => {
    expect(toCsv(['Track Name'], [['夜に駆ける']])).toBe('Track Name\r\n夜に駆ける\r\n');
  });
});
