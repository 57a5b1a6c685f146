import { describe, expect, it } from 'vitest';
import { parseTrackList, TRACK_LIST_MESSAGES } from './track-list';

describe('parseTrackList', () => {
  it('reads the usual ways people write songs down', () => {
    const text = [
      'Cass Moreno - Slow Orbit',
      'Neon Rain by Vela',
      'Harbour Lights — The Low Tides',
      'Just A Title',
      '1. Junebug – Paper Crowns',
      '- Ora - Glass Hour (3:45)',
      '• "Quoted Title" by Pip',
      'Stand by Me by Ben E. King',
      'Drone Unit - Long Form - Live at the Hall 4:05',
    ].join('\n');
    const result = parseTrackList(text);
    expect(result.ok && result.problems).toEqual([]);
    expect(
      result.ok &&
        result.entries.map(({ row, title, artist, durationMs }) => [row, title, artist, durationMs]),
    ).toEqual([
      [1, 'Slow Orbit', 'Cass Moreno', undefined],
      [2, 'Neon Rain', 'Vela', undefined],
      [3, 'Harbour Lights', 'The Low Tides', undefined],
      [4, 'Just A Title', undefined, undefined],
      [5, 'Paper Crowns', 'Junebug', undefined],
      [6, 'Glass Hour', 'Ora', 225000],
      [7, 'Quoted Title', 'Pip', undefined],
      [8, 'Stand by Me', 'Ben E. King', undefined],
      [9, 'Long Form - Live at the Hall', 'Drone Unit', 245000],
    ]);
  });

  it('keeps the cleaned line for a free-text search', () => {
    const result = parseTrackList('  3)   Ora  -  Glass   Hour  ');
    expect(result.ok && result.entries[0]).toEqual({
      row: 1,
      title: 'Glass Hour',
      artist: 'Ora',
      text: 'Ora - Glass Hour',
    });
  });

  it('reports blank and garbage lines inside the list by line number, ignoring blank lines around it', () => {
    const text = [
      '',
      '',
      'Ora - Glass Hour',
      '',
      '-----',
      'https://open.spotify.com/track/x',
      'x'.repeat(501),
      '?!',
      'Pip - Dust',
      '',
      '',
    ].join('\r\n');
    const result = parseTrackList(text);
    expect(result.ok && result.entries.map((e) => [e.row, e.title])).toEqual([
      [3, 'Glass Hour'],
      [9, 'Dust'],
    ]);
    expect(result.ok && result.problems).toEqual([
      { row: 4, message: 'Line 4 is empty.' },
      { row: 5, message: "Line 5 doesn't look like a song." },
      { row: 6, message: 'Line 6 is a link; write the song as "Artist - Title" instead.' },
      { row: 7, message: 'Line 7 is too long to be a song.' },
      { row: 8, message: "Line 8 doesn't look like a song." },
    ]);
  });

  it.each([
    ['nothing', '', TRACK_LIST_MESSAGES.empty],
    ['only blank lines', '\n \n\t\n', TRACK_LIST_MESSAGES.empty],
    ['only garbage', '---\n***\n', TRACK_LIST_MESSAGES.noSongs],
    ['binary junk', '\u0000\u0001\u0002abc', TRACK_LIST_MESSAGES.notText],
    [
      'too many lines',
      Array.from({ length: 20_001 }, (_, i) => `Song ${i}`).join('\n'),
      TRACK_LIST_MESSAGES.tooMany,
    ],
    ['over 5 MB', 'a'.repeat(5 * 1024 * 1024 + 1), TRACK_LIST_MESSAGES.tooLarge],
  ])('refuses %s', (_label, text, message) => {
    expect(parseTrackList(text)).toMatchObject({ ok: false, message });
  });
});
