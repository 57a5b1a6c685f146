import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePlaylistCsv } from './csv-playlist';
import { parseTrackList } from './track-list';

// Printable text without the characters that make the importer refuse a file or split artists.
const cellText = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 30 })
  .filter((s) => !/[\p{Cc}\p{Cs}\ufffd\ufeff;,\\]/u.test(s) && s.replace(/\s+/g, ' ').trim() !== '');
const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

const track = fc.record({
  name: cellText,
  artists: fc.array(cellText, { minLength: 1, maxLength: 3 }),
  album: cellText,
  durationMs: fc.integer({ min: 0, max: 3_600_000 }),
});

describe('import properties', () => {
  it('reads back every track of any Exportify-style file, whatever the quoting and line ends', () => {
    fc.assert(
      fc.property(
        fc.array(track, { minLength: 1, maxLength: 20 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.boolean(),
        (tracks, eol, quoted, bom) => {
          const csv = stringify(
            tracks.map((t) => [t.name, t.artists.join(';'), t.album, String(t.durationMs)]),
            {
              header: true,
              columns: ['Track Name', 'Artist Name(s)', 'Album Name', 'Duration (ms)'],
              record_delimiter: eol === '\n' ? 'unix' : 'windows',
              quoted,
            },
          );
          const result = parsePlaylistCsv(bom ? `\ufeff${csv}` : csv);
          expect(result.ok).toBe(true);
          if (!result.ok) return;
          expect(result.warnings).toEqual([]);
          expect(result.entries.map((e) => [e.name, e.album, e.durationMs])).toEqual(
            tracks.map((t) => [collapse(t.name), collapse(t.album), t.durationMs]),
          );
          for (const [i, entry] of result.entries.entries()) {
            const expected = [
              ...new Map(tracks[i]?.artists.map((a) => [collapse(a).toLowerCase(), collapse(a)])).values(),
            ];
            expect(entry.artists).toEqual(expected);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never throws on arbitrary text or bytes, and always explains a refusal', () => {
    const header = fc.constantFrom(
      '',
      'Track Name,Artist,Album,Duration\n',
      'Track Name;ISRC\n',
      '"Track Name"\r\n',
    );
    const body = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 400 }),
      fc.string({ unit: fc.constantFrom('"', ',', ';', '\n', '\r', 'a', ' ', '\t', '\\'), maxLength: 200 }),
    );
    fc.assert(
      fc.property(header, body, (h, b) => {
        const fromText = parsePlaylistCsv(h + b, { fileName: b });
        if (fromText.ok) {
          for (const entry of fromText.entries) {
            expect(entry.name.trim()).not.toBe('');
            expect(entry.row).toBeGreaterThan(1);
            if (entry.isrc !== undefined) expect(entry.isrc).toMatch(/^[A-Z]{2}[A-Z0-9]{3}\d{7}$/);
          }
        } else {
          expect(fromText.message.length).toBeGreaterThan(0);
        }
        const list = parseTrackList(h + b);
        expect(list.ok || list.message.length > 0).toBe(true);
      }),
      { numRuns: 600 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 500 }), (upload) => {
        const result = parsePlaylistCsv(upload);
        expect(result.ok || result.message.length > 0).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});
