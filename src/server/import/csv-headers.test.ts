import { describe, expect, it } from 'vitest';
import { KNOWN_HEADERS, mapColumns, normalizeHeader } from './csv-headers';

describe('header table', () => {
  it.each(KNOWN_HEADERS)('"%s" is read as the %s column and nothing else', (name, key) => {
    expect(mapColumns([name])).toEqual({ [key]: 0 });
  });

  it("does not mistake Exportify's album-artist column for the track artists", () => {
    expect(mapColumns(['Album Artist Name(s)', 'Track Name', 'Artist Name(s)'])).toEqual({
      name: 1,
      artists: 2,
    });
  });

  it('takes the first of two columns with the same meaning', () => {
    expect(mapColumns(['Title', 'Track Name'])).toEqual({ name: 0 });
  });

  it('ignores case, width, accents, spaces and punctuation', () => {
    expect(normalizeHeader(' Duración（MS） ')).toBe(normalizeHeader('duracion (ms)'));
    expect(normalizeHeader('ARTIST_NAME(S)')).toBe(normalizeHeader('Artist Name(s)'));
  });
});
